import CommandKit
import Configuration
import SystemCalls

/// A command that is a program of its own, installed beside `patternlock`:
/// `patternlock session-lock` runs `patternlock-session-lock`, `patternlock mqtt` runs
/// `patternlock-mqtt`, and `patternlock replay` and `inject` run
/// `patternlock-recording` (with the command's name first), each with the same options
/// and environment. They link what only they use (libwayland-client and libxkbcommon;
/// libmosquitto with its TLS libraries; libyaml and libpng), which the lock itself then
/// never loads.
///
/// The program is found in the directory of this process's own executable (the
/// kernel's `/proc/self/exe`), never through PATH or another variable: whoever starts
/// `patternlock` cannot make it run a program of theirs.
enum CompanionProgram: String {
  case sessionLock = "patternlock-session-lock"
  case reporter = "patternlock-mqtt"
  case recording = "patternlock-recording"

  /// Whether the program runs more than one command, and so is told which first.
  private var takesCommandName: Bool { self == .recording }

  /// Replaces this process with the program; returns only when it cannot be run,
  /// having said why.
  func replaceThisProcess(_ command: Command, options: [String]) -> ExitStatus {
    let directory: String
    do throws(Errno) {
      let executable = try CurrentProcess.executablePath()
      directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)])
    } catch {
      Console.error("cannot find this program's own directory to run \(rawValue) (readlink /proc/self/exe: \(error.text); is /proc mounted?)")
      return .failure
    }
    let path = directory + "/" + rawValue
    let failure = CurrentProcess.execute([path] + (takesCommandName ? [command.rawValue] : []) + options)
    Console.error("cannot run \(path): \(failure.text) (it is installed beside patternlock: reinstall the package, or build it with 'swift build')")
    return .failure
  }
}
