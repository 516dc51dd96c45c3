import SystemCalls

/// Keeps the active virtual terminal out of the way while the lock runs: KD_GRAPHICS
/// (the kernel stops drawing console text and the cursor over our frames) and
/// keyboard mode K_OFF (keys no longer reach the shell and Ctrl+Alt+Fn cannot switch
/// away). Both are put back in `deinit`, so every exit path restores the console: text
/// mode, whatever mode was found (a boot splash's graphics mode, or a killed lock's, is
/// not the console's own), and the keyboard as found unless it was off
/// (`TerminalKeyboardMode.afterTheLock`).
///
/// Without a VT (serial console, ssh, a container) this does nothing: there is no
/// console text to hide.
public struct ConsoleMode: ~Copyable {
  /// The VT, or nil when there is none to switch; closed after `deinit` restores it.
  private let tty: FileDescriptor?
  private let savedKeyboard: TerminalKeyboardMode

  /// Switches the VT on `path` (normally `/dev/tty0`, the active one).
  public init(path: String = "/dev/tty0") {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readWrite)
    } catch {
      tty = nil
      savedKeyboard = .off
      return
    }
    let control = TerminalControl(lending: file.rawValue)
    guard (try? control.displayMode()) != nil, let keyboard = try? control.keyboardMode() else {
      // Not a VT (`file` closes here).
      tty = nil
      savedKeyboard = .off
      return
    }
    // Best effort: a console that keeps drawing text is a cosmetic fault, not a reason
    // to leave the device without a lock.
    _ = try? control.setDisplayMode(.graphics)
    _ = try? control.setKeyboardMode(.off)
    tty = consume file
    savedKeyboard = keyboard.afterTheLock
  }

  /// Whether a VT was switched.
  public var isActive: Bool {
    switch tty {
    case .some: return true
    case .none: return false
    }
  }

  deinit {
    switch tty {
    case .some(let file):
      let control = TerminalControl(lending: file.rawValue)
      _ = try? control.setKeyboardMode(savedKeyboard)
      _ = try? control.setDisplayMode(.text)
    case .none:
      return
    }
  }
}
