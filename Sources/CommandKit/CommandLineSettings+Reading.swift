import Configuration
import SystemCalls

extension CommandLineSettings {
  /// Reads a command's arguments against the settings table, with the system's
  /// configuration layers under `/` (in debug builds, `PATTERNLOCK_CONFIG_ROOT`), and
  /// the trust rule for the effective user.
  package init(reading arguments: [String], for command: Command) throws(UsageError) {
    do throws(ConfigurationError) {
      try self.init(
        arguments, for: command, configurationRoot: ConfigurationFiles.rootFromEnvironment(), effectiveUser: CurrentProcess.effectiveUser.rawValue)
    } catch {
      throw UsageError(error)
    }
  }

  /// The one operand a command such as `replay FILE` takes.
  ///
  /// - Parameters:
  ///   - what: what it is, for the messages (`recording file`).
  ///   - usage: the command's short usage, for the message when it is missing.
  package func onlyOperand(_ command: Command, is what: String, usage: String) throws(UsageError) -> String {
    guard let first = operands.first else { throw UsageError("\(command.name): no \(what) given (usage: \(usage))") }
    guard operands.count == 1 else {
      throw UsageError("\(command.name): takes one \(what), not also '\(operands[1])' (try 'patternlock --help')")
    }
    return first
  }

  /// The settings of a command that takes options only: its arguments read, any
  /// operand refused.
  package static func optionsOnly(_ arguments: [String], for command: Command) throws(UsageError) -> Settings {
    let parsed = try CommandLineSettings(reading: arguments, for: command)
    try parsed.refuseOperands(command)
    return parsed.settings
  }

  /// Refuses any operand, for commands that take options only.
  package func refuseOperands(_ command: Command) throws(UsageError) {
    if let first = operands.first {
      throw UsageError("\(command.name): unknown argument '\(first)' (try 'patternlock --help')")
    }
  }
}
