import CommandTestSupport
import Foundation
import XCTest

/// `session-lock`, `replay`, `inject` and `mqtt` are programs of their own beside
/// `patternlock`, which it runs from its own directory: the lock links no Wayland, MQTT,
/// TLS, YAML or PNG library, the reporter none of the display's, input's or TPM's, no
/// program links tpm2-tss (opened at the first TPM call, it brings libcrypto), and
/// whoever starts `patternlock` cannot slip in a program of theirs.
final class CompanionProgramTests: XCTestCase {
  func testSessionLockIsRunByItsOwnProgram() throws {
    let result = try PatternlockBinary.run(
      ["session-lock"], environment: ["WAYLAND_DISPLAY": "no-such-display", "XDG_RUNTIME_DIR": try makeTemporaryDirectory().path])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(
      result.stderr.hasPrefix("patternlock: session-lock: cannot connect to the Wayland display no-such-display"), result.stderr)
  }

  func testOptionsReachTheCompanionProgram() throws {
    let result = try PatternlockBinary.run(["mqtt", "--no-such-option"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(result.stderr, "patternlock: mqtt: unknown option '--no-such-option' (try 'patternlock --help')\n")
  }

  /// `replay` and `inject` share one program, told which command it runs.
  func testReplayAndInjectRunTheRecordingProgramWithTheirName() throws {
    let replay = try PatternlockBinary.run(["replay", Captures.path("l-shape-1236")])
    XCTAssertEqual(replay.status, 0, replay.stderr)
    XCTAssertEqual(replay.stdout, try String(contentsOfFile: Captures.path("l-shape-1236", ".expected.jsonl"), encoding: .utf8))
    let inject = try PatternlockBinary.run(["inject"])
    XCTAssertEqual(inject.status, 2)
    XCTAssertTrue(inject.stderr.hasPrefix("patternlock: inject: no recording file given"), inject.stderr)
    let recording = try PatternlockBinary.url().deletingLastPathComponent().appendingPathComponent("patternlock-recording")
    let alone = try ChildProcess.run(recording, ["layout"])
    XCTAssertEqual(alone.status, 2)
    XCTAssertEqual(alone.stderr, "patternlock: patternlock-recording runs replay or inject, as its first argument (try 'patternlock replay --help')\n")
  }

  func testAMissingCompanionIsOneLineNamingWhereItWasLookedFor() throws {
    let alone = try makeTemporaryDirectory()
    let copy = alone.appendingPathComponent("patternlock")
    try FileManager.default.copyItem(at: try PatternlockBinary.url(), to: copy)
    for (command, program) in [
      ("session-lock", "patternlock-session-lock"), ("mqtt", "patternlock-mqtt"), ("replay", "patternlock-recording"),
      ("inject", "patternlock-recording"),
    ] {
      let result = try ChildProcess.run(copy, [command])
      XCTAssertEqual(result.status, 1, command)
      XCTAssertEqual(
        result.stderr,
        "patternlock: cannot run \(alone.path)/\(program): No such file or directory (it is installed beside patternlock: reinstall the package, or build it with 'swift build')\n")
    }
  }

  /// A link to `patternlock` in a directory of the caller's, beside a program of the
  /// caller's named like the companion: the kernel's path of the running program is
  /// followed, not the link's directory, so the caller's program never runs.
  func testTheCompanionIsFoundBesideTheRealProgramNotTheCallersLink() throws {
    let callers = try makeTemporaryDirectory()
    let marker = callers.appendingPathComponent("ran")
    let impostor = callers.appendingPathComponent("patternlock-mqtt")
    try "#!/bin/sh\ntouch \(marker.path)\n".write(to: impostor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: impostor.path)
    let link = callers.appendingPathComponent("patternlock")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try PatternlockBinary.url())
    let result = try ChildProcess.run(link, ["mqtt", "--no-such-option"])
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the caller's patternlock-mqtt ran")
  }

  /// What each program's ELF asks the dynamic loader for.
  func testEachProgramLinksOnlyWhatItUses() throws {
    let directory = try PatternlockBinary.url().deletingLastPathComponent()
    let lock = try neededLibraries(directory.appendingPathComponent("patternlock"))
    let sessionLock = try neededLibraries(directory.appendingPathComponent("patternlock-session-lock"))
    let reporter = try neededLibraries(directory.appendingPathComponent("patternlock-mqtt"))
    let recording = try neededLibraries(directory.appendingPathComponent("patternlock-recording"))
    XCTAssertTrue(recording.contains { $0.hasPrefix("libyaml") } && recording.contains { $0.hasPrefix("libpng") }, "\(recording)")
    XCTAssertTrue(lock.contains { $0.hasPrefix("libdrm.") }, "\(lock)")
    XCTAssertTrue(sessionLock.contains { $0.hasPrefix("libwayland-client.") }, "\(sessionLock)")
    XCTAssertTrue(reporter.contains { $0.hasPrefix("libmosquitto.") }, "\(reporter)")
    for name in ["libmosquitto.", "libssl.", "libcrypto.", "libwayland-client.", "libxkbcommon.", "libyaml", "libpng"] {
      XCTAssertFalse(lock.contains { $0.hasPrefix(name) }, "patternlock links \(name)")
    }
    for name in ["libmosquitto.", "libssl.", "libcrypto."] {
      XCTAssertFalse(sessionLock.contains { $0.hasPrefix(name) }, "patternlock-session-lock links \(name)")
    }
    for name in ["libdrm.", "libinput.", "libudev.", "libtss2-", "libsodium.", "libwayland-client."] {
      XCTAssertFalse(reporter.contains { $0.hasPrefix(name) }, "patternlock-mqtt links \(name)")
    }
    for (program, needed) in [
      ("patternlock", lock), ("patternlock-session-lock", sessionLock), ("patternlock-recording", recording),
      ("patternlock-mqtt", reporter),
    ] {
      for name in ["libtss2-", "libcrypto."] {
        XCTAssertFalse(needed.contains { $0.hasPrefix(name) }, "\(program) links \(name) (tpm2-tss is opened when first used)")
      }
    }
  }

  private func neededLibraries(_ program: URL) throws -> [String] {
    let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", program.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    return result.stdout.split(separator: "\n").compactMap { line in
      guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
      return String(line[line.index(after: open)..<close])
    }
  }
}
