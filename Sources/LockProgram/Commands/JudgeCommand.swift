import CommandKit
import Configuration
import PatternCore
import SystemCalls
import Vault

/// `patternlock judge [--state-dir DIR]`: judges one pattern for a client that may
/// not read the vault itself (the desktop session's lock, running as the desktop
/// user), on the connection systemd accepted for it (`patternlock-judge.socket`,
/// `Accept=yes`: the connection is standard input and output).
///
/// The client writes one line, the pattern as dashes (`1-2-3-6-9`); the judge answers
/// one JSON line (`JudgeAnswer`) and ends. It judges exactly as `check` does (under
/// the state lock, counted before verified, the throttle, the TPM when the pattern is
/// bound to one), so many clients at once meet one counter, never extra guesses. The
/// line must come within `requestTimeLimitMicroseconds`, whole, and be at most
/// `PatternText.maximumBytes`; otherwise nothing is judged or counted. The peer's
/// uid, gid and pid (SO_PEERCRED) and the result go to the journal (standard error).
///
/// One judgement per uid at a time (`JudgementClaim`): a connection from a user whose
/// earlier one is still waiting or running is answered `not-judged` at once, before
/// memory is locked or the line read, so one member of the socket's group can neither
/// pile up judges nor keep the others' waiting behind theirs.
package enum JudgeCommand {
  /// Long enough for any client that has the pattern ready when it connects; short
  /// enough that connections saying nothing cannot pile up behind the socket.
  package static let requestTimeLimitMicroseconds: Int64 = 5_000_000

  package static func run(_ arguments: [String]) throws(CommandFailure) -> UnlockExitStatus {
    let settings: Settings
    settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try VaultCommandSupport.settingsRefusingPatternArguments(arguments, for: .judge)
    }
    let peer: PeerCredentials
    do throws(Errno) {
      peer = try FileDescriptor.standardInput.peerCredentials()
    } catch {
      guard error == .notASocket else {
        throw .usage(UsageError("judge: cannot ask who is connected (SO_PEERCRED: \(error.text)); run it from patternlock-judge.socket"))
      }
      throw .usage(
        UsageError(
          "judge: standard input is not a socket: patternlock-judge.socket starts it for each connection (to judge a pattern typed in a shell, use 'patternlock check')"
        ))
    }
    let asker = "uid \(peer.user.rawValue) gid \(peer.group.rawValue) pid \(peer.process.rawValue)"
    let actions = try LockStartKit.makeActions(settings)
    let directoryPath = settings.stateDirectory ?? StateDirectory.defaultPath
    do throws(VaultError) {
      let directory = try StateDirectory(opening: directoryPath, creating: false)
      // Claimed first, before memory is locked or the line read: a user's second
      // judgement at once costs a process start and nothing more.
      guard let claim = try directory.claimJudgement(forUser: peer.user.rawValue) else {
        let answer = JudgeAnswer(refusal: .notRecorded, reason: secondJudgementReason)
        Console.error("judge: \(asker): \(answer.result.name): a judgement for uid \(peer.user.rawValue) is already waiting or running")
        Console.out(answer.jsonLine)
        return .notRecorded
      }
      VaultCommandSupport.protectSecretsInMemory()
      var session = try UnlockSession(
        store: DirectoryAttemptStore(directory), table: settings.throttle, startingAt: VaultCommandSupport.now(),
        tcti: settings.tpmTCTI, patternGuard: PatternGuard(blocklistSize: settings.blocklistSize))
      session.reportDamage(to: Console.error)
      var dots = try PatternText.parse(
        try PatternText.readLine(from: FileDescriptor.standardInput, timeLimitMicroseconds: requestTimeLimitMicroseconds),
        gridSize: session.enrolled.gridSize)
      let judged = try session.judge(dots, at: VaultCommandSupport.now(), journal: Console.error)
      dots.removeAll()
      // The journal hears of a judgement before the client does, so whoever reads the
      // journal once every answer has come finds each one there.
      Console.error("judge: \(asker): \(judged.decision.result.name)")
      Console.out(JudgeAnswer(judged).jsonLine)
      actions.after(judged)
      claim.release()
      return VaultCommandSupport.status(for: judged.decision)
    } catch {
      return refuse(error, asker: asker)
    }
  }

  /// What a user's second judgement at once is told; the first one goes on.
  package static let secondJudgementReason =
    "another judgement for this user is waiting or running: one at a time per user, nothing was judged"

  /// Answers and logs a refusal to judge.
  private static func refuse(_ error: VaultError, asker: String) -> UnlockExitStatus {
    let status = VaultCommandSupport.status(for: error)
    let answer = JudgeAnswer(refusal: status, reason: reason(for: error))
    Console.error("judge: \(asker): \(answer.result.name): \(answer.reason ?? "")")
    Console.out(answer.jsonLine)
    return status
  }

  /// What the client is told when nothing was judged: the vault's own message, but a
  /// silent or slow client hears what it did wrong.
  private static func reason(for error: VaultError) -> String {
    if case .standardInputFailed(let errno) = error, errno == .wouldBlock {
      return "no pattern line within \(requestTimeLimitMicroseconds / 1_000_000) s of connecting: nothing was judged"
    }
    return error.message
  }
}
