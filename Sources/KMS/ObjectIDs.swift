/// The IDs the kernel gives KMS objects, one type per kind of object, so that a CRTC
/// passed where a connector is expected does not compile. They are plain `UInt32`s
/// to libdrm; `rawValue` is taken only at its call sites.
struct ConnectorID: Equatable {
  let rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A CRTC's ID (`drmModeRes.crtcs`).
struct CRTCID: Equatable {
  let rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A plane's ID (`drmModePlaneRes.planes`).
struct PlaneID: Equatable {
  let rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A framebuffer's ID (`drmModeAddFB2`); `none` (0) is what the kernel reads as
/// "no framebuffer".
struct FramebufferID: Equatable {
  let rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
  static let none = FramebufferID(0)
}
