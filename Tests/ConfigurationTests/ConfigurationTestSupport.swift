import CommandTestSupport
import Foundation

/// A throw-away configuration root (`PATTERNLOCK_CONFIG_ROOT`) with a helper to write
/// its layers.
struct ConfigRoot {
  private let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory(prefix: "patternlock-conf") }

  var url: URL { directory.url }
  var path: String { directory.path }

  /// Writes `text` at `relative` under the root, creating directories; returns the path.
  @discardableResult
  func write(_ relative: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  func remove() { directory.remove() }
}
