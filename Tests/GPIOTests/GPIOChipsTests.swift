import Foundation
import GPIO
import XCTest

/// Finding a configured line where there is no such chip: each failure says what to do.
/// (The lines of a real chip are found on the emulated board's PL061, in the end-to-end
/// test.)
final class GPIOChipsTests: XCTestCase {
  func testNoChipsInADirectorySaysSo() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: dir) }
    FileManager.default.createFile(atPath: dir.path + "/gpiochipX", contents: nil)
    for address in [GPIOLineAddress.named("DOOR_STRIKE"), .chipLabel("pinctrl-rp1", offset: 17)] {
      XCTAssertThrowsError(try locate(address, dir.path)) { error in
        XCTAssertEqual(error as? GPIOError, .noChips(directory: dir.path))
      }
    }
  }

  func testAChipPathThatIsNoChipNamesTheCall() throws {
    XCTAssertThrowsError(try locate(.chipPath("/dev/null", offset: 4), "/dev")) { error in
      guard case .chip(let path, _) = error as? GPIOError else { return XCTFail("\(error)") }
      XCTAssertEqual(path, "/dev/null")
    }
  }

  func testMessagesSayWhatToDo() {
    XCTAssertEqual(
      GPIOError.noLineNamed("DOOR", names: "").message,
      "no GPIO line is named DOOR (no line has a name; 'gpioinfo' lists them, or give CHIP-LABEL:OFFSET)")
    XCTAssertEqual(
      GPIOError.noChipLabelled("pinctrl-rp1", labels: "9030000.pl061").message,
      "no GPIO chip is labelled pinctrl-rp1 (labels: 9030000.pl061; 'gpiodetect' lists them)")
    XCTAssertEqual(
      GPIOError.noSuchOffset(chip: "9030000.pl061", offset: 9, lines: 8).message,
      "GPIO chip 9030000.pl061 has no line 9 (it has lines 0 to 7)")
  }

  func locate(_ address: GPIOLineAddress, _ directory: String) throws -> (String, UInt32) {
    let found = try GPIOChips.locate(address, in: directory)
    return (found.chipPath, found.offset)
  }
}
