import Backlight
import CommandTestSupport
import Configuration
import Foundation
import Glibc
import LockEvents
import PatternCore
import Raster
import Screen
import ScreenTestSupport
import SystemCalls
import Vault
import VaultTestSupport
import XCTest

@testable import LockProgram

/// A brightness from the reporter through the lock's own loop: the line on the event
/// link is clamped to the system configuration's bounds, written to the backlight as
/// its normal level, logged, and said back in the state line.
final class RemoteBrightnessLoopTests: XCTestCase {
  /// Input that is ready once (a byte in a pipe) and then stops the loop with SIGTERM,
  /// so that the event link's line, ready in the same wait, is handled first. The
  /// drain before the first wait is left alone.
  final class Stopper {
    let read: Int32, write: Int32
    var drains = 0
    init() {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      var byte: UInt8 = 1
      precondition(Glibc.write(write, &byte, 1) == 1)
    }
    deinit {
      close(read)
      close(write)
    }
  }

  struct StoppingInput: InputSource {
    struct Never: DescribedError { var message: String { "no input" } }
    let stopper: Stopper
    var pollDescriptor: Int32 { stopper.read }
    var nextEventTime: UInt64? { nil }
    mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(Never) {
      stopper.drains += 1
      guard stopper.drains > 1 else { return }
      var byte: UInt8 = 0
      if Glibc.read(stopper.read, &byte, 1) == 1 { raise(SIGTERM) }
    }
  }

  /// The lock's connection on `server`, waited for up to two seconds.
  func accept(_ server: borrowing FileDescriptor) throws -> FileDescriptor {
    for _ in 0..<200 {
      if let connection = try server.acceptConnection() { return connection }
      usleep(10_000)
    }
    throw XCTSkip("no connection came")
  }

  func testABrightnessIsClampedWrittenLoggedAndSaidBack() throws {
    let directory = try makeTemporaryDirectory()
    let statePath = directory.appendingPathComponent("state").path
    try VaultTestSupport.enrol([1, 2, 3, 6], in: statePath)
    let socketPath = directory.appendingPathComponent("events.sock").path
    setenv("PATTERNLOCK_EVENT_SOCKET", socketPath, 1)
    defer { unsetenv("PATTERNLOCK_EVENT_SOCKET") }
    let light = directory.appendingPathComponent("class/backlight/4-0045")
    try FileManager.default.createDirectory(at: light, withIntermediateDirectories: true)
    try "31\n".write(to: light.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
    try "25\n".write(to: light.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
    func level() throws -> Int? {
      Int(try String(contentsOf: light.appendingPathComponent("brightness"), encoding: .utf8).split(separator: "\n").first ?? "")
    }

    var settings = Settings()
    settings.stateDirectory = statePath
    settings.brightnessMinimum = 20
    settings.brightnessMaximum = 60
    let server = try FileDescriptor.listeningUnixStream(at: socketPath, backlog: 4)
    var loop = try EventLoop()
    loop.events = try EventLink(settings, actions: nil)
    let link = try accept(server)
    let line = Array("brightness 95\n".utf8)
    XCTAssertEqual(try line.withUnsafeBytes { try link.sendWithoutWaiting($0) }, line.count)

    let found = try Backlight.find(root: directory.path, card: "card1", connector: "DSI-1", named: nil)
    var display = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: true), light: found, dimPercent: 20)
    var input = StoppingInput(stopper: Stopper())
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout)
    var judge = LockScreenStepTests.QuietPatternJudge(DotSequence([1, 2, 3, 6]))
    let ending = loop.run(display: &display, input: &input, screen: &screen, judge: &judge)
    guard case .signal(SIGTERM) = ending else { return XCTFail("the loop ended with \(ending)") }

    XCTAssertEqual(try level(), 19, "60 % of 31, clamped from 95")
    _ = consume display
    XCTAssertEqual(try level(), 25, "given back as found when the panel went")
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    for _ in 0..<100 {
      guard let count = try buffer.withUnsafeMutableBytes({ try link.receiveWithoutWaiting(into: $0) }), count > 0 else { break }
      received += buffer[..<count]
    }
    let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
    let states = lines.compactMap { LockStateLine($0) }
    XCTAssertEqual(states.map { $0.brightness }, [.unsaid, .percent(81), .percent(61)], "on connecting; the level found, when the lock is shown; 60 % (clamped from 95) as 19 of 31 reads back")
    let state = try StateDirectory(opening: statePath, creating: false)
    let entries = try AuditLog.lines(in: state).compactMap { line -> AuditEntry? in
      if case .entry(let entry) = line { return entry }
      return nil
    }
    XCTAssertEqual(entries.map { $0.event }, [.remoteBrightness])
    XCTAssertEqual(entries.first?.reason, "61")
  }
}
