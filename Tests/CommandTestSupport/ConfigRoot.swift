import Foundation

/// A throw-away configuration root (`PATTERNLOCK_CONFIG_ROOT`) with a helper to write
/// its layers.
public struct ConfigRoot {
  private let directory: TemporaryDirectory

  public init() throws { directory = try TemporaryDirectory(prefix: "patternlock-conf") }

  public var url: URL { directory.url }
  public var path: String { directory.path }

  /// Writes `text` at `relative` under the root, creating directories; returns the path.
  @discardableResult
  public func write(_ relative: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  public func remove() { directory.remove() }
}
