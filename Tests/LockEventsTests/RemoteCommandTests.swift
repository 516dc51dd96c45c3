@testable import LockEvents
import XCTest

/// What a message on the command topic may make the lock do: exact payloads, only as
/// published, never replayed from the broker's retained store.
final class RemoteCommandTests: XCTestCase {
  func verdict(_ payload: [UInt8], truncated: Bool = false, retained: Bool = false) -> RemoteCommand.Verdict {
    RemoteCommand.from(payload: payload, truncated: truncated, retained: retained)
  }

  func testLockAndUnlockAsPublishedAreTaken() {
    XCTAssertEqual(verdict(Array("LOCK".utf8)), .take(.lock))
    XCTAssertEqual(verdict(Array("UNLOCK".utf8)), .take(.unlock))
    XCTAssertEqual(RemoteCommand.unlock.line, "unlock")
    XCTAssertEqual(RemoteCommand.lock.line, "lock")
  }

  func testARetainedCommandIsNeverTaken() {
    // The broker replays a retained message to every new subscription: each reconnect.
    XCTAssertEqual(verdict(Array("UNLOCK".utf8), retained: true), .ignore(.retained))
    XCTAssertEqual(verdict(Array("LOCK".utf8), retained: true), .ignore(.retained))
  }

  func testOnlyTheExactBytesAreACommand() {
    for payload in ["UNLOCK\0", "UNLOCK\n", "UNLOCK ", " UNLOCK", "unlock", "UNLOCK\0x", "UNLOCKED", "UNLOC", "\0UNLOCK", "LOCK\r\n", ""] {
      XCTAssertEqual(verdict(Array(payload.utf8)), .ignore(.unknown), "payload \(Array(payload.utf8))")
    }
    XCTAssertEqual(verdict(Array("UNLOCK".utf8), truncated: true), .ignore(.truncated))
  }

  func brightness(_ payload: String, truncated: Bool = false, retained: Bool = false) -> RemoteCommand.Verdict {
    RemoteCommand.brightness(payload: Array(payload.utf8), truncated: truncated, retained: retained)
  }

  func testABrightnessAsPublishedIsTakenAsAPercentLine() {
    XCTAssertEqual(brightness("1"), .take(.brightness(1)))
    XCTAssertEqual(brightness("40"), .take(.brightness(40)))
    XCTAssertEqual(brightness("100"), .take(.brightness(100)))
    XCTAssertEqual(RemoteCommand.brightness(40).line, "brightness 40")
    XCTAssertEqual(RemoteCommand.brightness(40).journalName, "brightness 40")
  }

  func testABrightnessIsRefusedAsStrictlyAsLockAndUnlock() {
    XCTAssertEqual(brightness("40", retained: true), .ignore(.retained))
    XCTAssertEqual(brightness("40", truncated: true), .ignore(.truncated))
    for payload in [
      "", "0", "101", "1000", "040", "00", "+40", "-40", " 40", "40 ", "40\n", "40\0", "4 0", "40.0", "40%", "0x28", "４０", "forty",
      "99999999999999999999",
    ] {
      XCTAssertEqual(brightness(payload), .ignore(.notAPercent), "payload \(Array(payload.utf8))")
    }
    // LOCK on the brightness topic is no brightness, and 40 on the lock's is no command.
    XCTAssertEqual(brightness("LOCK"), .ignore(.notAPercent))
    XCTAssertEqual(verdict(Array("40".utf8)), .ignore(.unknown))
  }

  /// The lock reads its event link's lines as exactly as the bridge writes them.
  func testTheLockTakesOnlyTheLinesTheBridgeWrites() {
    XCTAssertEqual(RemoteCommand(line: Array("lock".utf8)), .lock)
    XCTAssertEqual(RemoteCommand(line: Array("unlock".utf8)), .unlock)
    for percent in [1, 40, 100] {
      XCTAssertEqual(RemoteCommand(line: Array(RemoteCommand.brightness(percent).line.utf8)), .brightness(percent))
    }
    for line in ["brightness", "brightness ", "brightness 0", "brightness 101", "brightness 040", "brightness  40", "brightness +4", "Brightness 40", "brightness 40 ", "LOCK"] {
      XCTAssertNil(RemoteCommand(line: Array(line.utf8)), line)
    }
  }

  func testIgnoredPayloadsAreLoggedEscapedAndBounded() {
    XCTAssertEqual(EscapedPayload.text(Array("OPEN".utf8)), "OPEN")
    XCTAssertEqual(EscapedPayload.text(Array("UNLOCK\0".utf8)), "UNLOCK\\x00")
    XCTAssertEqual(
      EscapedPayload.text(Array("x\npatternlock: judge: uid 0: unlocked\r".utf8)), "x\\x0apatternlock: judge: uid 0: unlocked\\x0d")
    XCTAssertEqual(EscapedPayload.text(Array("Tür\u{1b}[2J'\\".utf8)), "T\\xc3\\xbcr\\x1b[2J\\x27\\x5c")
    let long = [UInt8](repeating: UInt8(ascii: "A"), count: 200)
    XCTAssertEqual(EscapedPayload.text(long), String(repeating: "A", count: 64) + "...")
    XCTAssertEqual(EscapedPayload.text(Array(long.prefix(64)), truncated: true), String(repeating: "A", count: 64) + "...")
    XCTAssertEqual(EscapedPayload.text(Array(long.prefix(64))), String(repeating: "A", count: 64))
    for byte in UInt8.min...UInt8.max {
      let text = EscapedPayload.text([byte])
      XCTAssertTrue(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "byte \(byte) gave \(Array(text.utf8))")
    }
  }

  func testTheClientIDIsNewEachStartAndValidForEveryBroker() {
    let first = MQTTClientIdentifier.make(node: "front-door", random: [1, 2, 3, 4, 5, 6, 7, 8])
    XCTAssertEqual(first, "plfront0102030405060708")
    XCTAssertNotEqual(first, MQTTClientIdentifier.make(node: "front-door", random: [1, 2, 3, 4, 5, 6, 7, 9]))
    for node in ["front-door", "a", "patternlock", "locker-12-b-with-a-very-long-name", ""] {
      let id = MQTTClientIdentifier.make(node: node, random: [0xff, 0, 0xa5, 1, 2, 3, 4, 5])
      XCTAssertTrue((1...23).contains(id.utf8.count), id)
      XCTAssertTrue(id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }, id)
      XCTAssertTrue(id.hasSuffix("ff00a50102030405"), id)
      XCTAssertNotEqual(id, "patternlock-" + node)
    }
  }
}
