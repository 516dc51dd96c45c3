import CommandKit
import Configuration
import GPIO
import LockEvents
import PatternCore
import SystemCalls
import Vault

/// The door's inputs while the lock runs, in the lock's one poll loop: the door
/// contact (`door-sensor`) and the request-to-exit button (`exit-button`), each a
/// GPIO input with edge events, and a timer for "held open". What they mean is
/// `DoorRules`'; this holds the lines, the timer, and writes the audit log.
///
/// A class, so that each mode of the loop reaches the same one from its steps (the
/// loop lends its own state to no closure). Without either input it has no
/// descriptor at all and costs the loop nothing.
package final class DoorWatch {
  private let sensor: GPIOInput?
  private let button: GPIOInput?
  private let timer: TimerDescriptor?
  private var rules: DoorRules
  private let releases: StrikeReleases
  private let actions: UnlockActions?
  private let stateDirectory: String?
  /// The strike release `rules` last heard of.
  private var releaseSeen: UInt64?

  /// The sources each mode adds to its poll set.
  package struct Sources {
    package let sensor: PollSet.Source
    package let button: PollSet.Source
    package let timer: PollSet.Source
  }

  /// No door inputs.
  package init() {
    sensor = nil
    button = nil
    timer = nil
    rules = DoorRules(heldOpenSeconds: 30, strikeMilliseconds: nil)
    releases = StrikeReleases()
    actions = nil
    stateDirectory = nil
  }

  /// Requests the configured lines (a missing or busy line is said before the lock
  /// starts, as the strike's is).
  package init(_ settings: Settings, actions: UnlockActions) throws(DoorWatchError) {
    sensor = try DoorWatch.input(settings.doorSensor, "door-sensor")
    button = try DoorWatch.input(settings.exitButton, "exit-button")
    do throws(Errno) {
      timer = settings.doorSensor == nil ? nil : try TimerDescriptor()
    } catch {
      throw .timer(error)
    }
    rules = DoorRules(heldOpenSeconds: settings.doorHeldOpenSeconds, strikeMilliseconds: actions.strikeMilliseconds)
    releases = actions.releases
    self.actions = actions
    stateDirectory = settings.stateDirectory ?? StateDirectory.defaultPath
    let now = MonotonicClock.microseconds()
    switch sensor {
    case .some(let line):
      let open = (try? line.isActive()) ?? false
      apply(rules.start(open: open, at: now), at: now)
    case .none: break
    }
  }

  private static func input(_ setting: GPIOLineSetting?, _ key: String) throws(DoorWatchError) -> GPIOInput? {
    guard let setting else { return nil }
    let line: GPIOLine
    do throws(GPIOError) {
      line = try GPIOLine(setting)
    } catch {
      throw .missing(key, error)
    }
    do throws(Errno) {
      return try GPIOInput(line)
    } catch {
      throw .unusable(key, line, error)
    }
  }

  /// Adds the door's descriptors to a mode's poll set (-1, never ready, for what is
  /// not configured).
  package func addSources(to set: inout PollSet) -> Sources {
    Sources(
      sensor: set.add("door-sensor", descriptor: DoorWatch.descriptor(sensor)),
      button: set.add("exit-button", descriptor: DoorWatch.descriptor(button)),
      timer: set.add("door-timer", descriptor: DoorWatch.descriptor(timer)))
  }

  private static func descriptor(_ timer: borrowing TimerDescriptor?) -> Int32 {
    switch timer {
    case .some(let timer): return timer.rawValue
    case .none: return -1
    }
  }

  /// Whether the timer fired (reading its expiries).
  private static func fired(_ timer: borrowing TimerDescriptor?) -> Bool {
    switch timer {
    case .some(let timer): return ((try? timer.expirations()) ?? 0) > 0
    case .none: return false
    }
  }

  private static func arm(_ timer: borrowing TimerDescriptor?, _ microseconds: UInt64) {
    switch timer {
    case .some(let timer): _ = try? timer.arm(microseconds: microseconds)
    case .none: break
    }
  }

  private static func descriptor(_ input: borrowing GPIOInput?) -> Int32 {
    switch input {
    case .some(let line): return line.pollDescriptor
    case .none: return -1
    }
  }

  /// A ready source's step; false when `source` is not the door's.
  package func drain(_ source: PollSet.Source, _ sources: Sources) -> Bool {
    let now = MonotonicClock.microseconds()
    noteReleases()
    switch source {
    case sources.sensor:
      guard let (level, edges) = DoorWatch.read(sensor) else { return true }
      if edges >= 2 && level == rules.isOpen && !level {
        // Opened and closed again between two reads: still an opening.
        apply(rules.sensor(open: true, at: now), at: now)
      }
      apply(rules.sensor(open: level, at: now), at: now)
    case sources.button:
      guard let (level, edges) = DoorWatch.read(button) else { return true }
      apply(rules.button(pressed: level, edges: edges, at: now), at: now)
    case sources.timer:
      guard DoorWatch.fired(timer) else { return true }
      apply(rules.timerFired(at: now), at: now)
    default:
      return false
    }
    return true
  }

  private static func read(_ input: borrowing GPIOInput?) -> (Bool, Int)? {
    switch input {
    case .some(let line):
      do throws(Errno) {
        let edges = try line.drainEdges()
        return (try line.isActive(), edges)
      } catch {
        Console.error("cannot read GPIO line \(line.line.offset) of \(line.line.chipPath): \(error.text)")
        return nil
      }
    case .none:
      return nil
    }
  }

  /// Tells the rules of a release made elsewhere (an unlock) since the last step.
  private func noteReleases() {
    guard let last = releases.lastRelease, last != releaseSeen else { return }
    releaseSeen = last
    rules.strikeReleased(at: last)
  }

  private func apply(_ outcome: DoorRules.Outcome, at now: UInt64) {
    if outcome.releaseStrike, let actions, actions.releaseStrike(because: "exit button pressed") {
      releaseSeen = releases.lastRelease
    }
    if let delay = outcome.armTimer { DoorWatch.arm(timer, delay) }
    if let event = outcome.event { record(event, reason: outcome.reason, at: now) }
  }

  /// The event in the audit log (and the journal); a log that cannot be written is
  /// said on standard error, and the door goes on being watched.
  private func record(_ event: AuditEntry.Event, reason: String?, at now: UInt64) {
    let entry = AuditEntry(
      event: event, credential: nil, failures: nil, reason: reason,
      at: UnlockClock.live.instant(now))
    guard let stateDirectory else { return }
    do throws(VaultError) {
      try AuditLog.record(entry, inStateDirectory: stateDirectory)
    } catch {
      Console.error("door: cannot log \(event.rawValue): \(error.message)")
    }
  }
}

/// Why the door's inputs cannot be watched: said before the lock starts.
package enum DoorWatchError: DescribedError {
  case missing(String, GPIOError)
  case unusable(String, GPIOLine, Errno)
  case timer(Errno)

  package var message: String {
    switch self {
    case .missing(let key, let error):
      return "\(key): \(error.message)"
    case .unusable(let key, let line, let errno):
      let hint = errno == .busy ? "another program holds the line" : "check \(key)"
      return "\(key): cannot watch line \(line.offset) of \(line.chipPath): \(errno.text) (\(hint))"
    case .timer(let errno):
      return "door-sensor: cannot create a timerfd: \(errno.text)"
    }
  }
}
