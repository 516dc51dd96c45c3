import CShim
import PatternCore

/// The patternlock command: dispatches to one sub-command.
@main
struct Patternlock {
  static let version = "0.1.0"

  static func main() {
    // For `run --timing`: start-to-first-flip counts from here, the first Swift code.
    let started = pl_monotonic_microseconds()
    var arguments = Arguments(processArguments())
    guard let command = arguments.next() else {
      Console.fail("no command given (try 'patternlock --help')")
    }
    switch command {
    case "layout": LayoutCommand.run(&arguments)
    case "replay": ReplayCommand.run(&arguments)
    case "run":
      let status = RunCommand.run(&arguments, started: started)
      if status != .success { pl_exit(status.rawValue) }
    case "enroll":
      let status = RunCommand.enroll(&arguments)
      if status != .success { pl_exit(status.rawValue) }
    case "inject":
      let status = InjectCommand.run(&arguments)
      if status != .success { pl_exit(status.rawValue) }
    case "set-pattern": SetPatternCommand.run(&arguments)
    case "check": CheckCommand.run(&arguments)
    case "reset-attempts": ResetAttemptsCommand.run(&arguments)
    case "status": StatusCommand.run(&arguments)
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
      run               show the lock on the display (DRM/KMS) with live touch, mouse and keyboard
      inject FILE       replay a 'libinput record' capture through a uinput device (root; --wait MS)
      enroll            set the pattern on the display: draw it, then again to confirm (run's display options, --min-dots N)
      set-pattern       store the hash of the pattern read from standard input (1-2-3-6-9)
      check             judge the pattern on standard input against the stored one, throttled;
                        prints one JSON line; exit 0 unlocked, 3 wrong, 4 too short,
                        5 locked out, 6 no pattern set, 8 not judged (the attempt could not
                        be counted first) (1 failure, 2 bad input, 7 not root)
      reset-attempts    clear the failure counter and any lockout (root only)
    \(StatusCommand.help)
      --version         print the version
      --help            print this help

    configuration (run, replay, set-pattern, check, reset-attempts, status; see patternlock.conf(5)):
    \(ConfiguredSettings.help)
                        each option named like a key (--grid for grid = 4) overrides it

    layout options:
    \(LayoutArguments.help)

    replay options (besides the layout options):
    \(ReplayCommand.help)

    run options:
    \(RunCommand.help)

    \(SetPatternCommand.help)

    run, check, reset-attempts, status and replay options (run and replay judge each pattern against the one set there):
    \(VaultCommandSupport.stateDirectoryHelp)
    """
}
