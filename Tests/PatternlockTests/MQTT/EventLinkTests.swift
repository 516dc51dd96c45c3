import LockEvents
import CommandTestSupport
import Configuration
import Foundation
import PatternCore
@testable import LockProgram
import SystemCalls
import Vault
import VaultTestSupport
import XCTest

/// The running lock's link to the event socket, against a real listening socket: it
/// says what is on screen, hears `lock` and `unlock`, and opens only with
/// remote-unlock = yes, logging every remote command.
final class EventLinkTests: XCTestCase {
  var directory: URL!
  var socketPath: String { directory.appendingPathComponent("events.sock").path }
  var statePath: String { directory.appendingPathComponent("state").path }

  override func setUpWithError() throws {
    directory = try makeTemporaryDirectory()
    try VaultTestSupport.enrol([1, 2, 3, 6], in: statePath)
    setenv("PATTERNLOCK_EVENT_SOCKET", socketPath, 1)
  }

  override func tearDown() {
    unsetenv("PATTERNLOCK_EVENT_SOCKET")
  }

  func settings(remoteUnlock: Bool = false, brightness: ClosedRange<Int> = 10...100) -> Settings {
    var settings = Settings()
    settings.stateDirectory = statePath
    settings.remoteUnlock = remoteUnlock
    settings.brightnessMinimum = brightness.lowerBound
    settings.brightnessMaximum = brightness.upperBound
    return settings
  }

  /// The next connection on `server`, waited for up to two seconds.
  func accept(_ server: borrowing FileDescriptor) throws -> FileDescriptor {
    for _ in 0..<200 {
      if let connection = try server.acceptConnection() { return connection }
      usleep(10_000)
    }
    throw XCTSkip("no connection came")
  }

