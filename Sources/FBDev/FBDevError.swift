import PatternCore
import SystemCalls

/// Why the fbdev display cannot be driven.
public enum FBDevError: DescribedError, Equatable {
  case noDevice(path: String)
  case permissionDenied(path: String)
  case notFramebuffer(path: String)
  /// The device's pixel layout is neither RGB565 nor XRGB8888.
  case unsupportedLayout(path: String, layout: String)
  /// `format =` asks for another format than the device's.
  case formatMismatch(path: String, device: String, requested: String)
  case callFailed(call: String, path: String, errno: Errno)
  /// FBIOBLANK refused to power the output down.
  case noPowerControl(path: String, errno: Errno)

  public var message: String {
    switch self {
    case .noDevice(let path):
      return "no fbdev device \(path) (is its driver loaded? ls /dev/fb*; or leave device = auto to use a DRM card)"
    case .permissionDenied(let path):
      return "cannot open \(path): Permission denied (is this user in group video? try 'sudo usermod -aG video $USER' and log in again)"
    case .notFramebuffer(let path):
      return "\(path) is not an fbdev device (FBIOGET_VSCREENINFO refused); pass a /dev/fbN node or a /dev/dri/card* to --device"
    case .unsupportedLayout(let path, let layout):
      return "\(path) uses a pixel layout patternlock cannot draw (\(layout)); set it to 16-bit RGB565 or 32-bit XRGB8888 (fbset -depth 16 or 32, or the driver's overlay options), or use its DRM card"
    case .formatMismatch(let path, let device, let requested):
      return "\(path) scans out \(device), not \(requested) (an fbdev device is driven in its own format); set format = auto or \(device), or change the device's depth with fbset"
    case .callFailed(let call, let path, let errno):
      return "\(call) failed on \(path): \(errno.text)"
    case .noPowerControl(let path, let errno):
      return "\(path) cannot be powered down through fbdev (FBIOBLANK: \(errno.text)); its driver has no blanking"
    }
  }
}
