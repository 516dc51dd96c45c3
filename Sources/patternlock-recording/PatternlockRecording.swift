import CommandKit
import Configuration
import LockProgram
import SystemCalls
import Vault

/// `patternlock-recording`, which `patternlock replay` and `patternlock inject` run
/// (the command's name first, then its options): recordings played through the lock
/// screen, headless or into a uinput device. A program of its own, so that the lock
/// loads neither libyaml nor libpng.
@main
struct PatternlockRecording {
  static let commands: [Command] = [.replay, .inject]

  static func main() {
    ProcessStart.prepare()
    let arguments = CommandStart.processArguments
    guard let name = arguments.first, let command = Command(rawValue: name), commands.contains(command) else {
      Console.error("patternlock-recording runs replay or inject, as its first argument (try 'patternlock replay --help')")
      CurrentProcess.exit(status: ExitStatus.badInput.rawValue)
    }
    let options = Array(arguments.dropFirst())
    if CommandStart.asksForHelp(options) { return Console.out(SettingHelp.help(for: command)) }
    CommandStart.finish { () throws(RecordingFailure) -> Int32 in
      switch command {
      case .inject: return try InjectCommand.run(options).rawValue
      default: return try ReplayCommand.run(options).rawValue
      }
    }
  }
}
