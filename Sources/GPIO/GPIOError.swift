import SystemCalls

/// Why a configured GPIO line cannot be used; `message` says what to do.
public enum GPIOError: Error, Equatable {
  /// No /dev/gpiochip* at all.
  case noChips(directory: String)
  /// No chip has a line of that name; `names` lists a few that exist.
  case noLineNamed(String, names: String)
  /// More than one chip has a line of that name.
  case ambiguousName(String, places: String)
  /// No chip has that label; `labels` lists those that exist.
  case noChipLabelled(String, labels: String)
  /// The chip has fewer lines than the offset.
  case noSuchOffset(chip: String, offset: UInt32, lines: UInt32)
  /// A chip could not be read.
  case chip(path: String, Errno)

  public var message: String {
    switch self {
    case .noChips(let directory):
      return "no GPIO chip in \(directory) (is the GPIO driver loaded? 'ls /dev/gpiochip*' lists them)"
    case .noLineNamed(let name, let names):
      return "no GPIO line is named \(name) (\(names.isEmpty ? "no line has a name" : "named lines: " + names); 'gpioinfo' lists them, or give CHIP-LABEL:OFFSET)"
    case .ambiguousName(let name, let places):
      return "GPIO line name \(name) is on more than one chip (\(places)); give CHIP-LABEL:OFFSET instead"
    case .noChipLabelled(let label, let labels):
      return "no GPIO chip is labelled \(label) (labels: \(labels); 'gpiodetect' lists them)"
    case .noSuchOffset(let chip, let offset, let lines):
      return "GPIO chip \(chip) has no line \(offset) (it has lines 0 to \(lines == 0 ? 0 : lines - 1))"
    case .chip(let path, let errno):
      let hint = errno == .noEntry ? " (is the GPIO chip there? 'ls /dev/gpiochip*' lists them; a line name or the chip's label survives renumbering)" : ""
      return "cannot read GPIO chip \(path): \(errno.text)\(hint)"
    }
  }
}
