import PatternChoice
import PatternCore
import SystemCalls
import TPM

/// Why the secret store cannot do what was asked.
///
/// A damaged attempts file is not here: it is not an error but a state (locked, see
/// `AttemptsState`). Every case names the path and says what to do.
public enum VaultError: DescribedError, Equatable {
  /// libsodium could not start (no entropy source).
  case sodiumUnavailable
  /// A system call on a state file failed; `call` names it.
  case systemCall(call: String, path: String, errno: Errno)
  /// The state directory does not exist (commands other than set-pattern never create it).
  case stateDirectoryMissing(path: String)
  /// The state directory is a symlink, a file or a device; `kind` says which.
  case stateDirectoryNotADirectory(path: String, kind: String)
  /// Group or others may use the directory, or another user owns it.
  case stateDirectoryInsecure(path: String, permissions: UInt32, owner: UInt32, expectedOwner: UInt32)
  /// No pattern has been set: the secret file is absent.
  case notEnrolled(directory: String)
  /// The secret file exists but cannot be trusted (damaged, wrong type, permissions).
  case secretFileUnusable(path: String, problem: String)
  /// Argon2id failed (out of memory for the memory limit).
  case hashingFailed(memoryBytes: Int)
  /// The hashing cost is outside what libsodium accepts.
  case badHashCost(problem: String)
  /// The pattern text (from standard input) cannot be used. Never contains the text.
  case badPattern(problem: String)
  /// The pattern has fewer dots than the minimum.
  case patternTooShort(dots: Int, minimum: Int)
  /// Move `move` (1 from the first dot to the second) of the typed pattern passes over
  /// a dot it has not joined yet, which drawing it would join: no drawing could ever
  /// match it. Only the move's number is kept: the message must name no dot.
  case patternNotDrawable(move: Int)
  /// A new pattern is among the `listSize` most commonly chosen (`PatternGuard`).
  /// Never names the pattern.
  case patternCommon(listSize: Int)
  /// Standard input could not be read.
  case standardInputFailed(errno: Errno)
  /// The enrolled pattern is for another grid than the one in use.
  case gridMismatch(enrolled: Int, inUse: Int)
  /// Another process held the state directory's lock for longer than the wait allows.
  case stateBusy(path: String, waitedSeconds: Int)
  /// An attempt could not be counted on disk, so the pattern was not verified at all.
  case attemptNotRecorded(path: String, call: String, errno: Errno)
  /// An entry of the audit log could not be written and synced, so what it records
  /// (the attempt's verdict, a change) was not reported as done.
  case auditNotWritten(path: String, call: String, errno: Errno)
  /// The audit log is not a regular 0600 file of the effective user's.
  case auditLogUnusable(path: String, problem: String)
  /// The state directory's `lock` file is not a regular file of the effective user's
  /// with mode 0600 (a FIFO, a symlink, another owner, group or other bits), so the
  /// state cannot be locked and nothing is judged.
  case stateLockUnusable(path: String, problem: String)
  /// The TPM gave no verdict, or refused to enrol: the attempt was not judged.
  case tpm(TPMProblem)
  /// `[vault] tpm = required` and the TPM could not be used.
  case tpmRequired(TPMProblem)
  /// The pattern is bound to a TPM and no recovery key came on standard input.
  case recoveryKeyMissing
  /// What came on standard input is not a recovery key's form.
  case recoveryKeyMalformed
  /// The TPM refused the recovery key.
  case recoveryKeyWrong
  /// `replay --state-dir` on a TPM-bound pattern.
  case tpmBoundNotReplayable(path: String)
  /// The credentials file exists but cannot be trusted.
  case credentialsFileUnusable(path: String, problem: String)
  /// `credential add` with a name already in use.
  case credentialNameTaken(name: String)
  /// `credential remove` of a name that is no credential.
  case credentialUnknown(name: String)
  /// `credential add` with the pattern of another credential (or the owner's).
  case credentialPatternTaken
  /// `credential add` with `CredentialFile.maximumCount` credentials already.
  case credentialsFull(maximum: Int)
  /// `credential add` while the owner's pattern is bound to a TPM.
  case credentialsNeedHashedPattern(path: String)
  /// `set-pattern` or `enroll` of a pattern for another grid, or bound to a TPM, while
  /// other credentials are judged with the owner's salt on its grid.
  case otherCredentialsDependOnOwner(count: Int, grid: Int)

