import CShim
import CommandTestSupport
import Foundation
import XCTest

/// A lockout cannot be waited out by telling `check` another time: neither a
/// preloaded library that fakes the clock functions (libfaketime) nor a time namespace
/// whose monotonic clock is a day ahead ends it.
final class LockoutClockTests: XCTestCase {
  var statePath: String!

  override func setUpWithError() throws {
    statePath = try makeTemporaryDirectory(prefix: "lockout-clock", permissions: 0o700).path
    let set = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", statePath, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: "6-3-8-1\n")
    XCTAssertEqual(set.status, 0, set.stderr)
    for wrong in ["1-2-3-4", "1-2-3-5", "1-5-9-8", "1-4-7-8", "2-5-8-9"] {
      XCTAssertEqual(try check(wrong).status, 3)
    }
    let locked = try check("6-3-8-1")
    XCTAssertEqual(locked.status, 5, "five failures lock for a minute: \(locked.stdout)")
  }

  private func check(_ pattern: String, through wrapper: [String] = [], environment: [String: String] = [:]) throws -> CommandResult {
    let binary = try PatternlockBinary.url().path
    let words: [String] = wrapper + [binary, "check", "--state-dir", statePath!]
    return try ChildProcess.run(URL(fileURLWithPath: words[0]), Array(words.dropFirst()), stdin: pattern + "\n", environment: environment)
  }

  func testAPreloadedFakeClockDoesNotEndALockout() throws {
    let library = "/usr/lib/\(Self.multiarch)/faketime/libfaketime.so.1"
    try XCTSkipUnless(FileManager.default.fileExists(atPath: library), "libfaketime is not installed (scripts/install-deps installs it)")
    // AddressSanitizer's interceptors and libfaketime's wrap the same clock and thread
    // functions; preloaded into an ASan build, check deadlocks before it reads anything.
    try XCTSkipIf(pl_address_sanitizer() != 0, "libfaketime cannot be preloaded into an AddressSanitizer build")
    // The fake works: date(1) under it is two hours ahead.
    let date = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/date"), ["+%s"], environment: ["LD_PRELOAD": library, "FAKETIME": "+2h", "FAKETIME_DONT_RESET": "1"])
    let shifted = (Int(date.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - Int(Date().timeIntervalSince1970)
    XCTAssertGreaterThan(shifted, 7000, "libfaketime shifts the clock: \(date.stdout) \(date.stderr)")
    let result = try check("6-3-8-1", environment: ["LD_PRELOAD": library, "FAKETIME": "+2h", "FAKETIME_DONT_RESET": "1"])
    XCTAssertEqual(result.status, 5, "still locked out: \(result.stdout) \(result.stderr)")
    XCTAssertTrue(result.stdout.hasPrefix("{\"result\":\"locked-out\""), result.stdout)
  }

  func testATimeNamespaceADayAheadDoesNotEndALockout() throws {
    try XCTSkipUnless(pl_getuid() == 0, "a time namespace needs root")
    let probe = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unshare"), ["--time", "--monotonic", "86400", "/bin/true"])
    try XCTSkipUnless(probe.status == 0, "this kernel or sandbox has no time namespaces: \(probe.stderr)")
    let ahead = ["/usr/bin/unshare", "--time", "--monotonic", "86400", "--boottime", "86400"]
    let result = try check("6-3-8-1", through: ahead)
    XCTAssertEqual(result.status, 5, "still locked out: \(result.stdout) \(result.stderr)")
    // And what that process wrote is not believed by the next honest one either.
    let wrong = try check("3-6-9-8", through: ahead)
    XCTAssertEqual(wrong.status, 5)
    XCTAssertEqual(try check("6-3-8-1").status, 5, "outside the namespace, the lockout still runs")
  }

  private static var multiarch: String {
    #if arch(arm64)
    return "aarch64-linux-gnu"
    #else
    return "x86_64-linux-gnu"
    #endif
  }
}
