import Configuration
import PatternCore
import SystemCalls
import Vault

/// The patternlock command: dispatches to one sub-command.
@main
struct Patternlock {
  static let version = "0.1.0"

  static func main() {
    // For `run --timing`: start-to-first-flip counts from here, the first Swift code.
    let started = MonotonicClock.microseconds()
    // Every command writes to sockets or pipes whose other end may go at any time
    // (a judge's client, the event link, the broker, a pipe into `head`): a lost reader
    // is an error the writer handles, never the end of the process.
    CurrentProcess.ignoreBrokenPipes()
    // Credential hours and expiry are judged in the system's zone: the caller's TZ
    // (which sudo keeps) must not move them, so it is replaced before any time call.
    LocalTime.useSystemZone(root: ConfigurationFiles.rootFromEnvironment())
    // Each audit entry goes on to the event socket's reporter, one connection a line
    // (a running lock sends them on its own connection once it has one).
    EventFeed.carryAuditEntries()
    let arguments = processArguments()
    guard let name = arguments.first else {
      Console.error("no command given (try 'patternlock --help')")
      CurrentProcess.exit(status: ExitStatus.badInput.rawValue)
    }
    if helpWords.contains(name) { return Console.out(usage) }
    if versionWords.contains(name) { return Console.out("patternlock \(version)") }
    guard let command = Command(rawValue: name) else {
      Console.error("unknown command '\(name)' (try 'patternlock --help')")
      CurrentProcess.exit(status: ExitStatus.badInput.rawValue)
    }
    let options = Array(arguments.dropFirst())
    // `check --help` and the like: the words of an `--exec` command are its own.
    if options.prefix(while: { $0 != "--exec" }).contains(where: { helpWords.prefix(2).contains($0) }) {
      return Console.out(SettingHelp.help(for: command))
    }
    let status: Int32
    // Commands throw what stops them; this is the only place that reports it and
    // exits, after every owner the command made has restored what it changed.
    do throws(CommandFailure) {
      switch command {
      case .layout: status = try LayoutCommand.run(options).rawValue
      case .replay: status = try ReplayCommand.run(options).rawValue
      case .run: status = try RunCommand.run(options, started: started).rawValue
      case .enroll: status = try RunCommand.enroll(options).rawValue
      case .inject: status = try InjectCommand.run(options).rawValue
      case .setPattern: status = try SetPatternCommand.run(options).rawValue
      case .check: status = try CheckCommand.run(options).rawValue
      case .judge: status = try JudgeCommand.run(options).rawValue
      case .resetAttempts: status = try ResetAttemptsCommand.run(options).rawValue
      case .status: status = try StatusCommand.run(options).rawValue
      case .lock: status = try LockCommand.run(options).rawValue
      case .log: status = try LogCommand.run(options).rawValue
      case .credential: status = try CredentialCommand.run(options).rawValue
      case .sessionLock: status = try SessionLockCommand.run(options).rawValue
      case .mqtt: status = try MQTTCommand.run(options).rawValue
      }
    } catch {
      if !error.message.isEmpty { Console.error(error.message) }
      CurrentProcess.exit(status: error.status)
    }
    if status != ExitStatus.success.rawValue { CurrentProcess.exit(status: status) }
  }

  /// The words that print the help or the version instead of running a command.
  static let helpWords = ["--help", "-h", "help"]
  static let versionWords = ["--version", "version"]

  /// The process's arguments after the program name.
  static func processArguments() -> [String] {
    Array(CurrentProcess.arguments.dropFirst())
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
