import CommandTestSupport
import CSodium
import Foundation
import PatternCore
@testable import Vault
import VaultTestSupport
import XCTest

/// The fingerprints of wrong patterns give nothing away to whoever copies the state
/// directory: no cheap hash of any encoding of any pattern matches them, and only
/// Argon2id with the pattern's own salt and cost makes them (the repeat rule's way).
final class FingerprintSecrecyTests: XCTestCase {
  typealias S = VaultTestSupport
  var sandbox: URL!
  var statePath: String { sandbox.appendingPathComponent("state").path }

  override func setUpWithError() throws { sandbox = try makeTemporaryDirectory(prefix: "fingerprint-tests", permissions: 0o755) }

  /// BLAKE2b-128 of `text`, keyed with `key` unless it is empty: Sodium.fingerprint's
  /// call, without its secret buffer (whose mlock would dominate three million tries).
  private func blake2b(_ text: String, key: [UInt8]) -> PatternFingerprint {
    var out = [UInt8](repeating: 0, count: 16)
    var input = Array(text.utf8)
    _ = key.withUnsafeBufferPointer { k in
      crypto_generichash(&out, 16, &input, UInt64(input.count), key.isEmpty ? nil : k.baseAddress, key.count)
    }
    return PatternFingerprint(bytes: out)!
  }

  func testOneArgon2idRunVerifiesExactlyAsLibsodiumsOwnVerifier() throws {
    let enrolled = try EnrolledPattern(dots: DotSequence([6, 3, 8, 1]), gridSize: 3, minimumDots: 4, cost: S.cheapCost)
    for dots in [[6, 3, 8, 1], [8, 4, 2, 9], [9, 6, 3, 2, 1], [1, 2, 3, 6, 9, 8], [5, 1, 9, 6]] {
      let text = "3x3:" + dots.map(String.init).joined(separator: "-")
      let libsodium = enrolled.hash.withCString { crypto_pwhash_str_verify($0, text, UInt64(text.utf8.count)) == 0 }
      XCTAssertEqual(enrolled.matches(DotSequence(dots)), libsodium, "\(dots)")
    }
    XCTAssertTrue(enrolled.matches(DotSequence([6, 3, 8, 1])))
  }

  func testOnlyStringsLibsodiumWritesAreParsed() throws {
    let good = try EnrolledPattern(dots: DotSequence([8, 4, 2, 9]), gridSize: 3, minimumDots: 4, cost: S.cheapCost).hash
    XCTAssertNotNil(Argon2idString(good))
    let parts = good.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
    let salt = parts[4], tag = parts[5]
    let bad = [
      "$argon2i$v=19$m=8,t=1,p=1$\(salt)$\(tag)", "$argon2id$v=16$m=8,t=1,p=1$\(salt)$\(tag)",
      "$argon2id$v=19$m=8,t=1,p=2$\(salt)$\(tag)", "$argon2id$v=19$m=08,t=1,p=1$\(salt)$\(tag)",
      "$argon2id$v=19$m=8,t=0,p=1$\(salt)$\(tag)", "$argon2id$v=19$m=8,t=1$\(salt)$\(tag)",
      "$argon2id$v=19$m=8,t=1,p=1$\(salt)==$\(tag)", "$argon2id$v=19$m=8,t=1,p=1$\(salt.dropLast(2))$\(tag)",
      "$argon2id$v=19$m=8,t=1,p=1$\(salt)$", "$argon2id$v=19$m=8,t=1,p=1$\(salt)$\(tag)$",
      "$argon2id$v=19$m=8,t=1,p=1$\(salt)$\(tag)!",
    ]
    for text in bad { XCTAssertNil(Argon2idString(text), text) }
  }

  /// Whoever copied the directory has the fingerprint key: every pattern on the 3x3
  /// grid (every sequence of 4 to 9 distinct dots, drawable or not), in every encoding
  /// the code uses or used, hashed with BLAKE2b keyed and unkeyed, matches no stored
  /// fingerprint. Before fingerprints came from Argon2id, this found both wrong
  /// patterns in seconds.
  func testNoCheapHashOfAnyPatternMatchesTheStoredFingerprints() throws {
    try S.enrol([6, 3, 8, 1], in: statePath)
    var session = try UnlockSession(
      store: DirectoryAttemptStore(StateDirectory(opening: statePath, creating: false)), table: .android,
      startingAt: S.instant(seconds: 0))
    let wrongs = [[7, 4, 1, 2], [3, 5, 7, 8, 9]]
    for (n, wrong) in wrongs.enumerated() {
      XCTAssertEqual(try session.attempt(DotSequence(wrong), at: S.instant(seconds: Int64(n))).result, .wrong)
    }
    let directory = try StateDirectory(opening: statePath, creating: false)
    guard case .intact(let record) = AttemptsFile.load(from: directory) else { return XCTFail("attempts file unreadable") }
    let stored = Set(record.recentWrong.map(\.fingerprint))
    XCTAssertEqual(stored.count, 2)
    let enrolled = try EnrolledPattern.load(from: directory)
    for wrong in wrongs {
      XCTAssertTrue(stored.contains(try XCTUnwrap(enrolled.fingerprint(of: DotSequence(wrong)))), "the repeat rule recognises \(wrong)")
    }

    var found: [String] = []
    var dots: [Int] = []
    var tried = 0
    var sequences = 0
    // Under the sanitizer every 16th sequence and the wrong ones stored (CommandTestSupport's
    // SanitizerRun); every sequence in the plain run.
    let every = SanitizerRun.sampling(everyNth: 16)
    func visit() {
      if dots.count >= 4 {
        sequences += 1
      }
      if dots.count >= 4 && (sequences % every == 0 || wrongs.contains(dots)) {
        let dashed = dots.map(String.init).joined(separator: "-")
        for text in ["3x3:" + dashed, dashed, dots.map(String.init).joined()] {
          tried += 1
          let keyed = blake2b(text, key: enrolled.fingerprintKey)
          let plain = blake2b(text, key: [])
          if stored.contains(keyed) || stored.contains(plain) { found.append(text) }
        }
      }
      guard dots.count < 9 else { return }
      for dot in 1...9 where !dots.contains(dot) {
        dots.append(dot)
        visit()
        dots.removeLast()
      }
    }
    visit()
    XCTAssertEqual(sequences, 985_824, "every sequence of 4 to 9 of the 9 dots")
    if every == 1 { XCTAssertEqual(tried, 985_824 * 3, "every sequence, three encodings each") }
    XCTAssertGreaterThanOrEqual(tried, 985_824 / every * 3)
    XCTAssertEqual(found, [], "a cheap hash gave a wrong pattern away")
  }
}
