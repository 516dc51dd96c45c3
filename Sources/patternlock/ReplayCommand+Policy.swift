import CShim
import PatternCore
import Vault

extension ReplayCommand {
  /// `replay FILE --state-dir DIR`: runs each finished gesture through the unlock
  /// policy against the pattern enrolled in DIR, and prints what the lock screen would
  /// decide: `{"dots":[...],"result":"unlocked"|"wrong"|"too-short"|"locked-out"}`,
  /// with `"retry_in_s"` while a lockout runs and `"failures"` after a counted failure.
  ///
  /// The clock is the recording's: lockouts run on the events' microsecond timestamps,
  /// and the wall clock (for the 5-minute repeat rule and the attempts file) is now plus
  /// the time since the first event. Counted failures are persisted in DIR exactly as
  /// live ones are (a replay is an attempt like any other), and the replay starts like
  /// a restart: a pending lockout begins again at the first event.
  static func runPolicy(_ events: [TouchEvent], layout: GridLayout, stateDirectory path: String, throttle: ThrottleTable) {
    let directory = VaultCommandSupport.open(path, creating: false)
    let firstTime = events.first?.timeMicroseconds ?? 0
    let wallBase = pl_wall_seconds()
    func instant(_ time: UInt64) -> UnlockInstant {
      let elapsed = time >= firstTime ? time - firstTime : 0
      return UnlockInstant(monotonicMicroseconds: time, wallSeconds: wallBase + Int64(elapsed / 1_000_000))
    }
    do throws(VaultError) {
      var session = try UnlockSession(directory: directory, table: throttle, startingAt: instant(firstTime))
      if let problem = session.attemptsDamage { VaultCommandSupport.reportDamage(problem, path: session.attemptsPath) }
      let enrolled = session.enrolled
      guard enrolled.gridSize == layout.gridSize else { throw .gridMismatch(enrolled: enrolled.gridSize, inUse: layout.gridSize) }
      var tracker = GestureTracker(layout: layout, minimumDots: enrolled.minimumDots)
      for event in events {
        guard let outcome = tracker.handle(event) else { continue }
        let decision = try session.attempt(outcome.dots, at: instant(outcome.timeMicroseconds))
        Console.out(decision.jsonLine(dots: outcome.dots))
      }
    } catch {
      VaultCommandSupport.fail(error)
    }
  }
}
