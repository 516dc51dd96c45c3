import CShim
import CommandTestSupport
import Foundation
import SystemCalls
import XCTest

/// Ownership (closed exactly when the value ends), EINTR retries, reads, writes and
/// the directory-relative calls the Vault uses.
final class FileDescriptorTests: XCTestCase {
  /// Whether `fd` is an open descriptor of this process.
  private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }
  /// Whether `fd` is not open (fcntl says EBADF).
  private func isClosed(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) == -1 && errno == EBADF }
  /// The errno `body` throws, or nil.
  private func failure(_ body: () throws(Errno) -> Void) -> Errno? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  func testDescriptorIsClosedWhenItsValueEnds() throws {
    var raw: Int32 = -1
    do {
      let file = try FileDescriptor.open("/dev/null", .readOnly)
      raw = file.rawValue
      XCTAssertTrue(isOpen(raw))
    }
    XCTAssertTrue(isClosed(raw))
  }

  func testCloseEndsTheDescriptorAtOnce() throws {
    let file = try FileDescriptor.open("/dev/null", .readOnly)
    let raw = file.rawValue
    file.close()
    XCTAssertTrue(isClosed(raw))
  }

  func testStandardStreamsStayOpen() throws {
    XCTAssertEqual(FileDescriptor.standardInput.rawValue, 0)
    XCTAssertEqual(FileDescriptor.standardError.rawValue, 2)
    try FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer(start: nil, count: 0))
    XCTAssertTrue(isOpen(1))
  }

  func testOpenReportsTheErrno() {
    XCTAssertEqual(failure { () throws(Errno) in _ = try FileDescriptor.open("/nonexistent/file", .readOnly) }, .noEntry)
  }

  func testWrittenBytesReadBack() throws {
    let directory = try makeTemporaryDirectory(prefix: "systemcalls-tests")
    let path = directory.appendingPathComponent("data").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
    let bytes = [UInt8](0..<200)
    do {
      let file = try FileDescriptor.open(path, .writeOnly)
      try bytes.withUnsafeBytes { try file.writeAll($0) }
    }
    let file = try FileDescriptor.open(path, .readOnly)
    var buffer = [UInt8](repeating: 0, count: 300)
    let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
    XCTAssertEqual(Array(buffer[0..<count]), bytes)
    XCTAssertEqual(try buffer.withUnsafeMutableBytes { try file.read(into: $0) }, 0, "end of file")
  }

  func testStatusDescribesTheOpenFile() throws {
    let directory = try makeTemporaryDirectory(prefix: "systemcalls-tests")
    let path = directory.appendingPathComponent("data").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o640]))
    let file = try FileDescriptor.open(path, .readOnly)
    let status = try file.status()
    XCTAssertEqual(status.kind, .regular)
    XCTAssertEqual(status.size, 3)
    XCTAssertEqual(status.permissions, 0o640)
    XCTAssertEqual(status.owner, getuid())
    XCTAssertEqual(try FileDescriptor.openDirectory(directory.path).status().kind, .directory)
  }

  // MARK: EINTR

  func testRetryingInterruptsRepeatsACallThatSetEINTR() throws {
    var calls = 0
    let result = try retryingInterrupts { () -> Int32 in
      calls += 1
      if calls < 3 {
        pl_set_errno(Errno.interrupted.rawValue)
        return -1
      }
      return 7
    }
    XCTAssertEqual(result, 7)
    XCTAssertEqual(calls, 3)
  }

  func testRetryingInterruptsThrowsAnyOtherErrnoAtOnce() {
    var calls = 0
    XCTAssertThrowsError(
      try retryingInterrupts { () -> Int in
        calls += 1
        pl_set_errno(Errno.noEntry.rawValue)
        return -1
      }
    ) { error in XCTAssertEqual(error as? Errno, .noEntry) }
    XCTAssertEqual(calls, 1)
    // libdrm and libinput return -errno instead.
    XCTAssertThrowsError(try retryingInterrupts { -Errno.busy.rawValue }) { error in
      XCTAssertEqual(error as? Errno, .busy)
    }
  }

  func testRetryingInterruptsRepeatsANegatedEINTR() throws {
    var calls = 0
    let result = try retryingInterrupts { () -> Int32 in
      calls += 1
      return calls == 1 ? -Errno.interrupted.rawValue : 0
    }
    XCTAssertEqual(result, 0)
    XCTAssertEqual(calls, 2)
  }

  /// A real EINTR: a signal whose handler is installed without SA_RESTART interrupts
  /// a read blocked on an empty pipe; the read must go on and return the byte written
  /// after the signal.
  func testReadGoesOnAfterASignalInterruptsIt() throws {
    var ends: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&ends), 0)
    let reader = FileDescriptor(owning: ends[0])
    let writer = FileDescriptor(owning: ends[1])

    // SIGALRM: SIGUSR1 and SIGUSR2 are blocked in every process that links the C shim.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptions += 1 }
    action.sa_flags = 0  // no SA_RESTART: the blocked read fails with EINTR
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    XCTAssertEqual(sigaction(SIGALRM, &action, &previous), 0)
    defer { _ = sigaction(SIGALRM, &previous, nil) }
    interruptions = 0

    let target = pthread_self()
    let writerFD = writer.rawValue
    let thread = Thread {
      usleep(100_000)
      pthread_kill(target, SIGALRM)
      usleep(100_000)
      var byte: UInt8 = 42
      _ = write(writerFD, &byte, 1)
    }
    thread.start()
    var buffer = [UInt8](repeating: 0, count: 4)
    let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
    XCTAssertEqual(count, 1)
    XCTAssertEqual(buffer[0], 42)
    XCTAssertEqual(interruptions, 1, "the signal arrived during the read")
    usleep(50_000)  // the thread is done with the writer's number before it closes
    _ = consume writer
  }

  // MARK: Reading to the end

  func testReadToEndReturnsAFileWithinTheLimit() throws {
    let path = try file(bytes: 10)
    let (bytes, isComplete) = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 10)
    XCTAssertEqual(bytes, [UInt8](0..<10))
    XCTAssertTrue(isComplete)
  }

  func testReadToEndStopsAtTheLimitAndSaysSo() throws {
    let path = try file(bytes: 10)
    let (bytes, isComplete) = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 4)
    XCTAssertEqual(bytes, [0, 1, 2, 3])
    XCTAssertFalse(isComplete)
  }

  func testReadToEndKeepsMemoryForWhatItReadNotForTheLimit() throws {
    // A conf.d of hundreds of small files is read with a 1 MiB limit each; holding a
    // limit's worth per file made reading them grow faster than their count.
    let path = try file(bytes: 10)
    for hint in [nil, 10] as [Int?] {
      let (bytes, isComplete) = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 1 << 20, expectedBytes: hint)
      XCTAssertEqual(bytes, [UInt8](0..<10))
      XCTAssertTrue(isComplete)
      XCTAssertLessThanOrEqual(bytes.capacity, 8192, "hint \(String(describing: hint)): the limit is not allocated")
    }
  }

  func testReadToEndGrowsPastItsFirstBufferAndStillStopsAtTheLimit() throws {
    let path = try file(bytes: 20_000)
    let whole = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 1 << 20)
    XCTAssertEqual(whole.bytes, (0..<20_000).map { UInt8($0 & 0xff) })
    XCTAssertTrue(whole.isComplete)
    XCTAssertLessThanOrEqual(whole.bytes.capacity, 2 * 20_001, "at most twice what was read")
    let cut = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 9_000, expectedBytes: 100)
    XCTAssertEqual(cut.bytes, (0..<9_000).map { UInt8($0 & 0xff) })
    XCTAssertFalse(cut.isComplete)
    let grown = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 1 << 20, expectedBytes: 10)
    XCTAssertEqual(grown.bytes.count, 20_000, "a file grown since its fstat is read whole")
    XCTAssertTrue(grown.isComplete)
  }

  func testReadToEndOfAnEmptyFile() throws {
    let path = try file(bytes: 0)
    let (bytes, isComplete) = try FileDescriptor.open(path, .readOnly).readToEnd(limit: 0)
    XCTAssertEqual(bytes, [])
    XCTAssertTrue(isComplete)
  }

  // MARK: Names in a directory held open

  func testCreateEntryIsExclusive() throws {
    let directory = try FileDescriptor.openDirectory(try makeTemporaryDirectory(prefix: "systemcalls-tests").path)
    let created = try directory.createEntry("new", permissions: 0o600)
    try [UInt8]("hello".utf8).withUnsafeBytes { try created.writeAll($0) }
    XCTAssertEqual(failure { () throws(Errno) in _ = try directory.createEntry("new", permissions: 0o600) }, .fileExists)
    try directory.renameEntry("new", to: "old")
    XCTAssertEqual(try directory.openEntry("old").readToEnd(limit: 100).bytes, [UInt8]("hello".utf8))
    try directory.removeEntry("old")
    XCTAssertEqual(failure { () throws(Errno) in _ = try directory.openEntry("old") }, .noEntry)
    XCTAssertEqual(failure { () throws(Errno) in try directory.removeEntry("old") }, .noEntry)
  }

  func testSymbolicLinksAreNeverFollowed() throws {
    let url = try makeTemporaryDirectory(prefix: "systemcalls-tests")
    try FileManager.default.createSymbolicLink(atPath: url.appendingPathComponent("link").path, withDestinationPath: "/dev/null")
    let directory = try FileDescriptor.openDirectory(url.path)
    XCTAssertEqual(failure { () throws(Errno) in _ = try directory.openEntry("link") }, .symbolicLinkLoop)
    XCTAssertNotNil(failure { () throws(Errno) in _ = try FileDescriptor.openDirectory(url.appendingPathComponent("link").path) })
    XCTAssertEqual(try FileStatus(ofPath: url.appendingPathComponent("link").path, followingSymlinks: false).kind, .symbolicLink)
    XCTAssertEqual(try FileStatus(ofPath: url.appendingPathComponent("link").path, followingSymlinks: true).kind, .other)
  }

  func testRemoveEntriesContainingAMarkerRemovesOnlyThose() throws {
    let url = try makeTemporaryDirectory(prefix: "systemcalls-tests")
    for name in ["a.tmp.1", "b.tmp.2", "keep"] {
      XCTAssertTrue(FileManager.default.createFile(atPath: url.appendingPathComponent(name).path, contents: nil))
    }
    XCTAssertEqual(try FileDescriptor.openDirectory(url.path).removeEntries(containing: ".tmp"), 2)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.path), ["keep"])
  }

  func testASecondExclusiveLockIsRefusedUntilTheFirstCloses() throws {
    let directory = try FileDescriptor.openDirectory(try makeTemporaryDirectory(prefix: "systemcalls-tests").path)
    let first = try directory.openLockFile("lock", permissions: 0o600)
    XCTAssertTrue(try first.tryLockExclusively())
    let second = try directory.openLockFile("lock", permissions: 0o600)
    XCTAssertFalse(try second.tryLockExclusively())
    first.close()
    XCTAssertTrue(try second.tryLockExclusively())
  }

  /// A file of `bytes` bytes 0, 1, 2 ... in a fresh directory.
  private func file(bytes: Int) throws -> String {
    let path = try makeTemporaryDirectory(prefix: "systemcalls-tests").appendingPathComponent("file").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((0..<bytes).map { UInt8($0 & 0xff) })))
    return path
  }
}

/// Signals delivered (a C signal handler captures nothing, so this is a global).
nonisolated(unsafe) private var interruptions: Int32 = 0
