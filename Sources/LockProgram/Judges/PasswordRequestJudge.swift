import CommandKit
import PatternCore
import Scene
import Screen
import SystemCalls
import Systemd
import Vault

/// Judges `password-agent`'s patterns by answering a systemd password request with the
/// pattern as the PIN (`PatternText.canonical`, `3x3:2-5-9-4-3`), and reading the verdict
/// from what the asker does next: the TPM, not this process, decides.
///
/// - It asks again (a new request with the same Id, or from the same process, that asks
///   for a PIN): the pattern was wrong. The new request is the one shown from then on.
/// - It ends, and asks nothing within `graceMicroseconds`: the PIN was taken. The lock
///   ends (`ending` is `.answered`).
/// - It asks for a passphrase or a recovery key instead: the TPM refused the PIN for good
///   (its lockout, a changed PCR). The lock ends (`.passphraseAsked`) and leaves that
///   request to an agent with a keyboard: a pattern is never a passphrase.
///
/// Escape with nothing drawn cancels the request (`.cancelled`).
///
/// While no pattern is out, the request may go by itself (another agent answered it, its
/// time ran out, its asker ended): `isWithdrawn` ends the lock then (`.withdrawn`).
///
/// One watch (`PasswordRequestWatch`) behind the loop's descriptor wakes the loop for all
/// of it, so nothing is polled on a timer.
package struct PasswordRequestJudge: PatternJudge, ~Copyable {
  /// Why the lock ended, once it has.
  package enum Ending: Equatable {
    case answered
    case passphraseAsked
    case withdrawn
    /// Escape: the asker was told no answer will come.
    case cancelled
  }

  /// The request on screen.
  package private(set) var current: PendingRequest
  package private(set) var ending: Ending?
  private let directory: String
  private let gridSize: Int
  private let minimumDots: Int
  private var slot: DescriptorSlot
  private var watch: PasswordRequestWatch
  /// The wrong tries the TPM allows before its lockout, asked after a wrong pattern (nil:
  /// not known, and not said).
  package var triesLeft: () -> Int? = { nil }
  /// A pattern was sent for `current` and its fate is not yet known.
  private var answered = false
  /// When the asker was seen to have ended after an answer (the grace runs from there).
  private var askerEndedAt: UInt64?

  /// How long an answer may wait for the asker's next move: a TPM's unsealing with a PIN
  /// under its dictionary-attack protection takes seconds, not minutes.
  package static let answerTimeLimitMicroseconds: UInt64 = 90_000_000
  /// How long an ended asker is given for another to ask again in its place (a script
  /// runs one `systemd-ask-password` per try).
  package static let graceMicroseconds: UInt64 = 1_500_000

  package init(_ request: PendingRequest, directory: String, gridSize: Int, minimumDots: Int) throws(Errno) {
    current = request
    self.directory = directory
    self.gridSize = gridSize
    self.minimumDots = minimumDots
    var slot = try DescriptorSlot()
    watch = try PasswordRequestWatch(directory: directory, asker: request.request.pid, behind: &slot)
    self.slot = slot
  }

  package var answerDescriptor: Int32 { slot.rawValue }

  package mutating func judge(_ outcome: GestureOutcome, at now: UInt64) -> LockScreenController.Judgement {
    let dots = outcome.dots
    guard outcome.result == .complete, dots.count >= minimumDots else {
      return LockScreenController.Judgement(verdict: .rejected(.tooShort(minimumDots: minimumDots)))
    }
    let pin = PatternText.canonical(dots, gridSize: gridSize)
    let request = current.request
    do throws(Errno) {
      try pin.withBytes { bytes throws(Errno) in try request.answer(with: bytes) }
    } catch {
      Console.error("cannot answer the password request in \(current.file) (\(error.text)): its asker has gone; the disk stays locked")
      ending = .withdrawn
      return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain), unlocks: true)
    }
    answered = true
    askerEndedAt = nil
    return .pending(answerBy: now + PasswordRequestJudge.answerTimeLimitMicroseconds)
  }

  package mutating func takeAnswer(at now: UInt64, due: UInt64) -> LockScreenController.Judgement? {
    watch.drain()
    if let next = nextFromTheSameAsker(at: now) {
      answered = false
      if next.request.asksForPIN {
        adopt(next)
        // The TPM counted the wrong PIN: its count says how many more it takes.
        guard let left = triesLeft() else {
          Console.out("password-agent: the PIN was refused; asked again")
          return LockScreenController.Judgement(verdict: .rejected(.wrongPattern))
        }
        Console.out("password-agent: the PIN was refused; asked again; the TPM takes \(left) more before its lockout")
        return LockScreenController.Judgement(verdict: .rejected(.wrongPattern(triesLeft: left)))
      }
      Console.out("password-agent: the TPM refused the pattern and a passphrase is asked: the keyboard's to answer")
      ending = .passphraseAsked
      return LockScreenController.Judgement(verdict: .rejected(.wrongPattern), unlocks: true)
    }
    // A request gone while its asker lives is being tried (the TPM takes its time):
    // only an ended asker, or a file gone with no process named, may have taken it.
    if watch.askerEnded || (current.request.pid == nil && isGone(current)) {
      let ended = askerEndedAt ?? now
      askerEndedAt = ended
      if now >= ended + PasswordRequestJudge.graceMicroseconds {
        answered = false
        ending = .answered
        Console.out("password-agent: the asker took the PIN")
        return LockScreenController.Judgement(verdict: .accepted(.unlocked), unlocks: true)
      }
      try? watch.wake(after: ended + PasswordRequestJudge.graceMicroseconds - now)
    }
    guard now >= due else { return nil }
    Console.error("password-agent: the asker neither took the PIN nor asked again within \(PasswordRequestJudge.answerTimeLimitMicroseconds / 1_000_000) s; the disk stays locked")
    answered = false
    ending = .withdrawn
    return LockScreenController.Judgement(verdict: .rejected(.busyTryAgain), unlocks: true)
  }

  /// Whether the request shown went without an answer from here: the lock ends.
  package mutating func isWithdrawn(at now: UInt64) -> Bool {
    guard !answered, ending == nil else { return false }
    watch.drain()
    guard watch.askerEnded || isGone(current) || current.request.hasExpired(at: now) else { return false }
    ending = .withdrawn
    return true
  }

  /// Escape with nothing drawn: the asker is told that no answer will come (`-`), as a
  /// keyboard agent's Escape does, and the lock ends.
  package mutating func cancel(at now: UInt64) -> Bool {
    guard !answered, ending == nil else { return false }
    do throws(Errno) {
      try current.request.cancel()
    } catch {
      // Gone already: there is nothing left to cancel.
    }
    ending = .cancelled
    return true
  }

  /// A request that came after `current` from the same asker (its Id, or its process).
  private func nextFromTheSameAsker(at now: UInt64) -> PendingRequest? {
    guard let pending = try? PasswordRequestDirectory.pending(in: directory, now: now).waiting else { return nil }
    return pending.first { other in
      other.file != current.file
        && ((other.request.id != nil && other.request.id == current.request.id)
          || (other.request.pid != nil && other.request.pid == current.request.pid))
    }
  }

  private func isGone(_ request: PendingRequest) -> Bool {
    (try? FileStatus(ofPath: request.file, followingSymlinks: false)) == nil
  }

  /// Shows `next` from now on, watching its asker.
  private mutating func adopt(_ next: PendingRequest) {
    current = next
    askerEndedAt = nil
    do throws(Errno) {
      watch = try PasswordRequestWatch(directory: directory, asker: next.request.pid, behind: &slot)
    } catch {
      Console.error("password-agent: cannot watch the new request (\(error.text)); its changes are seen at the next pattern")
    }
  }
}
