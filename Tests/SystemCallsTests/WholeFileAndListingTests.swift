import CommandTestSupport
import Foundation
import SystemCalls
import XCTest

/// `RegularFile.read` (what it refuses before reading, and which step failed),
/// `Directory.names` (order and filters) and the named errno values.
final class WholeFileAndListingTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws { directory = try makeTemporaryDirectory(prefix: "systemcalls-tests") }

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  private func readFailure(_ path: String, limit: Int64) -> RegularFile.ReadFailure? {
    do {
      _ = try RegularFile.read(atPath: path, limit: limit)
      return nil
    } catch {
      return error
    }
  }

  // MARK: RegularFile.read

  func testReadsAWholeFileUpToTheLimit() throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: path("f"), contents: Data("12345".utf8)))
    XCTAssertEqual(try RegularFile.read(atPath: path("f"), limit: 5), [UInt8]("12345".utf8))
    XCTAssertEqual(readFailure(path("f"), limit: 4), .tooLarge(bytes: 5))
  }

  func testFollowsASymbolicLinkToAFile() throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: path("f"), contents: Data("x".utf8)))
    try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: path("f"))
    XCTAssertEqual(try RegularFile.read(atPath: path("link"), limit: 10), [UInt8]("x".utf8))
  }

  func testMissingFileFailsToBeExamined() {
    XCTAssertEqual(readFailure(path("absent"), limit: 10), .cannotExamine(.noEntry))
    XCTAssertEqual(readFailure(path("absent/below"), limit: 10), .cannotExamine(.noEntry))
  }

  func testDirectoriesAndPipesAreRefusedBeforeOpening() throws {
    XCTAssertEqual(readFailure(directory.path, limit: 10), .notARegularFile(.directory))
    XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
    // Opening a FIFO for reading would block until a writer came: never reached.
    XCTAssertEqual(readFailure(path("fifo"), limit: 10), .notARegularFile(.other))
    XCTAssertEqual(readFailure("/dev/null", limit: 10), .notARegularFile(.other))
  }

  func testUnreadableFileFailsToOpen() throws {
    try XCTSkipIf(getuid() == 0, "root may open any file")
    XCTAssertTrue(FileManager.default.createFile(atPath: path("secret"), contents: Data("x".utf8), attributes: [.posixPermissions: 0]))
    XCTAssertEqual(readFailure(path("secret"), limit: 10), .cannotOpen(.permissionDenied))
  }

  func testKindsReadAsMessagesSayThem() {
    XCTAssertEqual(FileStatus.Kind.directory.phrase, "a directory")
    XCTAssertEqual(FileStatus.Kind.other.phrase, "a device, pipe or socket")
    XCTAssertEqual(FileStatus.Kind.symbolicLink.phrase, "a symbolic link")
    XCTAssertEqual(FileStatus.Kind.regular.phrase, "a regular file")
  }

  // MARK: Directory.names

  func testNamesAreSortedBytewiseWithoutDotEntries() throws {
    for name in ["b.conf", "a.conf", "B.conf", ".hidden.conf", "x.conf~", "é.conf"] {
      XCTAssertTrue(FileManager.default.createFile(atPath: path(name), contents: nil))
    }
    try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: false)
    XCTAssertEqual(
      try Directory.names(in: directory.path),
      [".hidden.conf", "B.conf", "a.conf", "b.conf", "sub", "x.conf~", "é.conf"])
    XCTAssertEqual(
      try Directory.names(in: directory.path) { $0.hasSuffix(".conf") && !$0.hasPrefix(".") },
      ["B.conf", "a.conf", "b.conf", "é.conf"])
    XCTAssertEqual(try Directory.names(in: path("sub")), [])
  }

  func testListingFailuresNameTheCall() throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: path("file"), contents: nil))
    for (target, errno) in [(path("absent"), Errno.noEntry), (path("file"), Errno.notADirectory)] {
      XCTAssertThrowsError(try Directory.names(in: target)) { error in
        let failure = error as? Directory.ListingFailure
        XCTAssertEqual(failure, .cannotOpen(errno))
        XCTAssertEqual(failure?.call, "opendir")
        XCTAssertEqual(failure?.errno, errno)
      }
    }
  }

  func testMakeDirectoryAcceptsOneAlreadyThere() throws {
    try Directory.make(path("new"), permissions: 0o700)
    try Directory.make(path("new"), permissions: 0o700)
    XCTAssertEqual(try FileStatus(ofPath: path("new"), followingSymlinks: false).kind, .directory)
    XCTAssertThrowsError(try Directory.make(path("absent/new"), permissions: 0o700)) { error in
      XCTAssertEqual(error as? Errno, .noEntry)
    }
  }

  // MARK: Errno

  func testNamedValuesAreLibcs() {
    let pairs: [(Errno, Int32)] = [
      (.notPermitted, EPERM), (.noEntry, ENOENT), (.interrupted, EINTR), (.tryAgain, EAGAIN),
      (.wouldBlock, EWOULDBLOCK), (.permissionDenied, EACCES), (.busy, EBUSY), (.fileExists, EEXIST),
      (.noDevice, ENODEV), (.notADirectory, ENOTDIR), (.invalid, EINVAL), (.noSpace, ENOSPC),
      (.readOnlyFileSystem, EROFS), (.symbolicLinkLoop, ELOOP), (.notSupported, EOPNOTSUPP), (.noChild, ECHILD),
    ]
    for (named, value) in pairs { XCTAssertEqual(named.rawValue, value) }
  }

  func testTextIsStrerror() {
    XCTAssertEqual(Errno.noEntry.text, "No such file or directory")
    XCTAssertEqual(Errno.noSpace.text, String(cString: strerror(ENOSPC)))
  }
}
