import Foundation
import Glibc
import SystemCalls
import XCTest

/// This process as the C library sees it, through SystemCalls.
final class CurrentProcessTests: XCTestCase {
  func testArgumentsAreTheProcesssOwnProgramNameFirst() {
    XCTAssertEqual(CurrentProcess.arguments, ProcessInfo.processInfo.arguments)
  }

  func testAnEnvironmentVariableIsItsValueOrNilWhenUnset() {
    let name = "PATTERNLOCK_TEST_VARIABLE"
    defer { unsetenv(name) }
    unsetenv(name)
    XCTAssertNil(CurrentProcess.environmentVariable(name))
    setenv(name, "a value = with spaces", 1)
    XCTAssertEqual(CurrentProcess.environmentVariable(name), "a value = with spaces")
    setenv(name, "", 1)
    XCTAssertEqual(CurrentProcess.environmentVariable(name), "", "set to nothing is not unset")
  }

  func testIdentityIsTheKernelsView() {
    XCTAssertEqual(CurrentProcess.id, ProcessID(rawValue: getpid()))
    XCTAssertEqual(CurrentProcess.realUser, UserID(rawValue: getuid()))
    XCTAssertEqual(CurrentProcess.effectiveUser, UserID(rawValue: geteuid()))
  }

  func testUsersAreFoundByNameOrNotAtAll() throws {
    XCTAssertEqual(try UserAccount.named("root"), UserAccount(user: .root, group: GroupID(rawValue: 0)))
    XCTAssertNil(try UserAccount.named("no-such-user-of-patternlock"))
  }

  func testAFailedExecuteSaysWhyAndTheProcessGoesOn() {
    XCTAssertEqual(CurrentProcess.execute(["/nonexistent/program"]), .noEntry)
    XCTAssertEqual(CurrentProcess.execute(["true"]), .noEntry, "no PATH search")
  }
}
