import CommandTestSupport
import Foundation
import Glibc
import XCTest

@testable import SystemCalls

/// Programs started and never waited for: only the first child's report is.
final class DetachedProcessTests: XCTestCase {
  private var me: UserAccount {
    UserAccount(user: CurrentProcess.effectiveUser, group: GroupID(rawValue: getegid()))
  }

  func testTheProgramRunsWithExactlyTheEnvironmentGiven() throws {
    let directory = try makeTemporaryDirectory(prefix: "detached")
    let output = directory.appendingPathComponent("seen").path
    try DetachedProcess.start(
      ["/bin/sh", "-c", "echo \"$GREETING:${HOME-unset}\" > \(output).part && mv \(output).part \(output)"],
      environment: ["GREETING=hello"], as: me, output: directory.appendingPathComponent("no-journal").path)
    // The program is not waited for: its file appears when it has run.
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: output) && Date() < deadline { usleep(10_000) }
    XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "hello:unset\n")
  }

  func testTheFirstChildsStatusSaysWhatFailed() {
    XCTAssertNil(DetachedProcess.failure(of: .exited(0)))
    XCTAssertEqual(DetachedProcess.failure(of: .exited(1)), .notPermitted, "it could not become the user")
    XCTAssertEqual(DetachedProcess.failure(of: .exited(2)), .noChild, "it could not fork")
    XCTAssertEqual(DetachedProcess.failure(of: .signalled(.terminate)), .noChild)
  }

  func testAFirstChildThatFailedIsAnError() throws {
    // A first child that exits 1 is one that could not become the hook user.
    let failing = try ChildProcess.spawn(["/bin/sh", "-c", "exit 1"]).id
    XCTAssertThrowsError(try DetachedProcess.waitForFirstChild(failing.rawValue)) { error in
      XCTAssertEqual(error as? Errno, .notPermitted)
    }
  }

  func testAStartWhoseForkFailedIsItsErrno() {
    errno = Errno.tryAgain.rawValue
    XCTAssertThrowsError(try DetachedProcess.waitForFirstChild(-1)) { error in
      XCTAssertEqual(error as? Errno, .tryAgain)
    }
  }
}
