import CommandKit
import Configuration
import LockProgram
import SystemCalls
import Vault

/// The patternlock command: dispatches to one sub-command. `session-lock`, `mqtt`,
/// `replay` and `inject` are programs of their own beside it (`CompanionProgram`), so
/// that the lock, and root's `check` and `judge`, load no Wayland, MQTT, TLS, YAML or
/// PNG library.
@main
struct Patternlock {
  static func main() {
    // For `run --timing`: start-to-first-flip counts from here, the first Swift code.
    let started = MonotonicClock.microseconds()
    ProcessStart.prepare()
    let arguments = CommandStart.processArguments
    guard let name = arguments.first else {
      Console.error("no command given (try 'patternlock --help')")
      CurrentProcess.exit(status: ExitStatus.badInput.rawValue)
    }
    if CommandStart.helpWords.contains(name) { return Console.out(usage) }
    if CommandStart.versionWords.contains(name) { return Console.out("patternlock \(ProgramVersion.text)") }
    guard let command = Command(rawValue: name) else {
      Console.error("unknown command '\(name)' (try 'patternlock --help')")
      CurrentProcess.exit(status: ExitStatus.badInput.rawValue)
    }
    let options = Array(arguments.dropFirst())
    if CommandStart.asksForHelp(options) { return Console.out(SettingHelp.help(for: command)) }
    // Commands throw what stops them; `finish` is the only place that reports it and
    // exits, after every owner the command made has restored what it changed.
    CommandStart.finish { () throws(CommandFailure) -> Int32 in
      switch command {
      case .layout: return try LayoutCommand.run(options).rawValue
      case .replay, .inject: return CompanionProgram.recording.replaceThisProcess(command, options: options).rawValue
      case .run: return try RunCommand.run(options, started: started).rawValue
      case .enroll: return try RunCommand.enroll(options).rawValue
      case .setPattern: return try SetPatternCommand.run(options).rawValue
      case .check: return try CheckCommand.run(options).rawValue
      case .judge: return try JudgeCommand.run(options).rawValue
      case .resetAttempts: return try ResetAttemptsCommand.run(options).rawValue
      case .status: return try StatusCommand.run(options).rawValue
      case .lock: return try LockCommand.run(options).rawValue
      case .log: return try LogCommand.run(options).rawValue
      case .credential: return try CredentialCommand.run(options).rawValue
      case .sessionLock: return CompanionProgram.sessionLock.replaceThisProcess(command, options: options).rawValue
      case .passwordAgent: return try PasswordAgentCommand.run(options).rawValue
      case .disk: return try DiskCommand.run(options).rawValue
      case .mqtt: return CompanionProgram.reporter.replaceThisProcess(command, options: options).rawValue
      }
    }
  }

  static let usage = """
    usage: patternlock COMMAND [OPTIONS]

    commands:
    \(SettingHelp.commandList)
      --version         print the version
      --help            print this help

    options of each command (an option named like a key of patternlock.conf, such as
    --grid for grid = 4, overrides it; see patternlock.conf(5)):
    \(SettingHelp.optionsByCommand)

    options:
    \(SettingHelp.optionList)
    """
}