  /// The first `count` lines that arrive on `connection`, each within two seconds.
  func lines(_ count: Int, from connection: borrowing FileDescriptor) throws -> [String] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    var found: [String] = []
    for _ in 0..<(200 * count) {
      while let newline = bytes.firstIndex(of: 10) {
        found.append(String(decoding: bytes[..<newline], as: UTF8.self))
        bytes.removeSubrange(...newline)
      }
      if found.count >= count { return Array(found.prefix(count)) }
      let received = try buffer.withUnsafeMutableBytes { try connection.receiveWithoutWaiting(into: $0) }
      if let received, received > 0 { bytes += buffer[..<received] } else { usleep(10_000) }
    }
    XCTFail("\(found.count) of \(count) lines came")
    return found
  }

  /// What arrives on `connection` within two seconds, up to a newline (nil at its end).
  func line(from connection: borrowing FileDescriptor) throws -> String? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    for _ in 0..<200 {
      let received = try buffer.withUnsafeMutableBytes { try connection.receiveWithoutWaiting(into: $0) }
      if let received {
        if received == 0 { return nil }
        bytes += buffer[..<received]
        if let newline = bytes.firstIndex(of: 10) { return String(decoding: bytes[..<newline], as: UTF8.self) }
      } else {
        usleep(10_000)
      }
    }
    XCTFail("no line within two seconds")
    return nil
  }

  func hasConnection(_ server: borrowing FileDescriptor) throws -> Bool {
    switch try server.acceptConnection() {
    case .some: return true
    case .none: return false
    }
  }

  func send(_ text: String, to connection: borrowing FileDescriptor) throws {
    let bytes = Array(text.utf8)
    let sent = try bytes.withUnsafeBytes { try connection.sendWithoutWaiting($0) }
    XCTAssertEqual(sent, bytes.count)
  }

  /// What the link makes of what the server sent, after polling its sources.
  func drained(_ link: EventLink) throws -> EventLink.Drained {
    var set = PollSet(capacity: 2)
    let sources = link.addSources(to: &set)
    guard try set.wait(milliseconds: 2000) == true, let ready = set.nextReady(after: nil) else { return .notMine }
    return link.drain(ready, sources)
  }

  func auditEvents() throws -> [AuditEntry.Event] {
    let state = try StateDirectory(opening: statePath, creating: false)
    return try AuditLog.lines(in: state).compactMap { line in
      if case .entry(let entry) = line { return entry.event }
      return nil
    }
  }

  func testItSaysWhatIsOnScreenAndHearsLockAndUnlock() throws {
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    let link = try EventLink(settings(), actions: nil)
    let connection = try accept(server)
    let first = try XCTUnwrap(try line(from: connection))
    let state = try XCTUnwrap(LockStateLine(Substring(first)), first)
    XCTAssertFalse(state.unlocked)
    link.announce(unlocked: true)
    XCTAssertEqual(LockStateLine(Substring(try XCTUnwrap(try line(from: connection))))?.unlocked, true)

    try send("unlock\n", to: connection)
    XCTAssertEqual(try drained(link), .command(.unlock))
    try send("lock\n", to: connection)
    XCTAssertEqual(try drained(link), .command(.lock))
    try send("open sesame\n", to: connection)
    XCTAssertEqual(try drained(link), .handled, "anything else is no command")
  }

  /// `brightness N` is a command; the percent is clamped to the system configuration's
  /// bounds; the level applied is logged and said back in the state line, and a lock
  /// without a backlight says none and logs nothing.
  func testABrightnessIsClampedLoggedAndSaidBack() throws {
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    defer { AuditLog.observer = nil }
    let link = try EventLink(settings(brightness: 20...80), actions: nil)
    link.carryAuditEntries()
    let connection = try accept(server)
    XCTAssertEqual(LockStateLine(Substring(try XCTUnwrap(try line(from: connection))))?.brightness, .unsaid, "no display yet")
    try send("brightness 5\n", to: connection)
    XCTAssertEqual(try drained(link), .command(.brightness(5)))
    try send("brightness 050\n", to: connection)
    XCTAssertEqual(try drained(link), .handled, "no looser form than the bridge writes")
    XCTAssertEqual(link.clamped(brightness: 5), 20)
    XCTAssertEqual(link.clamped(brightness: 100), 80)
    XCTAssertEqual(link.clamped(brightness: 40), 40)

    link.brightnessTaken(asked: 5, applied: 20)
    let applied = try lines(2, from: connection)
    XCTAssertEqual(FlatJSON.object(applied[0][...])?["event"], "remote-brightness")
    XCTAssertEqual(FlatJSON.object(applied[0][...])?["reason"], "20")
    XCTAssertEqual(LockStateLine(Substring(applied[1]))?.brightness, .percent(20))
    link.brightnessTaken(asked: 40, applied: nil)
    XCTAssertEqual(
      LockStateLine(Substring(try XCTUnwrap(try line(from: connection)))), LockStateLine(unlocked: false, failures: 0, lockout: .none, brightness: .none))
    XCTAssertEqual(try auditEvents(), [.remoteBrightness], "nothing changed, nothing logged")
  }

  func testABrightnessWhileTheKioskIsOpenWaitsForTheLock() throws {
    let link = try EventLink(settings(), actions: nil)
    XCTAssertNil(link.takeHeldBrightness())
    link.hold(brightness: 30)
    link.hold(brightness: 60)
    XCTAssertEqual(link.takeHeldBrightness(), 60, "the last one asked")
    XCTAssertNil(link.takeHeldBrightness(), "once")
  }

  func testUnlockOpensOnlyWithRemoteUnlockAndEveryOneIsLogged() throws {
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    defer { AuditLog.observer = nil }
    let refusing = try EventLink(settings(), actions: nil)
    refusing.carryAuditEntries()
    XCTAssertFalse(refusing.remoteUnlockOpens())
    XCTAssertEqual(try auditEvents(), [.remoteUnlockRefused])
    let allowing = try EventLink(settings(remoteUnlock: true), actions: nil)
    allowing.carryAuditEntries()
    XCTAssertTrue(allowing.remoteUnlockOpens())
    allowing.remoteLockTaken()
    XCTAssertEqual(try auditEvents(), [.remoteUnlockRefused, .remoteUnlock, .remoteLock])
    // The entries reached the socket too, as every audit entry does, each on the
    // connection of the link that carried the log then, after its state line: one
    // route per process, no connection of their own.
    let events = { (lines: [String]) in lines.map { FlatJSON.object($0[...])?["event"] ?? $0 } }
    let first = try accept(server)
    XCTAssertEqual(events(try lines(2, from: first)), ["state", "remote-unlock-refused"])
    let second = try accept(server)
    XCTAssertEqual(events(try lines(3, from: second)), ["state", "remote-unlock", "remote-lock"])
    XCTAssertFalse(try hasConnection(server), "no connection of an entry's own")
  }

  /// A command without a running lock sends each entry on a connection of its own.
  func testWithoutALinkEachEntryHasAConnectionOfItsOwn() throws {
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    EventFeed.carryAuditEntries()
    defer { AuditLog.observer = nil }
    let entry = AuditEntry(event: .remoteLock, credential: nil, failures: nil, reason: nil, at: VaultCommandSupport.now())
    try AuditLog.record(entry, inStateDirectory: statePath)
    let feed = try accept(server)
    XCTAssertEqual(try line(from: feed), entry.jsonLine)
  }

  func testAnUnlockThatCannotBeLoggedDoesNotOpen() throws {
    let link = try EventLink(settings(remoteUnlock: true), actions: nil)
    // The audit log's place taken by a directory: no entry can be stored.
    try FileManager.default.createDirectory(atPath: statePath + "/audit.log", withIntermediateDirectories: false)
    XCTAssertFalse(link.remoteUnlockOpens())
  }

  func testAnOverlongLineOrAClosedPeerEndsTheConnection() throws {
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    let link = try EventLink(settings(), actions: nil)
    let connection = try accept(server)
    _ = try line(from: connection)
    try send(String(repeating: "x", count: EventLink.maximumLineBytes + 1), to: connection)
    XCTAssertEqual(try drained(link), .handled)
    XCTAssertNil(try line(from: connection), "the link hung up")

    let again = try EventLink(settings(), actions: nil)
    let peer = try accept(server)
    _ = consume peer
    XCTAssertEqual(try drained(again), .handled)
  }

  func testASocketOfAnotherUsersIsToldNothing() throws {
    guard getuid() == 0 else { throw XCTSkip("chown needs root") }
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    XCTAssertEqual(chown(socketPath, 65534, 65534), 0)
    _ = try EventLink(settings(), actions: nil)
    XCTAssertFalse(EventFeed.send("{}"))
    usleep(100_000)
    XCTAssertFalse(try hasConnection(server))
  }
}
