import CommandTestSupport
import Foundation
import XCTest

@testable import LockProgram

/// The kiosk's unit is asked of systemd only when its cgroup may hold a process: a
/// hierarchy made in a temporary directory, shaped as systemd makes /sys/fs/cgroup.
final class UnitProcessesTests: XCTestCase {
  let unit = "patternlock-kiosk.service"
  var root: URL!

  override func setUpWithError() throws {
    root = try makeTemporaryDirectory(prefix: "unit-processes")
    try write("cgroup.controllers", "cpu memory pids\n")
    try write("system.slice/cgroup.events", "populated 1\nfrozen 0\n")
    try write("system.slice/systemd-journald.service/cgroup.events", "populated 1\nfrozen 0\n")
    // No login session yet, as at boot; a user's own unit of the kiosk's name is not it.
    try write("user.slice/cgroup.events", "populated 0\nfrozen 0\n")
    try write("user.slice/user-1000.slice/user@1000.service/app.slice/\(unit)/cgroup.events", "populated 0\nfrozen 0\n")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: root)
  }

  private func write(_ path: String, _ text: String) throws {
    let file = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: false, encoding: .utf8)
  }

  func testNoCgroupOfThatNameIsNoProcess() {
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .none)
  }

  func testALoginSessionIsAskedOfSystemd() throws {
    // With PAMName= the kiosk's processes run in its session's scope, and its unit's
    // own cgroup may be empty or gone: any session at all, and systemd is asked.
    try write("system.slice/\(unit)/cgroup.events", "populated 0\nfrozen 0\n")
    try write("user.slice/cgroup.events", "populated 1\nfrozen 0\n")
    try write("user.slice/user-1001.slice/session-2.scope/cgroup.events", "populated 1\nfrozen 0\n")
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .unknown)
  }

  func testNoUserSliceAtAllIsNoSession() throws {
    try FileManager.default.removeItem(at: root.appendingPathComponent("user.slice"))
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .none)
  }

  func testAnEmptyCgroupIsNoProcess() throws {
    try write("system.slice/\(unit)/cgroup.events", "populated 0\nfrozen 0\n")
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .none)
  }

  func testAPopulatedCgroupIsAskedOfSystemd() throws {
    try write("system.slice/\(unit)/cgroup.events", "populated 1\nfrozen 1\n")
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .unknown)
  }

  func testAUnitInASliceOfItsOwnIsFound() throws {
    try write("kiosk.slice/kiosk-panel.slice/\(unit)/cgroup.events", "populated 1\nfrozen 0\n")
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .unknown, "Slice=kiosk-panel.slice")
  }

  func testACgroupWhoseEventsCannotBeReadIsAskedOfSystemd() throws {
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("system.slice/\(unit)/cgroup.events"), withIntermediateDirectories: true)
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .unknown, "cgroup.events is a directory here")
  }

  func testAHierarchyThatIsNotCgroupV2IsAskedOfSystemd() throws {
    try FileManager.default.removeItem(at: root.appendingPathComponent("cgroup.controllers"))
    XCTAssertEqual(UnitProcesses.of(unit, root: root.path), .unknown)
    XCTAssertEqual(UnitProcesses.of(unit, root: root.appendingPathComponent("absent").path), .unknown)
  }

  func testTheLiveHierarchyIsReadWithoutFailing() throws {
    // This machine's own /sys/fs/cgroup: no unit of this name runs here; "none" only
    // where no login session runs either.
    let answer = UnitProcesses.of("patternlock-test-no-such-unit.service")
    let unified = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers")
    let sessions = (try? String(contentsOfFile: "/sys/fs/cgroup/user.slice/cgroup.events", encoding: .utf8))?
      .contains("populated 1") ?? false
    XCTAssertEqual(answer, unified && !sessions ? .none : .unknown)
  }
}
