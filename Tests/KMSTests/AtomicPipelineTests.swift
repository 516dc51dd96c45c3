import XCTest

@testable import KMS

/// The parts of atomic modesetting that need no DRM device: which properties must be
/// present for the atomic path (any missing one means legacy), and the 16.16 source size.
final class AtomicPipelineTests: XCTestCase {
  private static let connectorNames = ["CRTC_ID"]
  private static let crtcNames = ["MODE_ID", "ACTIVE"]
  private static let planeNames = ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]

  /// Properties with distinct IDs (100 + position per object kind) and unrelated extras
  /// around them, as a real driver lists them.
  private func properties(_ names: [String], base: UInt32, without missing: String? = nil) -> Probe.ObjectProperties {
    var result = Probe.ObjectProperties()
    result.entries.append(("DPMS", base + 90, 0))
    for (i, name) in names.enumerated() where name != missing {
      result.entries.append((name, base + UInt32(i), 0))
    }
    result.entries.append(("type", base + 91, 1))
    return result
  }

  func testEveryPropertyIsFoundByItsKernelName() throws {
    let ids = try XCTUnwrap(
      AtomicPipeline.PropertyIDs(
        connector: properties(Self.connectorNames, base: 100), crtc: properties(Self.crtcNames, base: 200),
        plane: properties(Self.planeNames, base: 300)))
    XCTAssertEqual(ids.connectorCrtc, 100)
    XCTAssertEqual([ids.crtcMode, ids.crtcActive], [200, 201])
    XCTAssertEqual(
      [ids.planeFramebuffer, ids.planeCrtc, ids.sourceX, ids.sourceY, ids.sourceWidth, ids.sourceHeight,
       ids.crtcX, ids.crtcY, ids.crtcWidth, ids.crtcHeight],
      Array(300...309))
  }

  func testAnyMissingPropertyMeansNoAtomicPipeline() {
    for missing in Self.connectorNames {
      XCTAssertNil(
        AtomicPipeline.PropertyIDs(
          connector: properties(Self.connectorNames, base: 100, without: missing),
          crtc: properties(Self.crtcNames, base: 200), plane: properties(Self.planeNames, base: 300)),
        "connector without \(missing)")
    }
    for missing in Self.crtcNames {
      XCTAssertNil(
        AtomicPipeline.PropertyIDs(
          connector: properties(Self.connectorNames, base: 100),
          crtc: properties(Self.crtcNames, base: 200, without: missing), plane: properties(Self.planeNames, base: 300)),
        "CRTC without \(missing)")
    }
    for missing in Self.planeNames {
      XCTAssertNil(
        AtomicPipeline.PropertyIDs(
          connector: properties(Self.connectorNames, base: 100), crtc: properties(Self.crtcNames, base: 200),
          plane: properties(Self.planeNames, base: 300, without: missing)),
        "plane without \(missing)")
    }
  }

  func testPropertyNamesMatchExactly() {
    var props = Probe.ObjectProperties()
    props.entries = [("crtc_id", 1, 0), ("CRTC_ID_X", 2, 0), ("type", 3, 1)]
    XCTAssertNil(props.id("CRTC_ID"))
    XCTAssertEqual(props.value("type"), 1)
    XCTAssertNil(props.value("TYPE"))
  }

  func testSourceSizeIsSixteenDotSixteen() {
    XCTAssertEqual(AtomicPipeline.sourceExtent(pixels: 1), 0x1_0000)
    XCTAssertEqual(AtomicPipeline.sourceExtent(pixels: 800), 800 << 16)
    XCTAssertEqual(AtomicPipeline.sourceExtent(pixels: 1920), 1920 << 16)
  }
}
