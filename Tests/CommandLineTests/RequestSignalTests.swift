import CommandTestSupport
import Foundation
import XCTest

/// SIGUSR1 (`patternlock lock`) and SIGUSR2 are requests to a running lock: a process
/// that is starting, or any other command, is never ended by them.
final class RequestSignalTests: XCTestCase {
  /// The signals blocked by process `pid` (SigBlk in /proc), once it shows any.
  private func blockedSignals(_ pid: Int32) -> UInt64? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
    else { return nil }
    return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
  }

  func testSignalsSentFromTheStartNeverEndACheck() throws {
    let state = try makeTemporaryDirectory(prefix: "request-signals", permissions: 0o700)
    let set = try PatternlockBinary.run(
      ["set-pattern", "--state-dir", state.path, "--argon-memory-mib", "8", "--argon-passes", "1"], stdin: "6-3-8-1\n")
    XCTAssertEqual(set.status, 0, set.stderr)
    let requests: UInt64 = 1 << (UInt64(SIGUSR1) - 1) | 1 << (UInt64(SIGUSR2) - 1)
    for _ in 0..<5 {
      let process = Process()
      process.executableURL = try PatternlockBinary.url()
      process.arguments = ["check", "--state-dir", state.path]
      process.environment = ConfigRoot.isolatedEnvironment()
      let input = Pipe(), output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let pid = process.processIdentifier
      // Blocked as soon as the program runs at all: the first reading of its status
      // that names this program already shows them (the loader's instants aside).
      var sawBlocked = false
      for _ in 0..<2000 {
        if let blocked = blockedSignals(pid), blocked & requests == requests {
          sawBlocked = true
          break
        }
        usleep(500)
      }
      XCTAssertTrue(sawBlocked, "SIGUSR1 and SIGUSR2 are blocked while check waits for its pattern")
      for _ in 0..<20 {
        kill(pid, SIGUSR1)
        kill(pid, SIGUSR2)
      }
      input.fileHandleForWriting.write(Data("1-2-3-4\n".utf8))
      try input.fileHandleForWriting.close()
      process.waitUntilExit()
      XCTAssertEqual(process.terminationReason, .exit, "not ended by a signal")
      XCTAssertEqual(process.terminationStatus, 3, "judged wrong as usual")
      let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertTrue(printed.hasPrefix("{\"result\":\"wrong\""), printed)
    }
  }

  func testLockWaitsForAStartingLockToBecomeActiveBeforeSignallingIt() throws {
    let sandbox = try makeTemporaryDirectory(prefix: "lock-command", permissions: 0o755)
    let log = sandbox.appendingPathComponent("calls").path
    let fake = sandbox.appendingPathComponent("systemctl")
    // Activating for the first three questions, then active.
    try """
      #!/bin/sh
      echo "$*" >> \(log)
      if [ "$1" = is-active ]; then
        [ "$(grep -c is-active \(log))" -gt 3 ] || exit 3
      fi
      exit 0

      """.write(to: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
    let result = try PatternlockBinary.run(["lock"], environment: ["PATTERNLOCK_SYSTEMCTL": fake.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    XCTAssertEqual(
      calls,
      Array(repeating: "is-active --quiet patternlock.service", count: 4)
        + ["kill --kill-whom=main --signal=SIGUSR1 patternlock.service"])
  }
}
