import LockEvents
import Vault

/// What the door's inputs mean, without the I/O: when a door that opened was let
/// open (a strike release shortly before), when it was forced, when it has stood
/// open too long, and what the exit button does. The times are CLOCK_MONOTONIC µs.
///
/// As commercial access panels do: a door that opens within the grant after a
/// release (the pulse, plus `graceMicroseconds` to push it) was let open; any other
/// opening is "forced" (the door was forced, or the strike failed to hold). A door
/// open longer than `heldOpenMicroseconds` is reported once per opening, and the
/// closing after a report is reported too, so the log shows when it ended.
package struct DoorRules {
  /// Time to reach and push the door after the strike has released.
  package static let graceMicroseconds: UInt64 = 10_000_000

  /// What a step asks for.
  package struct Outcome: Equatable {
    /// The audit log's event, with its reason; nil for none.
    package var event: AuditEntry.Event?
    package var reason: String?
    /// Release the strike (the exit button).
    package var releaseStrike = false
    /// Arm the held-open timer this long from now (0 disarms it); nil leaves it.
    package var armTimer: UInt64?
  }

  package let heldOpenMicroseconds: UInt64
  /// How long a strike release lasts; nil without a strike.
  package let strikeMicroseconds: UInt64?
  package private(set) var isOpen = false
  private var openedAt: UInt64 = 0
  private var reported = false
  private var grantUntil: UInt64?
  private var buttonPressed = false

  package init(heldOpenSeconds: Int, strikeMilliseconds: Int?) {
    heldOpenMicroseconds = UInt64(heldOpenSeconds) * 1_000_000
    strikeMicroseconds = strikeMilliseconds.map { UInt64($0) * 1000 }
  }

  /// The strike was released at `now` (an unlock, a duress unlock, the exit button).
  package mutating func strikeReleased(at now: UInt64) {
    grantUntil = now &+ (strikeMicroseconds ?? 0) &+ DoorRules.graceMicroseconds
  }

  /// The contact's level when the lock starts: an open door is timed from now, never
  /// called forced (no one knows how it was opened).
  package mutating func start(open: Bool, at now: UInt64) -> Outcome {
    isOpen = open
    openedAt = now
    reported = false
    return Outcome(armTimer: open ? heldOpenMicroseconds : nil)
  }

  /// The contact's level after its edges.
  package mutating func sensor(open: Bool, at now: UInt64) -> Outcome {
    guard open != isOpen else { return Outcome() }
    isOpen = open
    if open {
      openedAt = now
      let granted = grantUntil.map { now <= $0 } ?? false
      grantUntil = nil
      reported = !granted
      return Outcome(event: granted ? nil : .doorForced, armTimer: heldOpenMicroseconds)
    }
    let wasReported = reported
    reported = false
    return Outcome(event: wasReported ? .doorClosed : nil, armTimer: 0)
  }

  /// The held-open timer fired.
  package mutating func timerFired(at now: UInt64) -> Outcome {
    guard isOpen else { return Outcome() }
    guard now &- openedAt >= heldOpenMicroseconds else { return Outcome(armTimer: heldOpenMicroseconds - (now &- openedAt)) }
    reported = true
    return Outcome(event: .doorHeldOpen, reason: "\(heldOpenMicroseconds / 1_000_000)")
  }

  /// The button's level after `edges` edges: a press (inactive to active) releases
  /// the strike; holding it does not repeat. A press and release both read in one
  /// drain (the level is back where it was, after two edges or more) is a press.
  package mutating func button(pressed: Bool, edges: Int, at now: UInt64) -> Outcome {
    let tapped = !pressed && !buttonPressed && edges >= 2
    guard pressed != buttonPressed || tapped else { return Outcome() }
    buttonPressed = pressed
    guard pressed || tapped else { return Outcome() }
    if strikeMicroseconds != nil { strikeReleased(at: now) }
    return Outcome(event: .exitButton, reason: strikeMicroseconds == nil ? "no-strike" : nil, releaseStrike: strikeMicroseconds != nil)
  }
}
