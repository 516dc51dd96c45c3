import CommandTestSupport
import Foundation
import PatternChoice
import PatternCore
import XCTest

/// The model's figures and the data file that names their sources are the same, and the
/// arithmetic under them is right.
final class ParameterProvenanceTests: XCTestCase {
  /// docs/pattern-choice-model.tsv as name to value; each row must name a source.
  static func rows() throws -> [String: Int] {
    let url = PackageRoot.url.appendingPathComponent("docs/pattern-choice-model.tsv")
    let text = try String(contentsOf: url, encoding: .utf8)
    var rows: [String: Int] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("name\t") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 4, let value = Int(fields[1]), !fields[3].isEmpty else {
        throw NSError(domain: "pattern-choice-model.tsv", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad row: \(line)"])
      }
      rows[String(fields[0])] = value
    }
    return rows
  }

  func testEveryFigureIsInTheDataFileWithItsSource() throws {
    var rows = try ParameterProvenanceTests.rows()
    for (name, value) in ChoiceParameters.table {
      XCTAssertEqual(rows.removeValue(forKey: name), value, name)
    }
    XCTAssertEqual(Set(rows.keys), ["blocklist-standard-count"], "rows the model does not have")
    XCTAssertEqual(rows["blocklist-standard-count"].map { $0 > PatternBlocklist.standardSize }, true)
  }

  func testTheLengthSharesAddUpToTheWhole() {
    XCTAssertEqual(ChoiceParameters.lengthPerMille.reduce(0, +), 1000)
  }

  func testEstimatesFallInTheirBuckets() {
    XCTAssertEqual(GuessEstimate(guessNumber: 1), .within(20))
    XCTAssertEqual(GuessEstimate(guessNumber: 20), .within(20))
    XCTAssertEqual(GuessEstimate(guessNumber: 21), .within(100))
    XCTAssertEqual(GuessEstimate(guessNumber: 100_000), .within(100_000))
    XCTAssertEqual(GuessEstimate(guessNumber: 100_001), .beyond(100_000))
    XCTAssertEqual(GuessEstimate(guessNumber: nil).bucket, "100000+")
    XCTAssertEqual(GuessEstimate(DotSequence([1, 2, 3, 6]), model: EveryPattern.model), .within(20))
    XCTAssertEqual(
      GuessEstimate.within(1_000).sentence(allowedGuesses: 20),
      "found within about 1,000 guesses in an attacker's order; the lock allows 20")
    XCTAssertEqual(
      GuessEstimate.beyond(100_000).sentence(allowedGuesses: 20),
      "more than 100,000 guesses in an attacker's order; the lock allows 20")
  }
}
