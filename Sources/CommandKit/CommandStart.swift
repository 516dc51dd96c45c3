import Configuration
import PatternCore
import SystemCalls

/// The start and the end that every patternlock program shares: its options read from
/// the process, `--help` and `--version` answered, the command run, and a failure
/// reported once, after everything the command owned has restored what it changed.
package enum CommandStart {
  /// The words that print the help or the version instead of running a command.
  package static let helpWords = ["--help", "-h", "help"]
  package static let versionWords = ["--version", "version"]

  /// The process's arguments after the program name.
  package static var processArguments: [String] { Array(CurrentProcess.arguments.dropFirst()) }

  /// Whether `options` ask for the command's help instead (`check --help`); the
  /// words of an `--exec` program are that program's own.
  package static func asksForHelp(_ options: [String]) -> Bool {
    options.prefix(while: { $0 != "--exec" }).contains(where: { helpWords.prefix(2).contains($0) })
  }

  /// Runs a program that is one command (`patternlock-mqtt`): its help, its version,
  /// or the command with the process's arguments. Returns only when it succeeded.
  package static func runOnly<Failure: CommandError>(
    _ command: Command, _ body: ([String]) throws(Failure) -> ExitStatus
  ) {
    let options = processArguments
    if options.first.map({ versionWords.contains($0) }) == true { return Console.out("patternlock \(ProgramVersion.text)") }
    if asksForHelp(options) || options.first == "help" { return Console.out(SettingHelp.help(for: command)) }
    finish { () throws(Failure) -> Int32 in try body(options).rawValue }
  }

  /// Runs `body`, which gives an exit status, and ends the process with it unless it
  /// is success (then returns).
  package static func finish<Failure: CommandError>(_ body: () throws(Failure) -> Int32) {
    let status: Int32
    do throws(Failure) {
      status = try body()
    } catch {
      if !error.message.isEmpty { Console.error(error.message) }
      CurrentProcess.exit(status: error.status)
    }
    if status != ExitStatus.success.rawValue { CurrentProcess.exit(status: status) }
  }
}
