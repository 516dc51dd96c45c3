import CommandKit
import Configuration
import PatternCore
import SystemCalls
import TPM
import Vault

/// `patternlock status [--state-dir DIR]`: one JSON object for monitoring by the state
/// directory's owner (root on a device; hooks, which run as hook-user, get the same
/// facts in their environment),
/// `{"state_dir":"/var/lib/patternlock","pattern":"set","attempts":"intact","failures":5,
/// "lockout":"timed","locked_for_s":42}`; exit 0 whenever the directory could be
/// examined. Nothing is judged, counted or written, and no lock is taken (state files
/// are replaced by atomic renames, so each is read whole).
///
/// - `pattern`: `set`, `none` (no directory or no pattern file) or `damaged`;
/// - `attempts`: `intact`, `missing` or `damaged` (a damaged or missing file locks);
/// - `lockout`: `none`, `timed` or `until-reset`; `locked_for_s` the seconds left of a
///   timed one as the record stands (one from before a reboot is whole: the lock starts
///   it again in full), else 0;
/// - `pattern_check` (with a pattern set): `common` when the first unlock since it was
///   set found it among the most commonly chosen (`[vault] blocklist`), then `advice`
///   says what to do; `not-common`; or `unchecked` (no unlock since it was set).
package enum StatusCommand {
  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    let settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try CommandLineSettings.optionsOnly(arguments, for: .status)
    }
    let path = settings.stateDirectory ?? StateDirectory.defaultPath
    var line = JSONObjectWriter()
    line.add("state_dir", string: path)
    let directory: StateDirectory
    do throws(VaultError) {
      directory = try StateDirectory(opening: path, creating: false)
    } catch {
      if case .systemCall(_, _, let errno) = error, errno == .permissionDenied { throw .stateNotReadable(path: path) }
      guard case .stateDirectoryMissing = error else { throw .vault(error) }
      line.add("pattern", string: "none")
      line.add("attempts", string: "missing")
      line.add("failures", 0)
      line.add("lockout", string: "none")
      line.add("locked_for_s", 0)
      Console.out(line.json)
      return .success
    }
    let pattern: String
    var enrolment: TPMEnrolment?
    do throws(VaultError) {
      enrolment = try EnrolledPattern.load(from: directory).tpmEnrolment
      pattern = "set"
    } catch {
      if case .notEnrolled = error { pattern = "none" } else { pattern = "damaged" }
    }
    line.add("pattern", string: pattern)
    if pattern == "set" { addPatternCheck(PatternCheck.load(from: directory), to: &line) }
    addTPM(enrolment, tcti: settings.tpmTCTI, to: &line)
    let state = AttemptsFile.load(from: directory)
    let record = state.record(failingClosedWith: settings.throttle)
    switch state {
    case .intact: line.add("attempts", string: "intact")
    case .damaged(let problem): line.add("attempts", string: problem == "it is missing" ? "missing" : "damaged")
    }
    line.add("failures", record.failures)
    let lockout = UnlockPolicy.storedLockout(of: record, table: settings.throttle, at: VaultCommandSupport.now())
    if let lockout, lockout.isPermanentlyLocked {
      line.add("lockout", string: "until-reset")
      line.add("locked_for_s", 0)
    } else if let seconds = lockout?.retryInSeconds {
      line.add("lockout", string: "timed")
      line.add("locked_for_s", Int(seconds))
    } else {
      line.add("lockout", string: "none")
      line.add("locked_for_s", 0)
    }
    Console.out(line.json)
    return .success
  }

  /// What `status` says to the owner of a pattern the guard would refuse now.
  package static let commonPatternAdvice =
    "the pattern is among the most commonly chosen: set a stronger one with enroll or set-pattern"

  /// `pattern_check`, and `advice` for a common pattern.
  private static func addPatternCheck(_ check: PatternCheck?, to line: inout JSONObjectWriter) {
    guard let check else {
      line.add("pattern_check", string: "unchecked")
      return
    }
    line.add("pattern_check", string: check.isCommon ? "common" : "not-common")
    if check.isCommon { line.add("advice", string: commonPatternAdvice) }
  }

  /// `tpm`: "no" for a hashed pattern, "yes" when the enrolled TPM answered (then
  /// `tpm_tries_left`, its own count), else "unreachable" or "not-enrolled-here" with
  /// `tpm_problem`. Whenever the TPM answered, `tpm_manufacturer` and `tpm_kind`
  /// ("software" with `tpm_warning`, or "hardware").
  private static func addTPM(_ enrolment: TPMEnrolment?, tcti: String, to line: inout JSONObjectWriter) {
    guard let enrolment else {
      line.add("tpm", string: "no")
      return
    }
    do throws(TPMProblem) {
      let tpm = try TrustedPlatformModule(tcti: tcti)
      addKind(of: tpm, to: &line)
      let count = try tpm.check(enrolment.binding)
      line.add("tpm", string: "yes")
      line.add("tpm_failures", count.failures)
      line.add("tpm_tries_left", count.triesLeft)
    } catch {
      if case .notEnrolledHere = error { line.add("tpm", string: "not-enrolled-here") } else { line.add("tpm", string: "unreachable") }
      line.add("tpm_problem", string: error.message)
    }
  }

  /// Whether the TPM is a program whose state is a file (swtpm): a count the disk's
  /// copy can rewind, which the administrator must hear of.
  private static func addKind(of tpm: TrustedPlatformModule, to line: inout JSONObjectWriter) {
    let vendor: TPMVendor
    do throws(TPMProblem) {
      vendor = try tpm.vendor()
    } catch {
      // Said by the TPM check that follows, if it persists.
      return
    }
    line.add("tpm_manufacturer", string: vendor.manufacturer)
    if let kind = vendor.softwareKind(tcti: tpm.tcti) {
      line.add("tpm_kind", string: "software")
      line.add("tpm_warning", string: TPMVendor.warning(kind: kind))
    } else {
      line.add("tpm_kind", string: "hardware")
    }
  }
}
