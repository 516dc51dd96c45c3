import CommandTestSupport
import Configuration
import Foundation
import PatternCore
import TPM
@testable import Vault
import XCTest

/// A pattern bound to a real software TPM 2.0 (swtpm, one fresh TPM per test), judged
/// through the built binary: what a copy of the state directory, root, a crash, a
/// missing, foreign or cleared TPM and the recovery key can and cannot do.
final class TPMCommandTests: XCTestCase {
  var sandbox: URL!
  var root: ConfigRoot!
  var tpm: SoftwareTPM!
  var statePath: String { sandbox.appendingPathComponent("state").path }
  let cheap = ["--argon-passes", "1", "--argon-memory-mib", "1"]
  let right = "6-3-8-1"
  /// The TPM's limit, which is also the table's permanent lockout.
  var limit = 3

  override func setUpWithError() throws {
    guard SoftwareTPM.isInstalled else { throw XCTSkip("swtpm is not installed (scripts/install-deps installs it)") }
    sandbox = try makeTemporaryDirectory(prefix: "tpm-tests", permissions: 0o755)
    tpm = try SoftwareTPM(in: sandbox.appendingPathComponent("tpm-a"))
    root = try ConfigRoot()
    try configure(tcti: tpm.tcti)
  }

  override func tearDown() {
    tpm?.stop()
    root?.remove()
  }

  func configure(tcti: String, use: String = "required") throws {
    try root.write(
      "etc/patternlock.conf",
      "[vault]\ntpm = \(use)\ntpm-tcti = \(tcti)\npermanent-after = \(limit)\nthrottle = 0\n")
  }

  var environment: [String: String] { [ConfigurationFiles.rootVariable: root.path] }

  func run(_ arguments: [String], stdin: String = "", extra: [String: String] = [:]) throws -> CommandResult {
    try PatternlockBinary.run(arguments, stdin: stdin, environment: environment.merging(extra) { $1 })
  }

