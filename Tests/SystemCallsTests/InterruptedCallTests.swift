import CShim
import Foundation
import SystemCalls
import XCTest

/// Signals the sleep test's handler has seen.
nonisolated(unsafe) private var sleepInterruptions = 0

/// The C shim makes each call once and hands EINTR back: what the Swift side does
/// with it where a caller looks at the failure itself, and where a plain retry would
/// be wrong (a sleep).
final class InterruptedCallTests: XCTestCase {
  func testResultRetryingInterruptsRepeatsEINTRAndHandsBackAnyOtherFailure() {
    var calls = 0
    let result = resultRetryingInterrupts { () -> Int32 in
      calls += 1
      pl_set_errno(calls < 3 ? Errno.interrupted.rawValue : Errno.invalid.rawValue)
      return -1
    }
    XCTAssertEqual(result, -1)
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(Errno.current, .invalid, "errno is the last call's")
    calls = 0
    let negated = resultRetryingInterrupts { () -> Int32 in
      calls += 1
      return calls == 1 ? -Errno.interrupted.rawValue : -Errno.busy.rawValue
    }
    XCTAssertEqual(negated, -Errno.busy.rawValue)
    XCTAssertEqual(resultRetryingInterrupts { Int32(5) }, 5)
  }

  /// A signal 300 ms into a 900 ms sleep: the sleep goes on for what is left, so it
  /// ends after 900 ms, neither at the signal nor at 1200 ms (a sleep started again).
  /// The bounds are that far apart so a loaded machine's scheduling never decides it.
  func testSleepGoesOnForWhatIsLeftAfterASignal() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in sleepInterruptions += 1 }
    action.sa_flags = 0  // no SA_RESTART
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    XCTAssertEqual(sigaction(SIGALRM, &action, &previous), 0)
    defer { _ = sigaction(SIGALRM, &previous, nil) }
    sleepInterruptions = 0

    let target = pthread_self()
    let thread = Thread {
      usleep(300_000)
      pthread_kill(target, SIGALRM)
    }
    thread.start()
    let start = pl_monotonic_microseconds()
    SystemCalls.sleep(microseconds: 900_000)
    let slept = pl_monotonic_microseconds() - start
    XCTAssertEqual(sleepInterruptions, 1, "the signal arrived during the sleep")
    XCTAssertGreaterThanOrEqual(slept, 900_000)
    XCTAssertLessThan(slept, 1_150_000, "not started again from the whole 900 ms")
  }
}
