/// Where a setting's value came from, so that a value found wrong later (a mode the
/// display lacks, `min-dots` above a grid's dots) can still be blamed on its line.
public enum SettingOrigin: Equatable, Sendable {
  /// A line of a configuration file.
  case file(path: String, line: Int)
  /// A command-line option.
  case commandLine

  /// `FILE:LINE` or `command line`, the prefix of a message.
  public var text: String {
    switch self {
    case .file(let path, let line): return "\(path):\(line)"
    case .commandLine: return "command line"
    }
  }
}
