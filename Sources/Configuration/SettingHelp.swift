/// The options part of `patternlock --help`, written from the settings table so that
/// a new option cannot be left out of it.
public enum SettingHelp {
  /// Where the descriptions start, as in the hand-written part of the help.
  static let column = 20
  /// Lines are wrapped before this width.
  static let width = 100

  /// One entry per command, its options after it: `  layout            --grid --dpi ...`.
  public static var optionsByCommand: String {
    var lines: [String] = []
    for command in Command.allCases {
      var line = label(command.name)
      var first = true
      for setting in Setting.allCases where setting.row.commands.contains(command) {
        guard let option = setting.option else { continue }
        if !first && line.utf8.count + 1 + option.utf8.count > width {
          lines.append(line)
          line = String(repeating: " ", count: column)
          first = true
        }
        line += (first ? "" : " ") + option
        first = false
      }
      if first { line += "(no options)" }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// Every option with its value and its help line, in table order.
  public static var optionList: String {
    var lines: [String] = []
    for setting in Setting.allCases {
      let row = setting.row
      guard let option = row.option else { continue }
      lines.append(label(row.placeholder.isEmpty ? option : option + " " + row.placeholder) + row.help)
    }
    return lines.joined(separator: "\n")
  }

  /// The commands with their summaries, for the general help.
  public static var commandList: String {
    var lines: [String] = []
    for command in Command.allCases {
      for (index, text) in command.summary.enumerated() {
        let name = command.name + (command.operand.map { " " + $0 } ?? "")
        lines.append(index == 0 ? label(name) + text : String(repeating: " ", count: column) + text)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `patternlock COMMAND --help`: its usage line, what it does and each of its
  /// options with its help line.
  public static func help(for command: Command) -> String {
    var lines = ["usage: patternlock \(command.name)\(command.operand.map { " " + $0 } ?? "") [OPTIONS]", ""]
    lines += command.summary.map { "  " + $0 }
    var options: [String] = []
    for setting in Setting.allCases where setting.row.commands.contains(command) {
      let row = setting.row
      guard let option = row.option else { continue }
      options.append(label(row.placeholder.isEmpty ? option : option + " " + row.placeholder) + row.help)
    }
    lines += ["", options.isEmpty ? "options: none" : "options:"] + options
    return lines.joined(separator: "\n")
  }

  /// `text` indented by two and padded to the description column (or followed by two
  /// spaces when it is longer).
  static func label(_ text: String) -> String {
    let head = "  " + text
    let length = head.utf8.count
    return head + String(repeating: " ", count: length < column ? column - length : 2)
  }
}
