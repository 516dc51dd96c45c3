import Foundation
import XCTest

/// The shipped captures in Tests/Captures and where the built binary is.
enum Captures {
  /// Tests/Captures, found from this file's path.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Captures")

  /// The capture names (without `.yaml`), sorted.
  static func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".yaml") }
      .map { String($0.dropLast(5)) }
      .sorted()
  }

  static func path(_ name: String, _ suffix: String = ".yaml") -> String {
    directory.appendingPathComponent(name + suffix).path
  }

  /// The replay options a capture was made for (`<name>.args`), or none.
  static func arguments(_ name: String) -> [String] {
    guard let text = try? String(contentsOfFile: path(name, ".args"), encoding: .utf8) else { return [] }
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
  }
}

extension XCTestCase {
  /// A fresh temporary directory, removed when the test ends.
  func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("recording-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }
}
