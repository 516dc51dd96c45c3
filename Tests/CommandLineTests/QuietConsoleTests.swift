import CommandTestSupport
import Foundation
import XCTest

/// board/raspberrypi/quiet-console, which install.sh runs on cmdline.txt: the command lines
/// Raspberry Pi OS and Debian ship come out with no text on the screen before the lock,
/// everything else kept in order, and a second run changes nothing.
final class QuietConsoleTests: XCTestCase {
  private let script = PackageRoot.url.appendingPathComponent("board/raspberrypi/quiet-console")

  /// Runs the script on a file holding `line`; returns its status, its one line of
  /// output and the file's content after it.
  private func quieten(_ line: String, options: [String] = []) throws -> (status: Int32, said: String, line: String) {
    let directory = try makeTemporaryDirectory(prefix: "quiet-console")
    let file = directory.appendingPathComponent("cmdline.txt")
    try Data(line.utf8).write(to: file)
    let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), [script.path] + options + [file.path])
    let after = try String(contentsOf: file, encoding: .utf8)
    return (result.status, (result.stdout + result.stderr).trimmingCharacters(in: .newlines), after)
  }

  func testRaspberryPiOSLineLosesTheScreenConsoleAndKeepsTheRest() throws {
    let piOS =
      "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles\n"
    let first = try quieten(piOS)
    XCTAssertEqual(first.status, 0, first.said)
    XCTAssertEqual(
      first.line,
      "console=serial0,115200 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles loglevel=3 vt.global_cursor_default=0 logo.nologo\n"
    )
    let second = try quieten(first.line)
    XCTAssertEqual(second.status, 0)
    XCTAssertEqual(second.line, first.line, "a second run must change nothing")
    XCTAssertTrue(second.said.hasSuffix("already keeps text off the screen"), second.said)
  }

  func testNoConsoleLeftSendsTheKernelToAnUnseenTerminal() throws {
    // Without any console= the kernel writes to the screen's VT: the case of a line
    // whose serial console --harden removed.
    let result = try quieten("console=tty1 root=/dev/mmcblk0p2 rootwait loglevel=7 loglevel=8\n")
    XCTAssertEqual(result.status, 0, result.said)
    XCTAssertEqual(
      result.line, "root=/dev/mmcblk0p2 rootwait loglevel=3 console=tty3 quiet vt.global_cursor_default=0 logo.nologo\n")
  }

  func testEmulatedBoardLineKeepsItsSerialConsole() throws {
    let result = try quieten("console=ttyAMA0 root=/dev/vda rw panic=-1\n")
    XCTAssertEqual(result.line, "console=ttyAMA0 root=/dev/vda rw panic=-1 quiet loglevel=3 vt.global_cursor_default=0 logo.nologo\n")
    XCTAssertTrue(result.said.contains("now keeps text off the screen"), result.said)
  }

  func testWithPlymouthItsGraphicalSplashIsAskedFor() throws {
    // Debian's line with plymouth installed but no splash: plymouth would show the boot
    // messages as text, and on the serial console's account its text mode too.
    let first = try quieten("console=ttyAMA0 root=/dev/vda rw\n", options: ["--plymouth"])
    XCTAssertEqual(first.status, 0, first.said)
    XCTAssertEqual(
      first.line,
      "console=ttyAMA0 root=/dev/vda rw quiet loglevel=3 vt.global_cursor_default=0 logo.nologo splash plymouth.ignore-serial-consoles\n")
    let second = try quieten(first.line, options: ["--plymouth"])
    XCTAssertEqual(second.line, first.line, "a second run must change nothing")
    // Raspberry Pi OS's desktop line has both already: nothing added twice.
    let piOS = try quieten("console=tty1 root=PARTUUID=4e639091-02 rootwait quiet splash plymouth.ignore-serial-consoles\n", options: ["--plymouth"])
    XCTAssertEqual(
      piOS.line,
      "root=PARTUUID=4e639091-02 rootwait quiet splash plymouth.ignore-serial-consoles console=tty3 loglevel=3 vt.global_cursor_default=0 logo.nologo\n")
  }

  func testTwoLinesAreRefusedUntouched() throws {
    let twoLines = "root=/dev/vda\nquiet\n"
    let result = try quieten(twoLines)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.line, twoLines)
    XCTAssertTrue(result.said.contains("more than one line") && result.said.contains("join them"), result.said)
    XCTAssertFalse(result.said.contains("\n"), "one line: \(result.said)")
  }

  func testMissingFileSaysWhatToGive() throws {
    let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), [script.path, "/nonexistent/cmdline.txt"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderr,
      "quiet-console: /nonexistent/cmdline.txt does not exist (give the kernel command line's file, such as /boot/firmware/cmdline.txt)\n"
    )
  }
}
