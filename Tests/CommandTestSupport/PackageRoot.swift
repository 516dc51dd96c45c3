// CommandTestSupport: what the test targets share for running the built `patternlock`
// and for the files around it: the package's top directory, the shipped captures,
// private temporary directories and child processes with their output collected.
//
// Test-only: Foundation and XCTest are allowed here, no product target depends on it
// and it is never built as Embedded Swift (the product builds name `--product
// patternlock`). Each helper exists once so that a fix (how the binary is found, how
// pipes are drained) reaches every suite. Rejected: a copy per test target (five had
// drifted apart: some could deadlock on a full stderr pipe, some did not find the
// binary on macOS) and a shell script wrapper (no typed results for the assertions).
import Foundation

/// The package's top directory (the one holding Package.swift), for the repository
/// files tests read: captures, man pages, configuration, scripts.
///
/// Found by walking up from a source file's path, not from the working directory:
/// `swift test` and IDEs run the tests from different directories.
public enum PackageRoot {
  /// The directory above this file that holds Package.swift.
  public static let url: URL = {
    guard let root = find(above: #filePath) else {
      preconditionFailure("no Package.swift above \(#filePath): the tests must be built from the package's sources")
    }
    return root
  }()

  /// The nearest directory above `file` that holds Package.swift, or nil for none.
  ///
  /// - Parameters:
  ///   - file: a path inside the package, usually a caller's `#filePath`.
  public static func find(above file: String) -> URL? {
    var url = URL(fileURLWithPath: file).deletingLastPathComponent()
    while url.path != "/" {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
      url = url.deletingLastPathComponent()
    }
    return nil
  }

  /// `relative` (such as `docs/man/patternlock.1`) under the package's top directory.
  ///
  /// - Parameters:
  ///   - relative: a path relative to the directory holding Package.swift.
  public static func url(_ relative: String) -> URL { url.appendingPathComponent(relative) }

  /// The path of `relative` under the package's top directory.
  ///
  /// - Parameters:
  ///   - relative: a path relative to the directory holding Package.swift.
  public static func path(_ relative: String) -> String { url(relative).path }
}
