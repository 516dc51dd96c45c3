import CShim
import SystemCalls

/// Keeps the active virtual terminal out of the way while the lock runs: KD_GRAPHICS
/// (the kernel stops drawing console text and the cursor over our frames) and
/// keyboard mode K_OFF (keys no longer reach the shell and Ctrl+Alt+Fn cannot switch
/// away). Both are put back in `deinit`, so every exit path restores the console.
///
/// Without a VT (serial console, ssh, a container) this does nothing: there is no
/// console text to hide.
struct ConsoleMode: ~Copyable {
  /// The VT, or nil when there is none to switch; closed after `deinit` restores it.
  private let tty: FileDescriptor?
  private let savedMode: Int32
  private let savedKeyboard: Int32

  /// Switches the VT on `path` (normally `/dev/tty0`, the active one).
  init(path: String = "/dev/tty0") {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readWrite)
    } catch {
      tty = nil
      savedMode = -1
      savedKeyboard = -1
      return
    }
    let fd = file.rawValue
    let mode = resultRetryingInterrupts { pl_kd_get_mode(fd) }
    let keyboard = resultRetryingInterrupts { pl_kd_get_keyboard_mode(fd) }
    guard mode >= 0, keyboard >= 0 else {
      // Not a VT (`file` closes here).
      tty = nil
      savedMode = -1
      savedKeyboard = -1
      return
    }
    _ = resultRetryingInterrupts { pl_kd_set_mode(fd, Int32(PL_KD_GRAPHICS)) }
    _ = resultRetryingInterrupts { pl_kd_set_keyboard_mode(fd, Int32(PL_K_OFF)) }
    tty = consume file
    savedMode = mode
    savedKeyboard = keyboard
  }

  /// Whether a VT was switched.
  var isActive: Bool {
    switch tty {
    case .some: return true
    case .none: return false
    }
  }

  deinit {
    switch tty {
    case .some(let file):
      let fd = file.rawValue
      _ = resultRetryingInterrupts { pl_kd_set_keyboard_mode(fd, savedKeyboard) }
      _ = resultRetryingInterrupts { pl_kd_set_mode(fd, savedMode) }
    case .none:
      return
    }
  }
}
