import CommandTestSupport
import Foundation
import XCTest

/// `patternlock disk` on a real LUKS2 volume (a file, made with cryptsetup) and a real
/// software TPM 2.0 (swtpm, one per test), through the real systemd-cryptenroll: the
/// pattern becomes a TPM2 slot's PIN, never a passphrase, and only with a keyboard's
/// way in kept.
final class DiskCommandTests: XCTestCase {
  var sandbox: URL!
  var root: ConfigRoot!
  var tpm: SoftwareTPM!
  var volume: String { sandbox.appendingPathComponent("volume.img").path }
  let recovery = "a recovery passphrase"

  override func setUpWithError() throws {
    for tool in ["/usr/bin/systemd-cryptenroll", "/usr/sbin/cryptsetup"] where !FileManager.default.isExecutableFile(atPath: tool) {
      throw XCTSkip("\(tool) is not installed (scripts/install-deps installs systemd and cryptsetup-bin)")
    }
    guard SoftwareTPM.isInstalled else { throw XCTSkip("swtpm is not installed (scripts/install-deps installs it)") }
    guard getuid() == 0 else { throw XCTSkip("disk changes key slots: root only") }
    sandbox = try makeTemporaryDirectory(prefix: "disk-tests", permissions: 0o755)
    tpm = try SoftwareTPM(in: sandbox.appendingPathComponent("tpm"))
    root = try ConfigRoot()
    _ = try root.write("etc/patternlock.conf", "[vault]\ntpm-tcti = \(tpm.tcti)\n")
    // A small LUKS2 volume with one passphrase slot, cheap to open (PBKDF2, few rounds).
    FileManager.default.createFile(atPath: volume, contents: Data(count: 32 << 20))
    let format = try cryptsetup(["luksFormat", "--type", "luks2", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000", "-q", volume, "-"], input: recovery)
    XCTAssertEqual(format.status, 0, format.stderr)
  }

  override func tearDown() {
    tpm?.stop()
    root?.remove()
    if let sandbox { try? FileManager.default.removeItem(at: sandbox) }
  }

  func disk(_ arguments: [String], stdin: String = "") throws -> CommandResult {
    try PatternlockBinary.run(["disk"] + arguments, stdin: stdin, environment: ["PATTERNLOCK_CONFIG_ROOT": root.path])
  }

  func cryptsetup(_ arguments: [String], input: String) throws -> CommandResult {
    try ChildProcess.run(URL(fileURLWithPath: "/usr/sbin/cryptsetup"), arguments, stdin: input)
  }

  /// Whether `secret` opens the volume as a passphrase.
  func opens(asPassphrase secret: String) throws -> Bool {
    try cryptsetup(["open", "--test-passphrase", "--key-file", "-", volume], input: secret).status == 0
  }

  /// The TPM's dictionary-attack state, as `tpm2_getcap properties-variable` reads it.
  func tpmStateFromTheTools() throws -> String {
    let getcap = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/tpm2_getcap"), ["-T", tpm.tcti, "properties-variable"])
    func value(_ name: String) -> Int {
      let line = getcap.stdout.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
      return Int(line.split(separator: "x").last ?? "", radix: 16) ?? -1
    }
    let failures = value("TPM2_PT_LOCKOUT_COUNTER"), maximum = value("TPM2_PT_MAX_AUTH_FAIL")
    return "{\"failures\":\(failures),\"max_failures\":\(maximum),\"tries_left\":\(maximum - failures),"
      + "\"failure_forgotten_after_s\":\(value("TPM2_PT_LOCKOUT_INTERVAL")),\"lockout_recovery_s\":\(value("TPM2_PT_LOCKOUT_RECOVERY")),\"locked_out\":false}"
  }

  func testEnrolTheStatusSaysSoAndThePatternIsNoPassphrase() throws {
    let tpmState = try tpmStateFromTheTools()
    XCTAssertTrue(tpmState.hasPrefix("{\"failures\":0,\"max_failures\":"), tpmState)
    XCTAssertEqual(
      try disk(["status", volume]).stdout,
      "{\"device\":\"\(volume)\",\"slots\":[{\"slot\":0,\"type\":\"password\"}],\"pattern\":false,\"keyboard\":true,\"tpm\":\(tpmState)}\n")
    let enrolled = try disk(["enroll", volume], stdin: "2-5-9-4-3\n\(recovery)\n")
    XCTAssertEqual(enrolled.status, 0, enrolled.stderr)
    XCTAssertEqual(
      enrolled.stdout,
      "disk \(volume): the pattern (3x3 grid) is the TPM PIN of its new key slot; its passphrase or recovery key stays the keyboard's way in\n")
    XCTAssertEqual(
      try disk(["status", volume]).stdout,
      "{\"device\":\"\(volume)\",\"slots\":[{\"slot\":0,\"type\":\"password\"},{\"slot\":1,\"type\":\"tpm2\"}],\"pattern\":true,\"keyboard\":true,\"tpm\":\(try tpmStateFromTheTools())}\n")
    let dump = try cryptsetup(["luksDump", volume], input: "").stdout
    XCTAssertTrue(dump.contains("systemd-tpm2"), dump)
    XCTAssertTrue(dump.contains("tpm2-pin:         true"), "sealed with a PIN: \(dump)")
    for text in ["3x3:2-5-9-4-3", "2-5-9-4-3", "25943"] {
      XCTAssertFalse(try opens(asPassphrase: text), "the pattern \(text) must never open the volume as a passphrase")
    }
    XCTAssertTrue(try opens(asPassphrase: recovery), "the keyboard's way in stays")
  }

  func testACommonPatternIsRefusedAndNothingChanges() throws {
    let refused = try disk(["enroll", volume], stdin: "1-2-3-6\n\(recovery)\n")
    XCTAssertEqual(refused.status, 2)
    XCTAssertTrue(refused.stderr.hasPrefix("patternlock: disk enroll: this pattern is among the"), refused.stderr)
    XCTAssertTrue(try disk(["status", volume]).stdout.contains("\"pattern\":false"))
  }

  func testAWrongPassphraseOrNoneChangesNothing() throws {
    let wrong = try disk(["enroll", volume], stdin: "2-5-9-4-3\nnot the passphrase\n")
    XCTAssertEqual(wrong.status, 1)
    XCTAssertTrue(wrong.stderr.hasSuffix("patternlock: disk: systemd-cryptenroll could not bind \(volume) to the TPM (exit status 1); its own message is above\n"), wrong.stderr)
    let none = try disk(["enroll", volume], stdin: "2-5-9-4-3\n")
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.hasPrefix("patternlock: disk enroll: give the pattern on standard input's first line"), none.stderr)
    XCTAssertTrue(try disk(["status", volume]).stdout.contains("\"pattern\":false"))
  }

  func testRemoveTakesTheTPMSlotAndKeepsTheKeyboards() throws {
    XCTAssertEqual(try disk(["remove", volume]).stderr, "patternlock: disk remove: \(volume) has no TPM slot to remove\n")
    XCTAssertEqual(try disk(["enroll", volume], stdin: "2-5-9-4-3\n\(recovery)\n").status, 0)
    let removed = try disk(["remove", volume])
    XCTAssertEqual(removed.status, 0, removed.stderr)
    XCTAssertEqual(removed.stdout, "disk \(volume): the TPM slot is removed; the pattern no longer opens it\n")
    XCTAssertTrue(try disk(["status", volume]).stdout.contains("\"slots\":[{\"slot\":0,\"type\":\"password\"}],\"pattern\":false"))
    XCTAssertTrue(try opens(asPassphrase: recovery))
  }

  /// With the passphrase slot gone, the TPM slot is the only way in: it is not removed,
  /// and the pattern is not bound again until a keyboard's way in exists.
  func testTheOnlyWayInIsNeverTakenAndNeverEnrolledWithout() throws {
    XCTAssertEqual(try disk(["enroll", volume], stdin: "2-5-9-4-3\n\(recovery)\n").status, 0)
    XCTAssertEqual(try cryptsetup(["luksKillSlot", "-q", volume, "0"], input: "").status, 0)
    let remove = try disk(["remove", volume])
    XCTAssertEqual(remove.status, 2)
    XCTAssertEqual(
      remove.stderr,
      "patternlock: disk remove: the TPM slot is \(volume)'s only way in; add a passphrase or recovery key first (systemd-cryptenroll --recovery-key \(volume))\n")
    let enroll = try disk(["enroll", volume], stdin: "2-5-9-4-3\n\(recovery)\n")
    XCTAssertEqual(enroll.status, 2)
    XCTAssertTrue(enroll.stderr.hasPrefix("patternlock: disk: \(volume) has no passphrase or recovery key slot; add one first"), enroll.stderr)
    XCTAssertTrue(try disk(["status", volume]).stdout.contains("[{\"slot\":1,\"type\":\"tpm2\"}],\"pattern\":true,\"keyboard\":false"))
  }

  /// Without a TPM to ask, status still lists the slots, and says why the count is missing.
  func testStatusWithoutATPMSaysSo() throws {
    tpm.stop()
    let status = try disk(["status", volume])
    XCTAssertEqual(status.status, 0)
    XCTAssertTrue(status.stdout.hasSuffix(",\"pattern\":false,\"keyboard\":true,\"tpm\":null}\n"), status.stdout)
    XCTAssertTrue(status.stderr.hasPrefix("patternlock: disk status: the TPM's count of wrong PINs cannot be read: "), status.stderr)
  }

  func testWhatIsNoVolumeOrNoActionIsSaidInOneLine() throws {
    let notLUKS = sandbox.appendingPathComponent("plain.img").path
    FileManager.default.createFile(atPath: notLUKS, contents: Data(count: 1 << 20))
    let status = try disk(["status", notLUKS])
    XCTAssertEqual(status.status, 2)
    XCTAssertTrue(status.stderr.hasSuffix("patternlock: disk: \(notLUKS) is not a LUKS2 volume systemd-cryptenroll can list; give the encrypted partition, such as /dev/mmcblk0p2\n"), status.stderr)
    let usage = try disk(["format", volume])
    XCTAssertEqual(usage.status, 2)
    XCTAssertEqual(
      usage.stderr,
      "patternlock: disk: say enroll DEVICE, status DEVICE or remove DEVICE (enroll reads the pattern and the volume's passphrase or recovery key from standard input, one a line)\n")
  }
}
