import CShim

/// Keeps the active virtual terminal out of the way while the lock runs: KD_GRAPHICS
/// (the kernel stops drawing console text and the cursor over our frames) and
/// keyboard mode K_OFF (keys no longer reach the shell and Ctrl+Alt+Fn cannot switch
/// away). Both are put back in `deinit`, so every exit path restores the console.
///
/// Without a VT (serial console, ssh, a container) this does nothing: there is no
/// console text to hide.
struct ConsoleMode: ~Copyable {
  private let tty: Int32
  private let savedMode: Int32
  private let savedKeyboard: Int32

  /// Switches the VT on `path` (normally `/dev/tty0`, the active one).
  init(path: String = "/dev/tty0") {
    let fd = path.withCString { pl_open($0, Int32(PL_O_RDWR), 0) }
    let mode = fd >= 0 ? pl_kd_get_mode(fd) : -1
    let keyboard = fd >= 0 ? pl_kd_get_keyboard_mode(fd) : -1
    guard fd >= 0, mode >= 0, keyboard >= 0 else {
      if fd >= 0 { _ = pl_close(fd) }
      tty = -1
      savedMode = -1
      savedKeyboard = -1
      return
    }
    _ = pl_kd_set_mode(fd, Int32(PL_KD_GRAPHICS))
    _ = pl_kd_set_keyboard_mode(fd, Int32(PL_K_OFF))
    tty = fd
    savedMode = mode
    savedKeyboard = keyboard
  }

  /// Whether a VT was switched.
  var isActive: Bool { tty >= 0 }

  deinit {
    guard tty >= 0 else { return }
    _ = pl_kd_set_keyboard_mode(tty, savedKeyboard)
    _ = pl_kd_set_mode(tty, savedMode)
    _ = pl_close(tty)
  }
}
