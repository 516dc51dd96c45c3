import CShim
import Configuration
import PatternCore
import SystemCalls

/// What patternlock does for others after a judgement: the `on-unlock`, `on-wrong` and
/// `on-lockout` hooks and the door strike (`gpio-unlock`). `run` and `check` take them;
/// `replay` never does (a recording must not open a door).
///
/// Nothing here waits: hooks and the pulse run in detached processes
/// (`pl_spawn_detached`, `pl_gpio_pulse_detached`), so the lock screen answers the
/// next touch while a hook or a relay is still busy. A hook is given the event, the
/// failure count and the lockout in its environment, never the pattern.
struct UnlockActions {
  private let onUnlock: [String]
  private let onWrong: [String]
  private let onLockout: [String]
  private let user: (uid: UInt32, gid: UInt32)
  private let doorStrike: DoorStrikeLine?

  /// Checks what can be checked before the lock starts: the hook user exists (when a
  /// hook is set) and the door strike's line is there and free.
  init(_ settings: Settings) throws(ActionsError) {
    onUnlock = settings.onUnlock
    onWrong = settings.onWrong
    onLockout = settings.onLockout
    doorStrike = settings.doorStrike
    var ids: (uid: UInt32, gid: UInt32) = (0, 0)
    if !(onUnlock.isEmpty && onWrong.isEmpty && onLockout.isEmpty) {
      guard pl_user_ids(settings.hookUser, &ids.uid, &ids.gid) == 0 else {
        throw .unknownUser(settings.hookUser, Errno.current)
      }
    }
    user = ids
    if let line = doorStrike {
      // A pulse that a SIGKILL cut short left the line where it was, perhaps high:
      // the strike is released now, before anything else happens.
      guard pl_gpio_line_check(line.chipPath, UInt32(line.line)) == 0, pl_gpio_line_rest(line.chipPath, UInt32(line.line)) == 0
      else { throw .doorStrikeUnusable(line, Errno.current) }
    }
  }

  /// Starts what `decision` calls for: the door strike and on-unlock after an unlock;
  /// on-wrong after a counted wrong pattern, then on-lockout when it started one.
  func after(_ decision: UnlockDecision, failures: Int) {
    switch decision.result {
    case .unlocked:
      if let line = doorStrike,
        UnlockActions.waited(
          pl_gpio_pulse_detached(line.chipPath, UInt32(line.line), UInt32(line.milliseconds), JournalStream.socketPath)) != 0
      {
        Console.error("unlocked, but cannot pulse gpio-unlock line \(line.line) of \(line.chipPath): \(Errno.current.text)")
      }
      start(onUnlock, event: "unlock", decision, failures: failures)
    case .wrong:
      // A repeat of a recent wrong pattern is not counted, so it fires nothing: one
      // guess sent a hundred times is one alert, as it is one failure.
      guard decision.failures != nil else { return }
      start(onWrong, event: "wrong", decision, failures: failures)
      if decision.lockout != .none { start(onLockout, event: "lockout", decision, failures: failures) }
    case .tooShort, .lockedOut:
      break
    }
  }

  private func start(_ command: [String], event: String, _ decision: UnlockDecision, failures: Int) {
    guard !command.isEmpty else { return }
    let lockout: String
    switch decision.lockout {
    case .none: lockout = "none"
    case .seconds: lockout = "timed"
    case .permanent: lockout = "until-reset"
    }
    let environment = [
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "PATTERNLOCK_EVENT=\(event)",
      "PATTERNLOCK_FAILURES=\(failures)",
      "PATTERNLOCK_LOCKED_FOR_S=\(decision.lockout.seconds ?? 0)",
      "PATTERNLOCK_LOCKOUT=\(lockout)",
    ]
    let started = CStringArray.with(command) { argv in
      CStringArray.with(environment) { envp in pl_spawn_detached(argv, envp, user.uid, user.gid, JournalStream.socketPath) }
    }
    if UnlockActions.waited(started) != 0 {
      Console.error("cannot start the on-\(event) hook \(command[0]): \(Errno.current.text) (check hook-user and the program)")
    }
  }

  /// Waits for the first child of a detached start (which exits at once): 0, or -1 with
  /// errno when it could not be forked or reported a failure. Only the wait is retried
  /// after a signal: a retried fork would start the hook or the pulse twice.
  private static func waited(_ child: Int32) -> Int32 {
    guard child > 0 else { return -1 }
    return resultRetryingInterrupts { pl_wait_detached(child) }
  }
}

/// Why the actions cannot be used: said before the lock starts.
enum ActionsError: DescribedError {
  case unknownUser(String, Errno)
  case doorStrikeUnusable(DoorStrikeLine, Errno)

  var message: String {
    switch self {
    case .unknownUser(let name, let errno):
      let why = errno.rawValue == 0 ? "there is no such user" : errno.text
      return "hook-user \(name): \(why) (create the user, or set hook-user to an existing one such as nobody)"
    case .doorStrikeUnusable(let line, let errno):
      let hint: String
      if errno == .noEntry {
        hint = "is the GPIO chip there? 'ls /dev/gpiochip*' lists them"
      } else if errno == .busy {
        hint = "another program holds the line"
      } else if errno == .invalid {
        hint = "the chip has no such line"
      } else {
        hint = "check gpio-unlock"
      }
      return "gpio-unlock: cannot use line \(line.line) of \(line.chipPath): \(errno.text) (\(hint))"
    }
  }
}
