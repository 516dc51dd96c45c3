import CTPMShim

/// Why the TPM did not give a verdict, or refused one.
public enum TPMProblem: Error, Equatable, Sendable {
  /// The TPM counted a wrong pattern (or refused a wrong recovery key).
  case wrong
  /// The index's count reached its limit: only the recovery key lifts it.
  case lockedOut
  /// Not the TPM the pattern was enrolled with (another chip, a cleared one, or the
  /// index is gone); `step` names what did not match.
  case notEnrolledHere(step: String)
  /// The TCTI could not be opened or the TPM stopped answering.
  case unreachable(tcti: String, step: String, detail: String)
  /// A TPM command failed otherwise.
  case failed(step: String, detail: String)
  /// All 16 indexes of patternlock's range are in use.
  case noFreeIndex
  /// tpm2-tss, opened at the first TPM call, is not installed (or lacks a function):
  /// `problem` names the library or function and the dynamic loader's reason.
  case libraryMissing(problem: String)

  init(_ status: pl_tpm_status, tcti: String) {
    var copy = status
    let step = withUnsafeBytes(of: &copy.step) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    let detail = status.rc == 0 ? "" : String(cString: pl_tpm_describe(status.rc))
    switch status.code {
    case PL_TPM_WRONG: self = .wrong
    case PL_TPM_LOCKED_OUT: self = .lockedOut
    case PL_TPM_NOT_ENROLLED_HERE: self = .notEnrolledHere(step: step)
    case PL_TPM_UNREACHABLE: self = .unreachable(tcti: tcti, step: step, detail: detail)
    case PL_TPM_NO_FREE_INDEX: self = .noFreeIndex
    case PL_TPM_LIBRARY_MISSING:
      let problem = pl_tpm_library_problem().map { String(cString: $0) } ?? step
      self = .libraryMissing(problem: problem)
    default: self = .failed(step: step, detail: detail)
    }
  }

  /// One clause for messages: what is wrong and what to do.
  public var message: String {
    switch self {
    case .wrong:
      return "the TPM refused it"
    case .lockedOut:
      return "the TPM has counted the most wrong patterns it allows and refuses every pattern: "
        + "run 'patternlock reset-attempts' with the recovery key that set-pattern printed"
    case .notEnrolledHere(let step):
      return "this is not the TPM the pattern was enrolled with, or it was cleared (\(step) does not match): "
        + "nothing it answers can unlock; set the pattern again with 'patternlock set-pattern'"
    case .unreachable(let tcti, let step, let detail):
      let reason = detail.isEmpty ? "" : ": " + detail
      return "the TPM at '\(tcti)' did not answer (\(step)\(reason)): check that the TPM is there "
        + "(ls /dev/tpmrm0) and the tpm-tcti setting"
    case .failed(let step, let detail):
      return "the TPM refused \(step) (\(detail)): see 'patternlock status' and docs/security.md"
    case .noFreeIndex:
      return "all 16 NV indexes patternlock may use (0x013F5040 to 0x013F504F) are taken: "
        + "undefine the unused ones with tpm2_nvundefine"
    case .libraryMissing(let problem):
      return "the TPM library \(problem): install the tpm2-tss runtime (Debian 12: libtss2-esys-3.0.2-0, "
        + "libtss2-sys1, libtss2-tctildr0 and libtss2-rc0; Debian 13 adds t64 to each name)"
    }
  }
}
