import CommandKit
import Configuration
import PatternCore
import SystemCalls
import Vault

/// What `set-pattern`, `check`, `reset-attempts` and `replay --state-dir` share: the
/// `--state-dir` option, the clock, and turning a `VaultError` into a message and an
/// exit status.
package enum VaultCommandSupport {
  /// The settings of a command that reads the pattern from standard input: an operand
  /// is refused as a pattern given on the command line, without repeating it (argv is
  /// visible to every user through ps and /proc).
  package static func settingsRefusingPatternArguments(_ arguments: [String], for command: Command) throws(UsageError) -> Settings {
    let parsed = try CommandLineSettings(reading: arguments, for: command)
    guard parsed.operands.isEmpty else {
      throw UsageError("\(command.name): the pattern is read from standard input, never from the command line, where other users can see it (run: echo 1-2-3-6-9 | patternlock \(command.name))")
    }
    return parsed.settings
  }

  /// Now, live: CLOCK_MONOTONIC in this boot, and the wall clock.
  package static func now() -> UnlockInstant {
    UnlockClock.live.instant(MonotonicClock.microseconds())
  }

  /// Keeps a pattern held by this process out of core dumps and away from ptrace by
  /// other users and, with `lockingMemory` (the commands that hold a real pattern:
  /// run, enroll, check, set-pattern; not replay, whose recordings may be large), out
  /// of swap: all memory locked when root. Said once when the kernel refuses (the
  /// command goes on).
  package static func protectSecretsInMemory(lockingMemory: Bool = true) {
    do throws(Errno) {
      try CurrentProcess.disableCoreDumps()
    } catch {
      Console.error("cannot disable core dumps (prctl/setrlimit: \(error.text)); a crash could write the pattern to disk")
    }
    guard lockingMemory else { return }
    do throws(Errno) {
      try CurrentProcess.lockAllMemory()
    } catch {
      Console.error("cannot lock memory (mlockall: \(error.text)); the pattern could be written to swap")
    }
  }

  /// The exit status for a vault error (see `UnlockExitStatus`).
  package static func status(for error: VaultError) -> UnlockExitStatus {
    switch error {
    case .notEnrolled, .secretFileUnusable, .stateDirectoryMissing, .credentialsFileUnusable:
      return .notEnrolled
    case .credentialNameTaken, .credentialUnknown, .credentialPatternTaken, .credentialsFull, .credentialsNeedHashedPattern,
      .otherCredentialsDependOnOwner:
      return .badInput
    case .badPattern, .patternTooShort, .patternNotDrawable, .patternCommon, .badHashCost, .gridMismatch, .standardInputFailed,
      .recoveryKeyMissing, .recoveryKeyMalformed, .tpmBoundNotReplayable:
      return .badInput
    case .sodiumUnavailable, .systemCall, .stateDirectoryNotADirectory, .stateDirectoryInsecure, .hashingFailed,
      .tpmRequired:
      return .failure
    case .recoveryKeyWrong:
      return .wrong
    case .stateBusy, .attemptNotRecorded, .stateLockUnusable, .tpm, .auditNotWritten, .auditLogUnusable:
      return .notRecorded
    }
  }

  /// The exit status that reports an unlock decision.
  package static func status(for decision: UnlockDecision) -> UnlockExitStatus {
    switch decision.result {
    case .unlocked: return .unlocked
    case .wrong: return .wrong
    case .tooShort: return .tooShort
    case .lockedOut: return .lockedOut
    }
  }
}

/// Exit statuses of `check`, `set-pattern` and `reset-attempts` (documented in
/// docs/security.md); 0 to 2 mean what `ExitStatus` says for every command.
package enum UnlockExitStatus: Int32 {
  /// The pattern unlocked (check), or the change was made (set-pattern, reset-attempts).
  case unlocked = 0
  /// The environment failed: I/O, an insecure state directory, libsodium, memory.
  case failure = 1
  /// Bad options or a malformed pattern on standard input; nothing was counted.
  case badInput = 2
  /// A wrong pattern (counted or a repeat within 5 minutes).
  case wrong = 3
  /// Fewer dots than the minimum; not counted.
  case tooShort = 4
  /// A lockout is running (or the attempts file is damaged); the pattern was not checked.
  case lockedOut = 5
  /// No usable pattern: none set, or the pattern file cannot be trusted.
  case notEnrolled = 6
  /// The user may not do this (reset-attempts as non-root).
  case notPermitted = 7
  /// The attempt could not be counted first (state not writable, or its lock held too
  /// long by another process), so the pattern was not verified at all.
  case notRecorded = 8
}
