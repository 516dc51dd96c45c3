import PatternCore
import SystemCalls

/// Why input cannot be read, or a virtual device cannot be made.
public enum InputError: DescribedError, Equatable {
  /// udev could not be reached (`udev_new` failed: no /run/udev, no sysfs).
  case noUdev
  /// libinput could not assign the seat (no permission for the udev monitor).
  case seatFailed(seat: String)
  /// libinput found no device that can drive the lock (no touchscreen, pointer or keyboard).
  case noDevices(seat: String)
  /// /dev/uinput is missing (no uinput module) or may not be opened.
  case noUinput(path: String, errno: Errno)
  /// A system or library call failed.
  case callFailed(call: String, path: String, errno: Errno)

  /// One line for the user: what failed, on what, and the likely fix.
  public var message: String {
    switch self {
    case .noUdev:
      return "cannot reach udev (is systemd-udevd or eudev running, and /run/udev there?)"
    case .seatFailed(let seat):
      return "libinput cannot assign seat \(seat) (run as root, or add this user to group input)"
    case .noDevices(let seat):
      return "no input devices on seat \(seat) (no touchscreen, mouse or keyboard found; check 'libinput list-devices', and that this user may read /dev/input/event*: group input)"
    case .noUinput(let path, let errno):
      if errno == .noEntry {
        return "cannot open \(path): \(errno.text) (load the uinput module: 'sudo modprobe uinput')"
      }
      return "cannot open \(path): \(errno.text) (run as root, or give this user write access to \(path))"
    case .callFailed(let call, let path, let errno):
      return "\(call) failed on \(path): \(errno.text)"
    }
  }
}

/// Runs a C call that reports failure as a negative result (-1 and errno, or libinput's
/// `-errno`), retrying `EINTR`, and names the call in the error. Never for `close`.
///
/// - Throws: `InputError.callFailed`.
@discardableResult
func systemCall(_ call: String, on path: String, _ body: () -> Int32) throws(InputError) -> Int32 {
  try retryingInterrupts({ InputError.callFailed(call: call, path: path, errno: $0) }, body)
}