  /// One line for the user (without the `patternlock: ` prefix).
  public var message: String {
    switch self {
    case .sodiumUnavailable:
      return "libsodium could not initialise (no random source?); check that /dev/urandom or getrandom(2) works"
    case .systemCall(let call, let path, let errno):
      return "\(call) failed on \(path): \(errno.text) (check the state directory's file system, free space and permissions)"
    case .stateDirectoryMissing(let path):
      return "state directory \(path) does not exist (set a pattern first with 'patternlock set-pattern --state-dir \(path)')"
    case .stateDirectoryNotADirectory(let path, let kind):
      return "state directory \(path) is \(kind), not a directory (remove it and set the pattern again)"
    case .stateDirectoryInsecure(let path, let permissions, let owner, let expectedOwner):
      return "state directory \(path) has mode \(VaultError.octal(permissions)) and owner \(owner); it must be 0700 and owned by user \(expectedOwner) (run: chown \(expectedOwner) \(path) && chmod 700 \(path))"
    case .notEnrolled(let directory):
      return "no pattern is set in \(directory) (set one with: echo 1-2-3-6-9 | patternlock set-pattern --state-dir \(directory))"
    case .secretFileUnusable(let path, let problem):
      return "the pattern file \(path) cannot be trusted: \(problem) (set the pattern again with 'patternlock set-pattern')"
    case .hashingFailed(let memoryBytes):
      return "Argon2id hashing failed with a \(memoryBytes >> 20) MiB memory limit (free memory, or choose a smaller --argon-memory-mib)"
    case .badHashCost(let problem):
      return "bad hashing cost: \(problem)"
    case .badPattern(let problem):
      return "the pattern on standard input is not usable: \(problem) (write the dots joined by dashes, such as 2-5-9-4-3)"
    case .patternTooShort(let dots, let minimum):
      return "the pattern joins \(dots) dots, fewer than the minimum of \(minimum) (draw a longer one, or lower --min-dots)"
    case .patternNotDrawable(let move):
      return "the pattern cannot be drawn: move \(move) jumps over a dot not yet joined, which a drawn pattern joins on the way (include that dot in the move, or choose another move)"
    case .patternCommon(let listSize):
      return "this pattern is among the \(GuessEstimate.groupedDigits(listSize)) most commonly chosen (an attacker tries those first); choose one with more dots, fewer straight runs, that starts away from the top-left corner, then try again"
    case .standardInputFailed(let errno):
      return "cannot read the pattern from standard input: \(errno.text)"
    case .stateBusy(let path, let seconds):
      return "another patternlock held the lock of \(path) for over \(seconds) s, so the attempt was not judged (try again; if it persists, look for a stopped patternlock process)"
    case .attemptNotRecorded(let path, let call, let errno):
      return "the attempt was not judged: it cannot be counted in \(path) (\(call): \(errno.text)); the state directory must be writable (full disk, or a file system remounted read-only?)"
    case .auditNotWritten(let path, let call, let errno):
      return "the audit log \(path) cannot be written (\(call): \(errno.text)), so what it would record was not done (an attempt is not judged, a change not made); the state directory must be writable (full disk, or a file system remounted read-only?)"
    case .auditLogUnusable(let path, let problem):
      return "the audit log \(path) cannot be trusted: \(problem), so nothing was judged (move it away and keep it: mv \(path) \(path).bad; the next entry starts a new one, mode 0600)"
    case .stateLockUnusable(let path, let problem):
      return "the state lock \(path) cannot be trusted: \(problem), so the attempt was not judged (remove it: rm \(path); the next attempt makes a new one, mode 0600)"
    case .tpm(let problem):
      return "the attempt was not judged: " + problem.message
    case .tpmRequired(let problem):
      return "[vault] tpm = required, but " + problem.message
    case .recoveryKeyMissing:
      return "the pattern is bound to the TPM, whose count only the recovery key lifts: write the recovery key that set-pattern printed on standard input (echo KEY | patternlock reset-attempts)"
    case .recoveryKeyMalformed:
      return "the recovery key on standard input is not 24 letters and digits in groups of four, such as 7KQM-3XPA-... (copy it as set-pattern printed it)"
    case .recoveryKeyWrong:
      return "the TPM refused the recovery key: it is not the key printed when this pattern was set (nothing was reset)"
    case .tpmBoundNotReplayable(let path):
      return "the pattern in \(path) is bound to the TPM, which judges it and counts every try, so replay cannot judge against a copy (use a pattern set without the TPM, or --pattern)"
    case .credentialsFileUnusable(let path, let problem):
      return "the credentials file \(path) cannot be trusted: \(problem), so nothing was judged (move it away, mv \(path) \(path).bad, and add the credentials again)"
    case .credentialNameTaken(let name):
      return "there is already a credential named \(name) (choose another name, or remove it first: patternlock credential remove \(name))"
    case .credentialUnknown(let name):
      return "there is no credential named \(name) ('patternlock credential list' lists them)"
    case .credentialPatternTaken:
      return "that pattern is already another credential's; every credential needs its own pattern (choose another)"
    case .credentialsFull(let maximum):
      return "there are already \(maximum) credentials besides owner, the most there may be (remove one first)"
    case .credentialsNeedHashedPattern(let path):
      return "the pattern in \(path) is bound to the TPM, and several credentials are not yet TPM-bound (set the owner's pattern with [vault] tpm = off to use several credentials)"
    case .otherCredentialsDependOnOwner(let count, let grid):
      return "\(count) other credential(s) are judged with the owner's pattern's salt on its \(grid)x\(grid) grid, so the owner's pattern must stay hashed (not bound to a TPM) on that grid (remove them with 'patternlock credential remove NAME' first, or keep the grid and set [vault] tpm = off)"
    case .gridMismatch(let enrolled, let inUse):
      return "the pattern was set for a \(enrolled)x\(enrolled) grid but a \(inUse)x\(inUse) grid is in use (pass --grid \(enrolled), or set the pattern again)"
    }
  }

  /// Permission bits as `0755`.
  static func octal(_ value: UInt32) -> String {
    var text = ""
    var v = value & 0o7777
    for _ in 0..<4 {
      text = "\(v & 7)" + text
      v >>= 3
    }
    return text
  }
}
