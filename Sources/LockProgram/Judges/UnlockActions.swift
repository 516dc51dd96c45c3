import CommandKit
import Configuration
import GPIO
import PatternCore
import SystemCalls
import Systemd
import Vault

/// What patternlock does for others after a judgement: the `on-unlock`, `on-wrong`,
/// `on-lockout` and `on-duress` hooks and the door strike (`gpio-unlock`). `run` and `check` take them;
/// `replay` never does (a recording must not open a door).
///
/// Nothing here waits: hooks and the pulse run in detached processes
/// (`DetachedProcess`, `GPIOLine.pulse`), so the lock screen answers the
/// next touch while a hook or a relay is still busy. A hook is given the event, the
/// failure count, the lockout and, after an unlock, the credential's name in its
/// environment, never the pattern.
///
/// A duress credential's unlock is an unlock to everyone watching: on-unlock runs and
/// the strike opens (unless `duress-opens = no`) as for any other; on-duress runs
/// besides, for the silent alarm.
package struct UnlockActions {
  private let onUnlock: [String]
  private let onWrong: [String]
  private let onLockout: [String]
  private let onDuress: [String]
  private let duressOpens: Bool
  /// Whom the hooks run as; nil when there is no hook.
  private let user: UserAccount?
  /// The strike's line, found on this system's chips, and how long to pulse it.
  private let doorStrike: (line: GPIOLine, milliseconds: Int)?
  /// Told of every release, for the door watch (a door opened soon after is let open).
  package let releases = StrikeReleases()

  /// Checks what can be checked before the lock starts: the hook user exists (when a
  /// hook is set) and the door strike's line is there and free.
  package init(_ settings: Settings) throws(ActionsError) {
    onUnlock = settings.onUnlock
    onWrong = settings.onWrong
    onLockout = settings.onLockout
    onDuress = settings.onDuress
    duressOpens = settings.duressOpens
    if let strike = settings.doorStrike {
      do throws(GPIOError) {
        doorStrike = (try GPIOLine(strike.line), strike.milliseconds)
      } catch {
        throw .gpioLineMissing(setting: "gpio-unlock", error)
      }
    } else {
      doorStrike = nil
    }
    if onUnlock.isEmpty && onWrong.isEmpty && onLockout.isEmpty && onDuress.isEmpty {
      user = nil
    } else {
      let account: UserAccount?
      do throws(Errno) {
        account = try UserAccount.named(settings.hookUser)
      } catch {
        throw .unknownUser(settings.hookUser, error)
      }
      guard let account else { throw .unknownUser(settings.hookUser, nil) }
      user = account
    }
    if let (line, _) = doorStrike {
      // A pulse that a SIGKILL cut short left the line where it was, perhaps active:
      // the strike is locked again now, before anything else happens.
      do throws(Errno) {
        try line.checkFree()
        try line.rest()
      } catch {
        throw .doorStrikeUnusable(line, error)
      }
    }
  }

  /// Starts what a judgement calls for (below).
  package func after(_ judged: JudgedAttempt) {
    after(judged.decision, failures: judged.failures, credential: judged.credential)
  }

  /// Starts what `decision` calls for: the door strike and on-unlock after an unlock
  /// by `credential` (and on-duress after one by a duress credential); on-wrong after a
  /// counted wrong pattern, then on-lockout when it started one.
  package func after(_ decision: UnlockDecision, failures: Int, credential: JudgedCredential?) {
    switch decision.result {
    case .unlocked:
      let duress = credential?.role == .duress
      if UnlockActions.opensStrike(after: credential, duressOpens: duressOpens) { releaseStrike(because: "unlocked") }
      start(onUnlock, event: "unlock", decision, failures: failures, credential: credential)
      if duress { start(onDuress, event: "duress", decision, failures: failures, credential: credential) }
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

  /// Whether an unlock by `credential` releases the strike: every unlock does, but a
  /// duress credential's only with `duress-opens = yes`.
  package static func opensStrike(after credential: JudgedCredential?, duressOpens: Bool) -> Bool {
    credential?.role != .duress || duressOpens
  }

  /// Pulses the door strike, when there is one (an unlock, the exit button).
  ///
  /// - Returns: whether a pulse was started.
  @discardableResult
  package func releaseStrike(because reason: String) -> Bool {
    guard let (line, milliseconds) = doorStrike else { return false }
    do throws(Errno) {
      try line.pulse(milliseconds: UInt32(milliseconds), output: JournalStream.socketPath)
      releases.released()
      return true
    } catch {
      Console.error("\(reason), but cannot pulse gpio-unlock line \(line.offset) of \(line.chipPath): \(error.text)")
      return false
    }
  }

  /// How long a strike release lasts, for the door watch's grant; nil without a strike.
  package var strikeMilliseconds: Int? { doorStrike?.milliseconds }

  private func start(
    _ command: [String], event: String, _ decision: UnlockDecision, failures: Int, credential: JudgedCredential? = nil
  ) {
    guard !command.isEmpty, let user else { return }
    let lockout: String
    switch decision.lockout {
    case .none: lockout = "none"
    case .seconds: lockout = "timed"
    case .permanent: lockout = "until-reset"
    }
    var environment = [
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "PATTERNLOCK_EVENT=\(event)",
      "PATTERNLOCK_FAILURES=\(failures)",
      "PATTERNLOCK_LOCKED_FOR_S=\(decision.lockout.seconds ?? 0)",
      "PATTERNLOCK_LOCKOUT=\(lockout)",
    ]
    if let credential { environment.append("PATTERNLOCK_CREDENTIAL=\(credential.name)") }
    do throws(Errno) {
      try DetachedProcess.start(command, environment: environment, as: user, output: JournalStream.socketPath)
    } catch {
      Console.error("cannot start the on-\(event) hook \(command[0]): \(error.text) (check hook-user and the program)")
    }
  }
}

/// Why the actions cannot be used: said before the lock starts.
package enum ActionsError: DescribedError {
  /// No such user (nil), or the user database could not be read.
  case unknownUser(String, Errno?)
  case doorStrikeUnusable(GPIOLine, Errno)
  /// A configured line is on no chip of this system.
  case gpioLineMissing(setting: String, GPIOError)

  package var message: String {
    switch self {
    case .unknownUser(let name, let errno):
      let why = errno?.text ?? "there is no such user"
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
      return "gpio-unlock: cannot use line \(line.offset) of \(line.chipPath): \(errno.text) (\(hint))"
    case .gpioLineMissing(let setting, let error):
      return "\(setting): \(error.message)"
    }
  }
}
