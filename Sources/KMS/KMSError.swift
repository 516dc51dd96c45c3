import PatternCore
import SystemCalls

/// Why the display cannot be driven.
///
/// Every case names the device, so `message` can say what failed, on what, and what
/// to do, in one line.
public enum KMSError: DescribedError, Equatable {
  /// No `/dev/dri/card*` node exists (no GPU driver loaded, or a container without it).
  case noDevice(directory: String)
  /// The node exists but this user may not open it.
  case permissionDenied(path: String)
  /// Another process (a desktop, another patternlock) is DRM master on the device.
  case masterHeld(path: String)
  /// The device has no connected connector; `outputs` lists what it does have.
  case noConnectedOutput(path: String, outputs: String)
  /// `--output NAME` names no connector of the device.
  case unknownOutput(path: String, name: String, outputs: String)
  /// `--mode` asks for a mode the connector does not offer.
  case unknownMode(path: String, output: String, mode: String, modes: String)
  /// No CRTC can drive the chosen connector.
  case noCrtc(path: String, output: String)
  /// The device is not a modesetting (KMS) device, such as a render-only GPU.
  case notModesetting(path: String)
  /// A system or libdrm call failed.
  case callFailed(call: String, path: String, errno: Errno)
  /// The CRTC's primary plane cannot scan out the format asked for (or any we draw).
  case unsupportedFormat(path: String, output: String, format: String, offered: String)
  /// The legacy path cannot switch the output off: its connector has no `DPMS` property.
  case noPowerControl(path: String, output: String)
  /// The card cannot make the dumb buffers the lock draws into (`DRM_CAP_DUMB_BUFFER`).
  case noDumbBuffers(path: String, driver: String)

  /// One line for the user: what failed, on what, and the likely fix.
  public var message: String {
    switch self {
    case .noDevice(let directory):
      return "no DRM device found in \(directory) (no display driver is loaded here; on a desktop or in a container try the emulated board: scripts/demo)"
    case .permissionDenied(let path):
      return "cannot open \(path): Permission denied (is this user in group video? try 'sudo usermod -aG video $USER' and log in again)"
    case .masterHeld(let path):
      return "cannot drive \(path): another process is DRM master (stop the desktop or compositor, e.g. 'systemctl stop display-manager', or run from a free virtual terminal)"
    case .noConnectedOutput(let path, let outputs):
      return "no connected display on \(path) (outputs: \(outputs.isEmpty ? "none" : outputs); check the cable, or choose another card with --device)"
    case .unknownOutput(let path, let name, let outputs):
      return "\(path) has no connected output \(name) (connected: \(outputs.isEmpty ? "none" : outputs); pass one of those to --output)"
    case .unknownMode(let path, let output, let mode, let modes):
      return "output \(output) on \(path) has no mode \(mode) (modes: \(modes); pass one of those to --mode, or leave it out for the preferred mode)"
    case .noCrtc(let path, let output):
      return "no free CRTC can drive output \(output) on \(path) (another output may be using it; disconnect it or choose another with --output)"
    case .notModesetting(let path):
      return "\(path) is not a display device (it has no connectors: a render-only GPU); choose the display card with --device"
    case .unsupportedFormat(let path, let output, let format, let offered):
      return "output \(output) on \(path) cannot scan out \(format) (its plane offers \(offered.isEmpty ? "nothing" : offered)); set format = auto, or the other of xrgb8888 and rgb565"
    case .noPowerControl(let path, let output):
      return "output \(output) on \(path) has no DPMS property, so it cannot be switched off"
    case .noDumbBuffers(let path, let driver):
      return "\(path) (\(driver.isEmpty ? "unknown driver" : driver)) cannot make the dumb buffers the lock draws into; choose another card with --device, or an fbdev device such as /dev/fb0"
    case .callFailed(let call, let path, let errno):
      return "\(call) failed on \(path): \(errno.text)\(KMSError.hint(for: errno))"
    }
  }

  private static func hint(for errno: Errno) -> String {
    switch errno {
    case .permissionDenied, .notPermitted:
      return " (is this user in group video, and is no desktop running on this display?)"
    case .busy:
      return " (the display is busy: stop any other program using it)"
    case .noDevice:
      return " (the display was unplugged or its driver unloaded)"
    default:
      return ""
    }
  }
}
