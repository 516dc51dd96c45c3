import Foundation

/// The `patternlock` executable SwiftPM built with the tests, and running it.
///
/// SwiftPM builds every product before it runs tests and puts them in one products
/// directory (such as `.build/debug`) with the test bundle. Linux runs the bundle as an
/// executable in that directory; macOS nests it in a `.xctest` directory. So the binary
/// is looked for in the bundle's directory and in its parent, for both the bundle
/// holding this code and the main bundle. No path is built from `.build` by hand: the
/// scratch directory and configuration are whatever the test run used.
public enum PatternlockBinary {
  /// The built binary.
  ///
  /// - Throws: `NotBuilt` (naming where it looked) when no candidate is an executable.
  public static func url() throws -> URL {
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw NotBuilt(searched: candidates)
    }
    return found
  }

  /// Runs `patternlock arguments` to its end.
  ///
  /// - Parameters:
  ///   - arguments: the command and its options, such as `["replay", path]`.
  ///   - stdin: the whole of its standard input (patterns for `set-pattern`, `check`).
  ///   - environment: variables set or replaced on top of the test process's own.
  /// - Throws: `NotBuilt`, or the process cannot be started.
  public static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> CommandResult {
    try ChildProcess.run(url(), arguments, stdin: stdin, environment: environment)
  }

  /// Where the products directory may be, most likely first.
  private static var candidates: [URL] {
    var urls: [URL] = []
    for bundle in [Bundle(for: Anchor.self).bundleURL, Bundle.main.bundleURL] {
      for directory in [bundle, bundle.deletingLastPathComponent()] {
        let url = directory.appendingPathComponent("patternlock")
        if !urls.contains(url) { urls.append(url) }
      }
    }
    return urls
  }

  /// A class in the test bundle (this module is linked into it), for `Bundle(for:)`.
  private final class Anchor {}
}
