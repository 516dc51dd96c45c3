import CDRM

/// The scan-out format step of the modesetting sequence: what the CRTC's primary plane
/// can show and what the driver prefers, and the format the buffers are made in.
///
/// Drivers of panels behind a slow bus (SPI `panel-mipi-dbi`, `gud`, `udl`, and QEMU's
/// cirrus) say they prefer 16 bits per pixel (`DRM_CAP_DUMB_PREFERRED_DEPTH`): there a
/// frame in RGB565 is half the bytes on the wire. Everything else gets XRGB8888, the
/// one format every KMS driver scans out.
public enum ScanoutFormat {
  /// The format to make the buffers in.
  ///
  /// - Parameters:
  ///   - requested: `format =`, nil for automatic.
  ///   - planeFormats: the primary plane's formats; empty when they are unknown (no
  ///     plane was found), and then any of ours is taken on trust.
  ///   - preferredDepth: the driver's `DRM_CAP_DUMB_PREFERRED_DEPTH`, 0 when unknown.
  /// - Returns: the format, or nil when the plane can show none that is asked for or
  ///   that we draw (the caller names the plane's formats).
  public static func choose(requested: FourCC?, planeFormats: [UInt32], preferredDepth: UInt64) -> FourCC? {
    let offers = { (format: FourCC) in planeFormats.isEmpty || planeFormats.contains(format.rawValue) }
    if let requested { return offers(requested) ? requested : nil }
    if preferredDepth == 16 || preferredDepth == 15, offers(.rgb565) { return .rgb565 }
    if offers(.xrgb8888) { return .xrgb8888 }
    return offers(.rgb565) ? .rgb565 : nil
  }

  /// The formats of the plane that can show on the CRTC at `crtcIndex` as primary
  /// (the universal-planes cap must be set, or only overlays are listed).
  static func primaryPlaneFormats(crtcIndex: Int, of device: borrowing DrmDevice) -> [UInt32] {
    guard let plane = Probe.primaryPlane(forCrtcIndex: crtcIndex, of: device),
      let info = drmModeGetPlane(device.descriptor, plane.rawValue)
    else { return [] }
    defer { drmModeFreePlane(info) }
    guard let formats = info.pointee.formats, info.pointee.count_formats > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: formats, count: Int(info.pointee.count_formats)))
  }

  /// `DRM_CAP_DUMB_PREFERRED_DEPTH`, 0 when the driver does not say.
  static func preferredDepth(of device: borrowing DrmDevice) -> UInt64 {
    var value: UInt64 = 0
    guard drmGetCap(device.descriptor, UInt64(DRM_CAP_DUMB_PREFERRED_DEPTH), &value) == 0 else { return 0 }
    return value
  }

  /// `XR24, RG16, ...`: a plane's formats as the kernel names them.
  static func names(_ formats: [UInt32]) -> String {
    var text = ""
    for code in formats {
      if !text.isEmpty { text += ", " }
      text += FourCC(rawValue: code).name
    }
    return text
  }
}

extension FourCC {
  /// The four letters (`XR24`, `RG16`), or the number when they are not printable.
  public var name: String {
    var text = ""
    for shift in stride(from: 0, to: 32, by: 8) {
      let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
      guard byte >= 0x20 && byte < 0x7f else { return "0x" + String(rawValue, radix: 16) }
      text.append(Character(Unicode.Scalar(byte)))
    }
    return text
  }
}
