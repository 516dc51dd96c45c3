import CShim
import CommandTestSupport
import Foundation
import SystemCalls
import XCTest

/// Opening once by descriptor: what `status()` checked is what is read, even when the
/// path is replaced in between, and a FIFO opens without blocking.
final class OpenOnceTests: XCTestCase {
  func testTheDescriptorKeepsTheCheckedFileWhenThePathIsSwapped() throws {
    let directory = try makeTemporaryDirectory(prefix: "open-once")
    let path = directory.appendingPathComponent("file.conf").path
    try Data("checked\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o644)
    let file = try FileDescriptor.openForReading(path)
    let checked = try file.status()
    let planted = directory.appendingPathComponent("planted").path
    try Data("planted, a longer text\n".utf8).write(to: URL(fileURLWithPath: planted))
    chmod(planted, 0o666)
    XCTAssertEqual(rename(planted, path), 0)
    XCTAssertEqual(checked.permissions, 0o644)
    XCTAssertEqual(try file.status(), checked, "the descriptor still names the checked file")
    XCTAssertEqual(try file.readToEnd(limit: 100).bytes, Array("checked\n".utf8))
  }

  func testAFIFOOpensWithoutBlockingAndReadsAsNotARegularFile() throws {
    let directory = try makeTemporaryDirectory(prefix: "open-once")
    let fifo = directory.appendingPathComponent("pipe").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let opened = try FileDescriptor.openDirectory(directory.path, followingSymlink: false)
    XCTAssertEqual(try opened.openEntry("pipe").status().kind, .other)
    XCTAssertEqual(try FileDescriptor.openForReading(fifo).status().kind, .other)
  }

  func testASymlinkedDirectoryIsNotOpenedUnlessFollowed() throws {
    let directory = try makeTemporaryDirectory(prefix: "open-once")
    let link = directory.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path)
    let opened = try FileDescriptor.openDirectory(directory.path, followingSymlink: false)
    do throws(Errno) {
      _ = try opened.openSubdirectory("link", followingSymlink: false)
      XCTFail("a symbolic link was opened as a directory")
    } catch {
      XCTAssertEqual(error, .notADirectory)
    }
    XCTAssertEqual(try opened.openSubdirectory("link", followingSymlink: true).status().kind, .directory)
    XCTAssertEqual(try opened.statusOfEntry("link").kind, .symbolicLink)
    try Data().write(to: directory.appendingPathComponent("b.conf"))
    try Data().write(to: directory.appendingPathComponent("a.conf"))
    XCTAssertEqual(try opened.entryNames { $0.hasSuffix(".conf") }, ["a.conf", "b.conf"])
  }
}
