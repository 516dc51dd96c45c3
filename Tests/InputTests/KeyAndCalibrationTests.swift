import PatternCore
import XCTest

@testable import Input

final class KeyAndCalibrationTests: XCTestCase {
  func testDigitKeysOfTheMainRowAndKeypadAddTheirDot() {
    // KEY_1 = 2 ... KEY_9 = 10.
    for n in 1...9 { XCTAssertEqual(KeyAction(keyCode: UInt32(n + 1)), .dot(n), "KEY_\(n)") }
    // Keypad codes (linux/input-event-codes.h): KP7 71, KP8 72, KP9 73, KP4 75, KP5 76,
    // KP6 77, KP1 79, KP2 80, KP3 81.
    let keypad: [UInt32: Int] = [79: 1, 80: 2, 81: 3, 75: 4, 76: 5, 77: 6, 71: 7, 72: 8, 73: 9]
    for (code, dot) in keypad { XCTAssertEqual(KeyAction(keyCode: code), .dot(dot), "keypad code \(code)") }
  }

  func testEditingKeysMapAndOthersAreIgnored() {
    XCTAssertEqual(KeyAction(keyCode: 14), .removeLast)  // KEY_BACKSPACE
    XCTAssertEqual(KeyAction(keyCode: 28), .submit)  // KEY_ENTER
    XCTAssertEqual(KeyAction(keyCode: 96), .submit)  // KEY_KPENTER
    XCTAssertEqual(KeyAction(keyCode: 1), .clear)  // KEY_ESC
    for ignored: UInt32 in [0, 11, 15, 30, 57, 82, 74, 78, 0x110] {  // KEY_0, TAB, A, SPACE, KP0, KPMINUS, KPPLUS, BTN_LEFT
      XCTAssertNil(KeyAction(keyCode: ignored), "code \(ignored)")
    }
  }

  func testCalibrationTakesSixValuesOnly() {
    XCTAssertEqual(CalibrationMatrix(values: [1, 0, 0, 0, 1, 0]), .identity)
    XCTAssertNil(CalibrationMatrix(values: [1, 0, 0, 0, 1]))
    XCTAssertNil(CalibrationMatrix(values: [1, 0, 0, 0, 1, 0, 0]))
  }

  func testLibinputPixelsBecomeFixedPointRoundedToNearest() {
    XCTAssertEqual(InputContext.fixed(0), Fixed16(raw: 0))
    XCTAssertEqual(InputContext.fixed(399.5), Fixed16(raw: 399 << 16 | 0x8000))
    XCTAssertEqual(InputContext.fixed(1.0 / 131072.0), Fixed16(raw: 1))  // half a raw unit rounds away from zero
    XCTAssertEqual(InputContext.fixed(-1.0 / 131072.0), Fixed16(raw: -1))
    XCTAssertEqual(InputContext.fixed(1e12), Fixed16(raw: Int32.max - 1))
  }

  func testUinputMessageSaysToLoadTheModule() {
    XCTAssertEqual(
      InputError.noUinput(path: "/dev/uinput", errno: .noEntry).message,
      "cannot open /dev/uinput: No such file or directory (load the uinput module: 'sudo modprobe uinput')")
  }
}
