import PatternCore
import XCTest

@testable import KMS

final class ModeAndConnectorTests: XCTestCase {
  func testModeChoiceTakesPreferredUnlessAsked() {
    let modes = [
      DisplayMode(width: 1920, height: 1080, refresh: 75, isPreferred: false),
      DisplayMode(width: 1920, height: 1080, refresh: 60, isPreferred: true),
      DisplayMode(width: 1280, height: 720, refresh: 60, isPreferred: false),
    ]
    XCTAssertEqual(DisplayMode.choose(from: modes, request: nil), 1)
    XCTAssertEqual(DisplayMode.choose(from: modes, request: ModeRequest(width: 1280, height: 720)), 2)
    XCTAssertEqual(DisplayMode.choose(from: modes, request: ModeRequest(width: 1920, height: 1080)), 0)
    XCTAssertEqual(DisplayMode.choose(from: modes, request: ModeRequest(width: 1920, height: 1080, refresh: 60)), 1)
    XCTAssertNil(DisplayMode.choose(from: modes, request: ModeRequest(width: 800, height: 480)))
    XCTAssertNil(DisplayMode.choose(from: [], request: nil))
    let unpreferred = [DisplayMode(width: 640, height: 480, refresh: 60, isPreferred: false)]
    XCTAssertEqual(DisplayMode.choose(from: unpreferred, request: nil), 0)
  }

  func testConnectorNamesFollowTheKernel() {
    XCTAssertEqual(ConnectorName(type: 11, typeIndex: 1).text, "HDMI-A-1")
    XCTAssertEqual(ConnectorName(type: 16, typeIndex: 1).text, "DSI-1")
    XCTAssertEqual(ConnectorName(type: 15, typeIndex: 2).text, "Virtual-2")
    XCTAssertEqual(ConnectorName(type: 17, typeIndex: 1).text, "DPI-1")
    XCTAssertEqual(ConnectorName(type: 99, typeIndex: 1).text, "Unknown-1")
  }

  func testConnectorMatchIgnoresCaseButNotIndex() {
    let hdmi = ConnectorName(type: 11, typeIndex: 1)
    XCTAssertTrue(hdmi.matches("HDMI-A-1"))
    XCTAssertTrue(hdmi.matches("hdmi-a-1"))
    XCTAssertFalse(hdmi.matches("HDMI-A-2"))
    XCTAssertFalse(hdmi.matches("HDMI-A"))
    XCTAssertFalse(hdmi.matches("HDMI-A-10"))
  }

  func testPanelOrientationTurnsTheViewUpright() {
    XCTAssertEqual(PanelOrientation(propertyValue: "Left Side Up"), .leftSideUp)
    XCTAssertEqual(PanelOrientation(propertyValue: "Right Side Up"), .rightSideUp)
    XCTAssertEqual(PanelOrientation(propertyValue: "Upside Down"), .upsideDown)
    XCTAssertEqual(PanelOrientation(propertyValue: "Normal"), .normal)
    XCTAssertNil(PanelOrientation(propertyValue: "Sideways"))
    // Left side up: the view's top edge must lie along the panel's x = 0 edge.
    let left = ViewTransform(rotation: PanelOrientation.leftSideUp.rotation, panelWidth: 800, panelHeight: 1280)
    XCTAssertEqual(left.panelPoint(fromView: Point(x: 100, y: 0)).x, Fixed16(0))
    // Right side up: along the panel's x = width edge.
    let right = ViewTransform(rotation: PanelOrientation.rightSideUp.rotation, panelWidth: 800, panelHeight: 1280)
    XCTAssertEqual(right.panelPoint(fromView: Point(x: 100, y: 0)).x, Fixed16(800))
  }

  func testFourCCMatchesDRMFormats() {
    XCTAssertEqual(FourCC.xrgb8888.rawValue, UInt32(ascii: "XR24"))
    XCTAssertEqual(FourCC.rgb565.rawValue, UInt32(ascii: "RG16"))
    XCTAssertEqual(FourCC.xrgb8888.bitsPerPixel, 32)
    XCTAssertEqual(FourCC.rgb565.bitsPerPixel, 16)
    XCTAssertNil(FourCC(rawValue: 0).bitsPerPixel)
  }
}

extension UInt32 {
  /// A fourcc from its four letters, little-endian as DRM defines them.
  init(ascii text: String) {
    let b = Array(text.utf8)
    self = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
  }
}

/// Which drivers get one buffer updated in place with its damage, and which two
/// flipped on vblank.
final class UploadDriverTests: XCTestCase {
  func testDriversThatCopyOverALinkUpdateInPlaceAndScanoutDriversFlip() {
    for driver in ["virtio_gpu", "panel-mipi-dbi", "ili9486", "gud", "udl", "simpledrm"] {
      XCTAssertTrue(UploadDrivers.copiesOverALink(driver), driver)
    }
    for driver in ["vc4", "i915", "amdgpu", "rockchip", "sun4i-drm", "imx-drm", ""] {
      XCTAssertFalse(UploadDrivers.copiesOverALink(driver), driver)
    }
  }
}
