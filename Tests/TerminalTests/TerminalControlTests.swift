import Foundation
import SystemCalls
import Terminal
import XCTest

/// What runs without a virtual terminal: every call on a descriptor that is none fails
/// with the typed errno (ENOTTY), at once, and the console mode leaves it alone.
final class TerminalControlTests: XCTestCase {
  private func withNull(_ body: (TerminalControl, borrowing FileDescriptor) throws -> Void) throws {
    let null = try FileDescriptor.open("/dev/null", .readWrite)
    try body(TerminalControl(lending: null.rawValue), null)
  }

  private func assertNotTerminal<T>(_ what: String, _ call: () throws -> T) {
    do {
      _ = try call()
      XCTFail("\(what) succeeded on /dev/null")
    } catch {
      XCTAssertEqual(error as? Errno, .notTerminal, "\(what): \((error as? Errno)?.text ?? "not an Errno")")
    }
  }

  func testEveryCallOnANonTerminalThrowsNotTerminal() throws {
    try withNull { control, _ in
      let seven = try XCTUnwrap(TerminalNumber(rawValue: 7))
      assertNotTerminal("VT_GETSTATE") { try control.activeNumber() }
      assertNotTerminal("VT_ACTIVATE") { try control.activate(seven) }
      assertNotTerminal("VT_SETMODE") { try control.setSwitching(.process) }
      assertNotTerminal("VT_GETMODE") { try control.isHeld() }
      assertNotTerminal("VT_RELDISP") { try control.answer(.refuseRelease) }
      assertNotTerminal("KDGETMODE") { try control.displayMode() }
      assertNotTerminal("KDSETMODE") { try control.setDisplayMode(.graphics) }
      assertNotTerminal("KDGKBMODE") { try control.keyboardMode() }
      assertNotTerminal("KDSKBMODE") { try control.setKeyboardMode(.off) }
      XCTAssertFalse(control.answerSwitchSignal(allowingRelease: true), "no switch away is pending on /dev/null")
    }
  }

  /// The bounded wait for a switch fails at once on a descriptor that is no VT, rather
  /// than waiting out its time.
  func testWaitingForASwitchOnANonTerminalFailsAtOnce() throws {
    try withNull { control, _ in
      let seven = try XCTUnwrap(TerminalNumber(rawValue: 7))
      let started = Date()
      assertNotTerminal("waitUntilActive") { try control.waitUntilActive(seven, milliseconds: 5000) }
      XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }
  }

  func testNumbersAreOneToSixtyThreeAndNoneForOtherDescriptors() throws {
    XCTAssertNil(TerminalNumber(rawValue: 0), "tty0 is the active VT, not a number of its own")
    XCTAssertNil(TerminalNumber(rawValue: 64))
    XCTAssertNil(TerminalNumber(rawValue: -1))
    XCTAssertEqual(TerminalNumber(rawValue: 63)?.path, "/dev/tty63")
    try withNull { _, null in
      XCTAssertNil(TerminalNumber(of: null), "/dev/null is a character device, but no VT")
    }
    var pipe: [Int32] = [0, 0]
    XCTAssertEqual(Foundation.pipe(&pipe), 0)
    let read = FileDescriptor(owning: pipe[0])
    let write = FileDescriptor(owning: pipe[1])
    XCTAssertNil(TerminalNumber(of: read))
    _ = consume write
  }

  /// Without a VT there is nothing to hide: the console mode switches nothing, and
  /// looking at or setting a VT that cannot be opened says so instead of failing hard.
  func testConsoleModeOnANonTerminalDoesNothing() {
    let console = ConsoleMode(path: "/dev/null")
    XCTAssertFalse(console.isActive)
    let missing = ConsoleMode(path: "/nonexistent/tty0")
    XCTAssertFalse(missing.isActive)
  }

  /// A keyboard found off (a lock killed before it gave the keyboard back, with no
  /// TTYReset to mend it) is given back on; any other mode as found.
  func testTheKeyboardIsNeverGivenBackOff() {
    XCTAssertEqual(TerminalKeyboardMode.off.afterTheLock, .unicode)
    XCTAssertEqual(TerminalKeyboardMode.unicode.afterTheLock, .unicode)
    let translating = TerminalKeyboardMode(rawValue: 1)  // K_XLATE
    XCTAssertEqual(translating.afterTheLock, translating)
  }
}
