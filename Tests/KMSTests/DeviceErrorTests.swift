import CommandTestSupport
import Foundation
import XCTest

@testable import KMS

final class DeviceErrorTests: XCTestCase {
  func temporaryDirectory(with names: [String]) throws -> String {
    let dir = try makeTemporaryDirectory(prefix: "kms")
    for name in names { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil) }
    return dir.path
  }

  /// The error opening a display with `options` throws (KMSDisplay is ~Copyable, so
  /// XCTAssertThrowsError cannot hold it); nil when it opened.
  func openingError(_ options: KMSOptions) -> KMSError? {
    do throws(KMSError) {
      _ = try KMSDisplay(options: options)
      return nil
    } catch {
      return error
    }
  }

  func testCardNodesAreListedInNumericOrderAndOthersIgnored() throws {
    let dir = try temporaryDirectory(with: ["card10", "card2", "renderD128", "card1", "cardX", "by-path"])
    XCTAssertEqual(try Probe.cardPaths(in: dir), [dir + "/card1", dir + "/card2", dir + "/card10"])
  }

  func testNoCardNodeIsNoDevice() throws {
    let dir = try temporaryDirectory(with: ["renderD128"])
    XCTAssertEqual(openingError(KMSOptions(directory: dir)), .noDevice(directory: dir))
    let missing = dir + "/absent"
    XCTAssertEqual(openingError(KMSOptions(directory: missing)), .noDevice(directory: missing))
  }

  func testANodeThatIsNotDRMIsReportedAsNotADisplay() {
    XCTAssertEqual(openingError(KMSOptions(devicePath: "/dev/null")), .notModesetting(path: "/dev/null"))
  }

  func testMessagesNameTheDeviceAndTheFix() {
    XCTAssertEqual(
      KMSError.permissionDenied(path: "/dev/dri/card0").message,
      "cannot open /dev/dri/card0: Permission denied (is this user in group video? try 'sudo usermod -aG video $USER' and log in again)")
    XCTAssertTrue(KMSError.masterHeld(path: "/dev/dri/card1").message.contains("/dev/dri/card1"))
    XCTAssertTrue(KMSError.masterHeld(path: "/dev/dri/card1").message.contains("another process is DRM master"))
    XCTAssertEqual(
      KMSError.noPowerControl(path: "/dev/dri/card0", output: "DSI-1").message,
      "output DSI-1 on /dev/dri/card0 has no DPMS property, so it cannot be switched off")
    XCTAssertEqual(
      KMSError.noDumbBuffers(path: "/dev/dri/card0", driver: "v3d").message,
      "/dev/dri/card0 (v3d) cannot make the dumb buffers the lock draws into; choose another card with --device, or an fbdev device such as /dev/fb0")
    XCTAssertTrue(KMSError.noConnectedOutput(path: "/dev/dri/card0", outputs: "HDMI-A-1 (disconnected)").message
      .contains("outputs: HDMI-A-1 (disconnected)"))
    for error in [KMSError.noDevice(directory: "/dev/dri"), .permissionDenied(path: "p"), .masterHeld(path: "p"),
                  .noConnectedOutput(path: "p", outputs: ""), .callFailed(call: "drmModeSetCrtc", path: "p", errno: .busy),
                  .noPowerControl(path: "p", output: "o"), .noDumbBuffers(path: "p", driver: "d")] {
      XCTAssertFalse(error.message.contains("\n"), error.message)
    }
  }
}
