import Foundation
import XCTest

extension XCTestCase {
  /// A fresh temporary directory, removed with its contents when the test ends.
  ///
  /// May be called from `setUpWithError` too: the removal is a teardown block.
  ///
  /// - Parameters:
  ///   - prefix: names the suite in the directory's name.
  ///   - permissions: the directory's mode, exactly; nil leaves it to the umask.
  /// - Throws: the directory cannot be created.
  public func makeTemporaryDirectory(prefix: String = "patternlock-tests", permissions: Int? = nil) throws -> URL {
    let directory = try TemporaryDirectory(prefix: prefix, permissions: permissions)
    addTeardownBlock { directory.remove() }
    return directory.url
  }
}
