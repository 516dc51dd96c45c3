import CommandTestSupport
import Foundation
import XCTest

/// The checked-in protocol code is what wayland-scanner writes from wayland-protocols'
/// XML (scripts/wayland-protocols --check).
final class WaylandProtocolTests: XCTestCase {
  func testCheckedInProtocolCodeIsTheScannersOwn() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wayland-scanner") else {
      throw XCTSkip("wayland-scanner is not installed (libwayland-dev)")
    }
    let result = try ChildProcess.run(PackageRoot.url("scripts/wayland-protocols"), ["--check"])
    XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
  }
}
