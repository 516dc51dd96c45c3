import CommandTestSupport
import Foundation
@testable import FuzzHarnesses
import Vault
import XCTest

/// Every input a fuzzer once crashed on, under `Fuzz/Regressions/<harness>/`, run again
/// through its harness: the test passes when the process survives them all (a
/// regression traps and ends the test run, naming the input in the log first).
final class FuzzRegressionTests: XCTestCase {
  func testRecordingRegressionInputsDoNotCrash() throws {
    try replay("recording", RecordingHarness.run)
  }

  func testConfigurationRegressionInputsDoNotCrash() throws {
    try replay("configuration", ConfigurationHarness.run)
  }

  func testStateFilesRegressionInputsDoNotCrash() throws {
    try replay("state-files", StateFilesHarness.run)
  }

  /// The state-files harness gets past the checksum: a pattern file without its
  /// checksum line, resealed, decodes.
  func testResealedPatternFileDecodes() throws {
    let body = """
      patternlock-pattern 1
      grid 3
      min-dots 4
      key \(String(repeating: "ab", count: 32))
      hash $argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g

      """
    let sealed = StateFilesHarness.resealed(Array(body.utf8))
    XCTAssertTrue(String(decoding: sealed, as: UTF8.self).hasPrefix(body))
    XCTAssertEqual(StateFilesHarness.resealed(sealed), sealed, "resealing a sealed file changes nothing")
    XCTAssertEqual(try EnrolledPattern.decode(sealed, path: "resealed").gridSize, 3)
  }

  private func replay(_ harness: String, _ run: ([UInt8]) -> Void) throws {
    let directory = PackageRoot.url("Fuzz/Regressions/\(harness)")
    // git keeps no empty directory: no directory is no regression input yet.
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { !$0.hasPrefix(".") && $0 != "README.md" }
      .sorted()
    for name in names {
      print("replaying Fuzz/Regressions/\(harness)/\(name)")
      run(try [UInt8](Data(contentsOf: directory.appendingPathComponent(name))))
    }
  }
}
