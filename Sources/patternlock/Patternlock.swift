import CShim
import PatternCore

/// The patternlock command: dispatches to one sub-command.
@main
struct Patternlock {
  static let version = "0.1.0"

  static func main() {
    var arguments = Arguments(processArguments())
    guard let command = arguments.next() else {
      Console.fail("no command given (try 'patternlock --help')")
    }
    switch command {
    case "layout": LayoutCommand.run(&arguments)
    case "replay": ReplayCommand.run(&arguments)
    case "--version", "version": Console.out("patternlock \(version)")
    case "--help", "-h", "help": Console.out(usage)
    default: Console.fail("unknown command '\(command)' (try 'patternlock --help')")
    }
  }

  /// The process's arguments after the program name, read through the C shim because
  /// Embedded Swift has no `CommandLine`.
  static func processArguments() -> [String] {
    var result: [String] = []
    var index: Int32 = 1
    while index < pl_argument_count(), let argument = pl_argument(index) {
      result.append(String(cString: argument))
      index += 1
    }
    return result
  }

  static let usage = """
    usage: patternlock COMMAND [OPTIONS]

    commands:
      layout            print the grid layout for a panel as one JSON object
      replay FILE       replay a 'libinput record' capture: one JSON line per gesture
      --version         print the version
      --help            print this help

    layout options:
    \(LayoutArguments.help)
    """
}
