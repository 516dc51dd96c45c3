import SystemCalls

extension StateDirectory {
  /// The file whose bytes are the users' claims (`JudgementClaim`).
  public static let judgingName = "judging"

  /// Claims the one judgement `user` may have at a time, without waiting.
  ///
  /// - Returns: the claim, or nil when a judgement for `user` holds it already.
  /// - Throws: `VaultError.stateLockUnusable` when `judging` is not a 0600 regular file
  ///   of the effective user's, `.systemCall` when it cannot be opened or locked (a
  ///   read-only state directory: nothing could be counted there either).
  public func claimJudgement(forUser user: UInt32) throws(VaultError) -> JudgementClaim? {
    let file = try openLockFile(StateDirectory.judgingName)
    let taken: Bool
    do throws(Errno) {
      taken = try file.tryLockByte(at: Int64(user))
    } catch {
      throw .systemCall(call: "fcntl F_OFD_SETLK", path: pathOf(StateDirectory.judgingName), errno: error)
    }
    guard taken else { return nil }
    return JudgementClaim(file: file)
  }
}
