import Foundation

/// A new, empty, uniquely named directory under the system temporary directory, for
/// one test's files (state directories, dumps, configuration roots).
///
/// A value, not a scope: the caller removes it (`remove()`), or uses
/// `XCTestCase.makeTemporaryDirectory`, which removes it when the test ends.
public struct TemporaryDirectory {
  /// The directory.
  public let url: URL

  /// The directory's path.
  public var path: String { url.path }

  /// Creates `<temporary directory>/<prefix>-<UUID>`.
  ///
  /// - Parameters:
  ///   - prefix: names the suite in the directory's name, so leftovers say whose they are.
  ///   - permissions: the directory's mode (such as 0o700), exactly; nil leaves it to
  ///     the umask.
  /// - Throws: the directory cannot be created.
  public init(prefix: String, permissions: Int? = nil) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: attributes)
  }

  /// Removes the directory and everything in it; a directory already gone is fine.
  public func remove() { try? FileManager.default.removeItem(at: url) }
}
