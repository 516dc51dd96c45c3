import CommandKit
import Configuration
import LockEvents
import PatternCore
import SystemCalls
import Vault

/// The running lock's own connection to the event socket (`EventFeed`'s), kept open in
/// every mode of the loop: it says what is on screen (`LockStateLine`: locked or the
/// kiosk open, the count and the lockout) when it connects and whenever that changes,
/// carries the audit log's entries (`carryAuditEntries`: the process's one route to the
/// socket), and it hears the reporter's `lock`, `unlock` and `brightness N` lines (Home
/// Assistant's LOCK, UNLOCK and brightness through `patternlock mqtt`).
///
/// The lock decides, not the reporter: `unlock` opens only with `remote-unlock = yes`
/// in the system configuration, and only once its audit entry is stored; otherwise it
/// is refused and logged. `lock` locks again over the kiosk. A brightness is clamped to
/// `brightness-min` and `brightness-max` of the system configuration, so whoever may
/// write the broker's topic can neither darken the door's screen nor light it past
/// what its owner allows; the level applied is logged and said back in the state line.
/// Nothing here waits: the socket is non-blocking and a reporter that is slow loses
/// lines, never the lock's time. Without a reporter it tries to connect every
/// `retrySeconds`.
///
/// A class, as the door watch: each mode of the loop reaches the same one.
package final class EventLink {
  /// What the reporter asked for.
  package enum Command: Equatable {
    case lock
    case unlock
    /// The backlight's normal level in percent, as sent (not yet clamped).
    case brightness(Int)
  }

  /// What a ready source meant.
  package enum Drained: Equatable {
    case notMine
    case handled
    case command(Command)
  }

  package struct Sources {
    package let link: PollSet.Source
    package let retry: PollSet.Source
  }

  package static let retrySeconds: UInt64 = 5
  /// Longer lines are no command; the connection is dropped and made again.
  package static let maximumLineBytes = 64

  private var slot: DescriptorSlot
  private let retry: TimerDescriptor
  private var pending: [UInt8] = []
  private var buffer = [UInt8](repeating: 0, count: 256)
  private var unlocked = false
  private let statePath: String
  private let throttle: ThrottleTable
  package let remoteUnlock: Bool
  /// brightness-min and brightness-max, in percent.
  package let brightnessBounds: ClosedRange<Int>
  /// The backlight's normal level, as said in the state line.
  private var brightness = LockStateLine.Brightness.unsaid
  /// A brightness that came while the kiosk had the screen, for the lock to apply
  /// when it is shown again.
  private var heldBrightness: Int?
  private let actions: UnlockActions?
  private let socketPath: String

  package init(_ settings: Settings, actions: UnlockActions?) throws(Errno) {
    slot = try DescriptorSlot()
    retry = try TimerDescriptor()
    statePath = settings.stateDirectory ?? StateDirectory.defaultPath
    throttle = settings.throttle
    remoteUnlock = settings.remoteUnlock
    brightnessBounds = settings.brightnessMinimum...max(settings.brightnessMinimum, settings.brightnessMaximum)
    self.actions = actions
    socketPath = EventSocket.path
    pending.reserveCapacity(EventLink.maximumLineBytes + 256)
    connect()
  }

  package func addSources(to set: inout PollSet) -> Sources {
    Sources(link: set.add("event-link", descriptor: slot.rawValue), retry: set.add("event-retry", descriptor: retry.rawValue))
  }

  /// The lock is shown (`unlocked` false) or the kiosk is open: said to the reporter.
  package func announce(unlocked: Bool) {
    self.unlocked = unlocked
    sendState()
  }

  /// The backlight's normal level (nil: none the lock can set), said in the next
  /// state line.
  package func note(brightness percent: Int?) {
    brightness = percent.map { .percent($0) } ?? .none
  }

  /// A brightness from the reporter within the system's bounds.
  package func clamped(brightness percent: Int) -> Int {
    min(max(percent, brightnessBounds.lowerBound), brightnessBounds.upperBound)
  }

  /// A brightness from the reporter was `applied` (the normal level now, in percent;
  /// nil: there is no backlight, and nothing changed): logged when it changed the
  /// level, and said back to the reporter either way.
  package func brightnessTaken(asked: Int, applied: Int?) {
    if let applied {
      let bounded = applied == asked ? "" : " (within brightness-min and brightness-max of the system configuration)"
      Console.out("patternlock: brightness \(asked) from the event socket: the backlight's level is \(applied) %\(bounded)")
      record(.remoteBrightness, reason: "\(applied)")
    } else {
      Console.error(
        "ignored brightness \(asked) from the event socket: this panel has no backlight the lock can set (see backlight = in the configuration)")
    }
    note(brightness: applied)
    sendState()
  }

  /// A brightness that came while the kiosk is open: kept for the lock's screen.
  package func hold(brightness percent: Int) {
    Console.out("patternlock: brightness \(percent) from the event socket: applied when the lock is shown again")
    heldBrightness = percent
  }

  /// The brightness held while the kiosk was open, once.
  package func takeHeldBrightness() -> Int? {
    defer { heldBrightness = nil }
    return heldBrightness
  }

  /// A ready source's step.
  package func drain(_ source: PollSet.Source, _ sources: Sources) -> Drained {
    switch source {
    case sources.retry:
      _ = try? retry.expirations()
      if !slot.isFilled { connect() }
      return .handled
    case sources.link:
      return read()
    default:
      return .notMine
    }
  }

  /// `unlock` from the reporter, in the lock's mode: whether the lock opens. It does
  /// only with remote-unlock = yes and its audit entry stored; the strike is released
  /// as for a judged unlock. Every refusal is logged too.
  package func remoteUnlockOpens() -> Bool {
    guard remoteUnlock else {
      Console.error("refused UNLOCK from the event socket: remote-unlock is not yes in the system configuration")
      record(.remoteUnlockRefused, reason: "remote-unlock-off")
      return false
    }
    guard record(.remoteUnlock, reason: nil) else {
      Console.error("refused UNLOCK from the event socket: its audit entry could not be stored")
      return false
    }
    Console.out("patternlock: unlocked by UNLOCK from the event socket (remote-unlock)")
    actions?.releaseStrike(because: "remote unlock")
    return true
  }

  /// `lock` from the reporter, over the kiosk: logged, then the lock comes back.
  package func remoteLockTaken() {
    record(.remoteLock, reason: nil)
  }

  @discardableResult
  private func record(_ event: AuditEntry.Event, reason: String?) -> Bool {
    let entry = AuditEntry(event: event, credential: nil, failures: nil, reason: reason, at: VaultCommandSupport.now())
    do throws(VaultError) {
      try AuditLog.record(entry, inStateDirectory: statePath)
      return true
    } catch {
      Console.error("cannot log \(event.rawValue): \(error.message)")
      return false
    }
  }

  private func connect() {
    do throws(Errno) {
      let connection = try FileDescriptor.connectingTrustedUnixStream(to: socketPath)
      try slot.place(connection)
      pending.removeAll(keepingCapacity: true)
      sendState()
    } catch {
      if error == .notPermitted {
        Console.error("\(socketPath) is not root's: the lock tells it nothing (remove it; patternlock-events.socket makes it)")
      }
      _ = try? retry.arm(microseconds: EventLink.retrySeconds * 1_000_000)
    }
  }

  private func disconnect() {
    slot.empty()
    pending.removeAll(keepingCapacity: true)
    _ = try? retry.arm(microseconds: EventLink.retrySeconds * 1_000_000)
  }

  /// Makes this connection the audit log's route to the socket: the process's one.
  package func carryAuditEntries() {
    AuditLog.observer = { [self] entry in send(entry.jsonLine) }
  }

  /// An audit entry's line, on this connection (made again first if it had gone).
  private func send(_ line: String) {
    if !slot.isFilled { connect() }
    sendLine(line)
  }

  private func sendState() {
    sendLine(stateLine().jsonLine)
  }

  private func sendLine(_ line: String) {
    guard slot.isFilled else { return }
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    let sent = bytes.withUnsafeBytes { raw -> Int in
      do throws(Errno) {
        return try slot.sendWithoutWaiting(raw)
      } catch {
        return -1
      }
    }
    if sent != bytes.count { disconnect() }
  }

  /// What is on screen, with the count and lockout as the attempts file has them.
  private func stateLine() -> LockStateLine {
    var failures = 0
    var lockout = LockReport.Lockout.none
    if let directory = try? StateDirectory(opening: statePath, creating: false) {
      let record = AttemptsFile.load(from: directory).record(failingClosedWith: throttle)
      failures = record.failures
      if let decision = UnlockPolicy.storedLockout(of: record, table: throttle, at: VaultCommandSupport.now()) {
        lockout = decision.isPermanentlyLocked ? .untilReset : .seconds(Int(decision.retryInSeconds ?? 0))
      }
    }
    return LockStateLine(unlocked: unlocked, failures: failures, lockout: lockout, brightness: brightness)
  }

  private func read() -> Drained {
    var command: Command?
    while true {
      let received: Int? = buffer.withUnsafeMutableBytes { raw in
        do throws(Errno) {
          return try slot.receiveWithoutWaiting(into: raw)
        } catch {
          return 0
        }
      }
      guard let count = received else { break }
      if count == 0 {
        // The reporter went away (or restarts): connect again later.
        disconnect()
        break
      }
      pending.append(contentsOf: buffer[..<count])
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        switch RemoteCommand(line: pending[..<newline]) {
        case .lock: command = .lock
        case .unlock: command = .unlock
        case .brightness(let percent): command = .brightness(percent)
        case nil: Console.error("ignored a line from the event socket that is no command (it takes lock, unlock or brightness 1 to 100)")
        }
        pending.removeSubrange(...newline)
      }
      if pending.count > EventLink.maximumLineBytes {
        Console.error("the event socket sent a line longer than \(EventLink.maximumLineBytes) bytes; connecting again")
        disconnect()
        break
      }
    }
    return command.map { .command($0) } ?? .handled
  }
}
