import PatternCore
import SystemCalls

/// Why the backlight cannot be used; the lock then blanks by switching the display off.
public enum BacklightError: DescribedError, Equatable {
  /// `backlight = NAME` names no device in the backlight class.
  case unknown(name: String, directory: String, present: [String])
  /// A device whose `max_brightness` or `brightness` cannot be read as a number.
  case unreadable(path: String, why: String)
  /// Writing `brightness` failed (permissions, a driver that refuses).
  case unwritable(path: String, errno: Errno)

  public var message: String {
    switch self {
    case .unknown(let name, let directory, let present):
      let list = present.isEmpty ? "none" : present.joined(separator: ", ")
      return "no backlight \(name) in \(directory) (there: \(list)); set backlight = auto, none, or one of those"
    case .unreadable(let path, let why):
      return "cannot read the backlight's \(path) (\(why)); set backlight = none to blank by switching the display off"
    case .unwritable(let path, let errno):
      return "cannot write \(path) (\(errno.text)): the lock runs as root from its unit; blanking switches the display off instead"
    }
  }
}
