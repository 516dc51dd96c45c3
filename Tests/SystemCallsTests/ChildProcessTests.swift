import Foundation
import Glibc
import SystemCalls
import XCTest

/// Programs started and waited for, and how their end is told apart.
final class ChildProcessTests: XCTestCase {
  func testAnExitStatusIsTheProgramsOwn() throws {
    XCTAssertEqual(try ChildProcess.spawn(["/bin/true"]).waitForExit(), .exited(0))
    XCTAssertEqual(try ChildProcess.spawn(["/bin/false"]).waitForExit(), .exited(1))
    let status = try ChildProcess.spawn(["/bin/sh", "-c", "exit 130"]).waitForExit()
    XCTAssertEqual(status, .exited(130), "exit 130 is an exit, not SIGINT")
    XCTAssertEqual(status.shellStatus, 130)
    XCTAssertFalse(status.isSuccess)
    XCTAssertTrue(TerminationStatus.exited(0).isSuccess)
  }

  func testASignalThatEndsTheChildIsTold() throws {
    let status = try ChildProcess.spawn(["/bin/sh", "-c", "kill -TERM $$"]).waitForExit()
    XCTAssertEqual(status, .signalled(.terminate))
    XCTAssertEqual(status.shellStatus, 143, "as a shell's $? says it")
    XCTAssertFalse(status.isSuccess)
  }

  func testTheArgumentsReachTheProgramAsGiven() throws {
    let status = try ChildProcess.spawn(["/bin/sh", "-c", "[ \"$1\" = 'two words' ] && [ $# -eq 1 ]", "sh", "two words"])
      .waitForExit()
    XCTAssertEqual(status, .exited(0))
  }

  func testAProgramThatIsNotThereIsNotStarted() {
    XCTAssertThrowsError(try ChildProcess.spawn(["/nonexistent/program"]).id) { error in
      XCTAssertEqual(error as? Errno, .noEntry)
    }
    // No PATH search: a bare name is a path relative to the working directory.
    XCTAssertThrowsError(try ChildProcess.spawn(["true"]).id) { error in
      XCTAssertEqual(error as? Errno, .noEntry)
    }
  }

  func testAChildIsWaitedForOnlyOnce() throws {
    let child = try ChildProcess.spawn(["/bin/true"])
    let id = child.id
    let status = try child.waitForExit()
    XCTAssertEqual(status, .exited(0))
    // The pid is reaped: waiting for it again (as another value) finds no child.
    XCTAssertThrowsError(try ChildProcess(id: id).waitForExit()) { error in
      XCTAssertEqual(error as? Errno, .noChild)
    }
  }

  func testNamedSignalsAreLibcs() {
    XCTAssertEqual(Signal.interrupt.rawValue, SIGINT)
    XCTAssertEqual(Signal.terminate.rawValue, SIGTERM)
    XCTAssertEqual(Signal.user1.rawValue, SIGUSR1)
    XCTAssertEqual(Signal.user2.rawValue, SIGUSR2)
  }
}
