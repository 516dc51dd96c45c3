import Foundation
import KMS
@testable import LockProgram
import XCTest

/// `run` waiting for its display at boot: it looks again while the time lasts, sees a
/// card that appears meanwhile, and gives up with the error at the end of the wait.
final class DisplayArrivalTests: XCTestCase {
  func emptyDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url.path
  }

  func openingError(_ options: KMSOptions, seconds: Int) -> KMSError? {
    do throws(KMSError) {
      _ = try DisplayArrival.open(options, waitingUpTo: seconds)
      return nil
    } catch {
      return error
    }
  }

  func testNoWaitGivesTheErrorOfTheFirstTry() throws {
    let dri = try emptyDirectory()
    XCTAssertEqual(openingError(KMSOptions(directory: dri), seconds: 0), .noDevice(directory: dri))
  }

  func testACardThatAppearsDuringTheWaitIsTried() throws {
    // A node that appears half a second into a two-second wait: not a DRM device (a
    // regular file), so the wait goes on to its end, and the error it ends with is the
    // new node's, which only a try after it appeared can give.
    let dri = try emptyDirectory()
    let card = dri + "/card0"
    let appear = DispatchWorkItem { FileManager.default.createFile(atPath: card, contents: Data()) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.5, execute: appear)
    let started = Date()
    let error = openingError(KMSOptions(directory: dri), seconds: 2)
    appear.wait()
    XCTAssertEqual(error, .notModesetting(path: card))
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 2.0, "it waited for its whole bound")
  }

  func testErrorsThatWaitingCannotMendEndTheWaitAtOnce() {
    for error in [
      KMSError.permissionDenied(path: "p"), .masterHeld(path: "p"), .unknownMode(path: "p", output: "o", mode: "m", modes: ""),
      .callFailed(call: "drmModeAtomicCommit", path: "p", errno: .invalid),
    ] {
      XCTAssertFalse(DisplayArrival.isNotThereYet(error), error.message)
    }
    for error in [
      KMSError.noDevice(directory: "d"), .noConnectedOutput(path: "p", outputs: ""), .notModesetting(path: "p"),
      .callFailed(call: "open", path: "/dev/dri/card0", errno: .noDevice),
    ] {
      XCTAssertTrue(DisplayArrival.isNotThereYet(error), error.message)
    }
    XCTAssertFalse(DisplayArrival.isNotThereYet(.notModesetting(path: "/dev/null"), named: true), "a named card that is not a display")
  }
}
