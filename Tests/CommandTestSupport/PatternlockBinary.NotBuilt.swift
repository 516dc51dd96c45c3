import Foundation

extension PatternlockBinary {
  /// No executable `patternlock` next to the test bundle: the product was not built
  /// (a test run with `--skip-build` after `swift build --product` of something else).
  public struct NotBuilt: Error, CustomStringConvertible {
    /// Every path looked at.
    public let searched: [URL]

    public var description: String {
      "patternlock is not built next to the test bundle (looked for "
        + searched.map(\.path).joined(separator: ", ")
        + "); build it with 'swift build --build-tests' or run 'swift test' without --skip-build"
    }
  }
}