  /// Enrols `right` and returns the recovery key set-pattern printed.
  @discardableResult
  func enrol(in path: String? = nil) throws -> String {
    let set = try run(["set-pattern", "--state-dir", path ?? statePath] + cheap, stdin: right)
    XCTAssertEqual(set.status, 0, set.stderr)
    let lines = set.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 3, set.stdout)
    XCTAssertTrue(lines[0].hasSuffix("bound to the TPM)"), set.stdout)
    XCTAssertTrue(lines[1].hasPrefix("strength: "), set.stdout)
    XCTAssertTrue(lines[2].hasPrefix("recovery key: "), set.stdout)
    return String(lines[2].dropFirst("recovery key: ".count))
  }

  func check(_ pattern: String, in path: String? = nil, extra: [String: String] = [:]) throws -> CommandResult {
    try run(["check", "--state-dir", path ?? statePath], stdin: pattern, extra: extra)
  }

  func status() throws -> [String: Any] {
    let run = try self.run(["status", "--state-dir", statePath])
    XCTAssertEqual(run.status, 0, run.stderr)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
  }

  func softwareFailures() -> Int {
    guard let directory = try? StateDirectory(opening: statePath, creating: false),
      case .intact(let record) = AttemptsFile.load(from: directory)
    else { return -1 }
    return record.failures
  }

  func testSeveralCredentialsAreRefusedForATPMBoundOwner() throws {
    try enrol()
    let add = try run(["credential", "add", "alice", "--state-dir", statePath], stdin: "8-4-2-9")
    XCTAssertEqual(add.status, 2, add.stderr)
    XCTAssertTrue(add.stderr.contains("several credentials are not yet TPM-bound"), add.stderr)
    XCTAssertEqual(add.stderr.filter { $0 == "\n" }.count, 1, add.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/" + CredentialFile.name), "nothing was stored")
  }

  /// TPM-bound enrolment meets the enrolment guard before the TPM: a commonly chosen
  /// pattern is refused with the one-line advice, nothing is stored and no index is
  /// defined in the TPM; a strong one is then bound as usual.
  func testATPMBoundEnrolmentRefusesACommonPatternBeforeTheTPMIsUsed() throws {
    for common in ["1-4-7-8-9", "3-2-1-4-7-8-9", "9-8-7-4"] {
      let refused = try run(["set-pattern", "--state-dir", statePath] + cheap, stdin: common)
      XCTAssertEqual(refused.status, 2, common)
      XCTAssertEqual(refused.stdout, "", common)
      XCTAssertEqual(refused.stderr, PatternGuardCommandTests.refusal("set-pattern"), common)
      XCTAssertFalse(refused.stderr.contains(common))
      XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/pattern"), common)
    }
    let indexes = try Self.definedIndexes(tcti: tpm.tcti)
    XCTAssertEqual(indexes, [], "the refusal came before any index was defined")
    try enrol()
    XCTAssertEqual(try Self.definedIndexes(tcti: tpm.tcti).count, 1, "the strong pattern is bound")
  }

  /// The NV indexes the TPM holds, from tpm2-tools' getcap (one "0x..." line each).
  static func definedIndexes(tcti: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/tpm2_getcap")
    process.arguments = ["-T", tcti, "handles-nv-index"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "tpm2_getcap")
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map { String($0) }.filter { $0.contains("0x") }
  }

  func testRightUnlocksWrongIsCountedByTheTPMAndStatusSaysSo() throws {
    let key = try enrol()
    XCTAssertEqual(key.count, 29, "24 base32 characters in six groups: \(key)")
    XCTAssertEqual(try status()["tpm"] as? String, "yes")
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, limit)
    let wrong = try check("1-2-3-6")
    XCTAssertEqual(wrong.status, 3, wrong.stderr)
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, limit - 1)
    let ok = try check(right)
    XCTAssertEqual(ok.status, 0, ok.stderr)
    XCTAssertEqual(ok.stdout, "{\"result\":\"unlocked\",\"credential\":\"owner\"}\n")
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, limit, "a right pattern resets the TPM's count")
    // The TPM's verdicts are logged as the hash's are.
    let log = try PatternlockBinary.run(["log", "--state-dir", statePath])
    XCTAssertEqual(log.status, 0, log.stderr)
    let events = log.stdout.split(separator: "\n").map { $0.split(separator: " ")[1] }
    XCTAssertEqual(events, ["pattern-set", "attempt", "wrong", "attempt", "unlocked"], log.stdout)
  }

  func testStatusSaysTheTPMIsASoftwareOneWhoseStateIsAFile() throws {
    try enrol()
    let status = try status()
    XCTAssertEqual(status["tpm"] as? String, "yes")
    XCTAssertEqual(status["tpm_manufacturer"] as? String, "IBM")
    XCTAssertEqual(status["tpm_kind"] as? String, "software")
    XCTAssertEqual(
      status["tpm_warning"] as? String, "software TPM (swtpm): its state is a file; copied with the disk it bounds nothing")
  }

  func testTheSoftwareTPMIsKnownByWhatItSaysOfItselfNotOnlyByItsTCTI() throws {
    // What swtpm reports, read from the running one: the rule must hold for it even when
    // it is reached as a device (a virtual machine's TPM backed by swtpm).
    let vendor = try TrustedPlatformModule(tcti: tpm.tcti).vendor()
    XCTAssertEqual(vendor, TPMVendor(manufacturer: "IBM", vendorString: "SW   TPM"))
    XCTAssertEqual(vendor.softwareKind(tcti: "device:/dev/tpmrm0"), "swtpm")
    XCTAssertEqual(vendor.softwareKind(tcti: tpm.tcti), "swtpm")
    let chip = TPMVendor(manufacturer: "IFX", vendorString: "SLB9670")
    XCTAssertNil(chip.softwareKind(tcti: "device:/dev/tpmrm0"), "a chip is not software")
    XCTAssertEqual(chip.softwareKind(tcti: "mssim:host=localhost"), "simulator", "only a simulator is reached by mssim")
  }

  func testNothingInTheStateDirectoryTestsTheRightPatternOffline() throws {
    try enrol()
    XCTAssertEqual(try check("1-2-3-6").status, 3)
    let directory = try StateDirectory(opening: statePath, creating: false)
    let enrolled = try EnrolledPattern.load(from: directory)
    let enrolment = try XCTUnwrap(enrolled.tpmEnrolment)
    // Argon2id over the right pattern, as the lock derives it: the TPM's authValue.
    let derivation = enrolled.derive(DotSequence([1, 2, 3, 6, 9]))
    let output = try XCTUnwrap(derivation.withOutput { Array($0) })
    var candidates: [[UInt8]] = [output]
    for length in [16, 32, 64] { candidates.append(output.withUnsafeBytes { Sodium.digest($0, length: length) }) }
    for name in try FileManager.default.contentsOfDirectory(atPath: statePath) {
      let text = try String(contentsOfFile: statePath + "/" + name, encoding: .utf8)
      XCTAssertFalse(text.contains("$argon2id$"), "\(name) holds an Argon2id hash")
      // Every run of hex digits, whole and at every 16- and 32-byte window.
      for field in text.split(whereSeparator: { !$0.isHexDigit }) where field.count >= 32 {
        guard let bytes = HexText.decodeBytes(String(field)) else { continue }
        for candidate in candidates {
          XCTAssertFalse(Self.contains(bytes, candidate), "\(name) holds the right pattern's Argon2id output or a hash of it")
        }
        for width in [16, 32] where bytes.count >= width {
          for start in 0...(bytes.count - width) {
            let window = Array(bytes[start..<(start + width)])
            // A MAC of the output under a key kept beside it would be the same leak.
            let keyed = output.withUnsafeBytes { Sodium.digest($0, length: width, key: window.count == 32 ? window : []) }
            XCTAssertFalse(Self.contains(bytes, keyed), "\(name) holds a keyed hash of the right pattern's output")
          }
        }
      }
    }
    XCTAssertNil(enrolled.fingerprint(of: DotSequence([1, 2, 3, 6])), "no fingerprints for a TPM-bound pattern")
    XCTAssertEqual(enrolment.binding.index & 0xFFFF_FFF0, 0x013F_5040)
  }

  func testTheStateDirectoryCopiedToAnotherTPMNeverUnlocks() throws {
    try enrol()
    let other = try SoftwareTPM(in: sandbox.appendingPathComponent("tpm-b"))
    defer { other.stop() }
    try configure(tcti: other.tcti)
    for pattern in [right, "1-2-3-6"] {
      let run = try check(pattern)
      XCTAssertEqual(run.status, 8, run.stderr)
      XCTAssertTrue(run.stderr.contains("not the TPM the pattern was enrolled with"), run.stderr)
      XCTAssertEqual(run.stdout, "")
    }
    XCTAssertEqual(try status()["tpm"] as? String, "not-enrolled-here")
  }

  func testAClearedTPMNeverUnlocks() throws {
    try enrol()
    let clear = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/tpm2_clear"), ["-T", tpm.tcti, "-c", "p"], stdin: "", environment: [:])
    XCTAssertEqual(clear.status, 0, clear.stderr)
    let run = try check(right)
    XCTAssertEqual(run.status, 8, run.stderr)
    XCTAssertTrue(run.stderr.contains("not the TPM the pattern was enrolled with"), run.stderr)
  }

  /// The saved public areas are written by patternlock's own wire-format code, not by
  /// libtss2-mu; tpm2-tools' parser (which is libtss2-mu's) must read them as the TPM
  /// made them, so enrolments from builds that used that library keep loading.
  func testTheSavedPublicAreasAreTheTPMsWireForm() throws {
    try enrol()
    let directory = try StateDirectory(opening: statePath, creating: false)
    let binding = try XCTUnwrap(EnrolledPattern.load(from: directory).tpmEnrolment).binding
    for (name, blob, scheme) in [("sealed", binding.sealedPublic, "null"), ("recovery", binding.recoveryPublic, "hmac")] {
      let file = sandbox.appendingPathComponent("\(name).pub")
      try Data(blob).write(to: file)
      let printed = try ChildProcess.run(
        URL(fileURLWithPath: "/usr/bin/tpm2_print"), ["-t", "TPM2B_PUBLIC", file.path], stdin: "", environment: [:])
      XCTAssertEqual(printed.status, 0, "\(name): \(printed.stderr)")
      let text = printed.stdout
      XCTAssertTrue(text.contains("type:\n  value: keyedhash\n"), "\(name): \(text)")
      XCTAssertTrue(text.contains("name-alg:\n  value: sha256\n"), "\(name): \(text)")
      XCTAssertTrue(text.contains("algorithm: \n  value: \(scheme)\n"), "\(name): \(text)")
      XCTAssertNotNil(text.range(of: "keyedhash: [0-9a-f]{64}\n", options: .regularExpression), "\(name): \(text)")
      if name == "sealed" {
        XCTAssertNotNil(
          text.range(of: "authorization policy: [0-9a-f]{64}\n", options: .regularExpression), "policy: \(text)")
      }
    }
  }

  /// Root restores a pristine copy of the state directory after every wrong try: the
  /// software counter starts from zero each time, the TPM's does not.
  func testRestoringAPristineStateAfterEveryWrongTryStillHitsTheTPMsLimit() throws {
    try enrol()
    let pristine = sandbox.appendingPathComponent("pristine").path
    try FileManager.default.copyItem(atPath: statePath, toPath: pristine)
    let wrongs = ["1-2-3-6", "1-2-3-5", "7-8-9-6", "4-5-6-3"]
    for (n, wrong) in wrongs.enumerated() {
      try FileManager.default.removeItem(atPath: statePath)
      try FileManager.default.copyItem(atPath: pristine, toPath: statePath)
      let run = try check(wrong)
      if n < limit {
        XCTAssertEqual(run.status, 3, "try \(n + 1): \(run.stderr)")
      } else {
        XCTAssertEqual(run.status, 8, "past the TPM's limit nothing is judged: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("recovery key"), run.stderr)
      }
    }
    try FileManager.default.removeItem(atPath: statePath)
    try FileManager.default.copyItem(atPath: pristine, toPath: statePath)
    let refused = try check(right)
    XCTAssertEqual(refused.status, 8, "the right pattern is refused once the TPM is in lockout: \(refused.stderr)")
    XCTAssertEqual(refused.stdout, "")
  }

  func testTheRecoveryKeyIsRequiredAndOnlyTheRightOneLiftsTheTPMsCount() throws {
    let key = try enrol()
    for wrong in ["1-2-3-6", "1-2-3-5", "7-8-9-6"] { XCTAssertEqual(try check(wrong).status, 3) }
    XCTAssertEqual(try check(right).status, 5, "locked until reset in software, and in the TPM")
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, 0)

    let none = try run(["reset-attempts", "--state-dir", statePath])
    XCTAssertEqual(none.status, 2, none.stderr)
    XCTAssertTrue(none.stderr.contains("write the recovery key"), none.stderr)
    let malformed = try run(["reset-attempts", "--state-dir", statePath], stdin: "not a key\n")
    XCTAssertEqual(malformed.status, 2, malformed.stderr)
    var other = Array(key)
    other[0] = other[0] == "A" ? "B" : "A"
    let wrongKey = try run(["reset-attempts", "--state-dir", statePath], stdin: String(other) + "\n")
    XCTAssertEqual(wrongKey.status, 3, wrongKey.stderr)
    XCTAssertTrue(wrongKey.stderr.contains("refused the recovery key"), wrongKey.stderr)
    XCTAssertEqual(try check(right).status, 5, "neither refusal lifted anything")
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, 0)

    let reset = try run(["reset-attempts", "--state-dir", statePath], stdin: key.lowercased() + "\n")
    XCTAssertEqual(reset.status, 0, reset.stderr)
    XCTAssertTrue(reset.stdout.contains("the TPM's count of wrong patterns is reset"), reset.stdout)
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, limit)
    XCTAssertEqual(try check(right).status, 0)
  }

  /// A crash after the software count (20) leaves the TPM unasked; one after the TPM's
  /// verdict (21) leaves the TPM's count as the TPM made it. Neither unlocks, and the
  /// right pattern still works afterwards.
  func testAKillAtEveryStepNeverUnlocksAndLeavesBothCountsConsistent() throws {
    limit = 6
    try configure(tcti: tpm.tcti)
    try enrol()
    let cases: [(step: String, pattern: String, tpmFailures: Int)] = [
      ("20", "1-2-3-6", 0), ("21", "1-2-3-6", 1), ("20", right, 1), ("21", right, 0),
    ]
    for (n, item) in cases.enumerated() {
      let before = softwareFailures()
      let run = try check(item.pattern, extra: ["PATTERNLOCK_TEST_CRASH_AFTER_WRITE_STEP": item.step])
      XCTAssertEqual(run.status, 86, "case \(n): \(run.stderr)")
      XCTAssertEqual(run.stdout, "", "case \(n): no result before it is written")
      XCTAssertEqual(softwareFailures(), before + 1, "case \(n): counted before the TPM was asked")
      XCTAssertEqual(try status()["tpm_failures"] as? Int, item.tpmFailures, "case \(n)")
    }
    XCTAssertEqual(try check(right).status, 0)
  }

  func testAnAbsentTPMMeansNotJudgedAndCountsNothing() throws {
    try enrol()
    XCTAssertEqual(try check("1-2-3-6").status, 3)
    let counted = softwareFailures()
    tpm.stop()
    for pattern in [right, "1-2-3-5"] {
      let run = try check(pattern)
      XCTAssertEqual(run.status, 8, run.stderr)
      XCTAssertTrue(run.stderr.contains("did not answer"), run.stderr)
      XCTAssertEqual(run.stdout, "")
    }
    XCTAssertEqual(softwareFailures(), counted, "the TPM is checked before anything is counted")
    XCTAssertEqual(try status()["tpm"] as? String, "unreachable")
  }

  /// tpm2-tss is opened at the first TPM call; without it (debug builds open
  /// PATTERNLOCK_TEST_TSS2_ESYS in ESAPI's place) a TPM-bound pattern is never judged, and
  /// the message says which library is missing and what to install.
  func testAMissingTPMLibraryMeansNotJudgedAndSaysWhatToInstall() throws {
    try enrol()
    let counted = softwareFailures()
    let missing = ["PATTERNLOCK_TEST_TSS2_ESYS": "libtss2-esys.so.absent"]
    for pattern in [right, "1-2-3-5"] {
      let run = try check(pattern, extra: missing)
      XCTAssertEqual(run.status, 8, run.stderr)
      XCTAssertEqual(run.stdout, "")
      XCTAssertTrue(run.stderr.contains("the TPM library libtss2-esys.so.absent cannot be loaded ("), run.stderr)
      XCTAssertTrue(run.stderr.contains("install the tpm2-tss runtime (Debian 12: libtss2-esys-3.0.2-0, libtss2-sys1,"), run.stderr)
      XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }
    XCTAssertEqual(softwareFailures(), counted, "nothing is counted without the TPM's verdict")
    let status = try run(["status", "--state-dir", statePath], extra: missing)
    XCTAssertEqual(status.status, 0, status.stderr)
    XCTAssertTrue(status.stdout.contains("libtss2-esys.so.absent cannot be loaded"), status.stdout)
    XCTAssertEqual(try check(right).status, 0, "with tpm2-tss there, the same state unlocks")
  }

  /// The TPM goes away after the software count and before its verdict: the attempt is
  /// counted and not judged, never an unlock, and the TPM's own count is untouched.
  func testATPMThatStopsMidJudgementMeansNotJudgedAndNeverUnlocks() throws {
    try enrol()
    let binary = try PatternlockBinary.url()
    for pattern in [right, "1-2-3-6"] {
      let before = softwareFailures()
      let process = Process()
      process.executableURL = binary
      process.arguments = ["check", "--state-dir", statePath]
      process.environment = ConfigRoot.isolatedEnvironment(environment)
        .merging(["PATTERNLOCK_TEST_STOP_AT_STEP": "20"]) { $1 }
      let input = Pipe(), output = Pipe(), errors = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      input.fileHandleForWriting.write(Data(pattern.utf8))
      try input.fileHandleForWriting.close()
      XCTAssertTrue(Self.waitUntilStopped(process.processIdentifier), "check stops after counting")
      tpm.stop()
      kill(process.processIdentifier, SIGCONT)
      process.waitUntilExit()
      let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertEqual(process.terminationStatus, 8, stderr)
      XCTAssertEqual(stdout, "", "no result, no unlock")
      XCTAssertTrue(stderr.contains("did not answer"), stderr)
      XCTAssertEqual(softwareFailures(), before + 1, "the failure counted before the TPM was asked stays counted")
      tpm = try SoftwareTPM(in: sandbox.appendingPathComponent("tpm-a"))
      try configure(tcti: tpm.tcti)
      XCTAssertEqual(try status()["tpm_failures"] as? Int, 0, "the TPM counted nothing it did not judge")
    }
    XCTAssertEqual(try check(right).status, 0, "the same TPM, back, judges the right pattern")
  }

  static func waitUntilStopped(_ pid: Int32) -> Bool {
    for _ in 0..<400 {
      if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "T"
      {
        return true
      }
      usleep(25_000)
    }
    return false
  }

  func testRequiredWithoutATPMRefusesToEnrolAndAutoWithoutTheDeviceHashes() throws {
    try configure(tcti: "swtpm:host=127.0.0.1,port=1")
    let refused = try run(["set-pattern", "--state-dir", statePath] + cheap, stdin: right)
    XCTAssertEqual(refused.status, 1, refused.stderr)
    XCTAssertTrue(refused.stderr.hasPrefix("patternlock: [vault] tpm = required, but the TPM at"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/pattern"))

    try configure(tcti: "device:" + sandbox.appendingPathComponent("no-tpmrm0").path, use: "auto")
    let hashed = try run(["set-pattern", "--state-dir", statePath] + cheap, stdin: right)
    XCTAssertEqual(hashed.status, 0, hashed.stderr)
    XCTAssertFalse(hashed.stdout.contains("recovery key"), hashed.stdout)
    XCTAssertEqual(try status()["tpm"] as? String, "no")
    XCTAssertEqual(try check(right).status, 0)
  }

  func testReplayOfATPMBoundCopyIsRefused() throws {
    try enrol()
    let capture = Captures.path("l-shape-1236")
    let replay = try run(["replay", "--state-dir", statePath, capture])
    XCTAssertEqual(replay.status, 2, replay.stderr)
    XCTAssertTrue(replay.stderr.contains("is bound to the TPM"), replay.stderr)
    XCTAssertEqual(try status()["tpm_tries_left"] as? Int, limit, "replay asked the TPM nothing")
  }

  func testTheTPMSettingsComeOnlyFromTheSystemConfiguration() throws {
    let file = sandbox.appendingPathComponent("mine.conf")
    try "[vault]\ntpm = off\n".write(to: file, atomically: true, encoding: .utf8)
    let run = try self.run(["set-pattern", "--state-dir", statePath, "--config", file.path] + cheap, stdin: right)
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("tpm"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + "/pattern"))
  }

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count, !needle.isEmpty else { return false }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
      return true
    }
    return false
  }
}
