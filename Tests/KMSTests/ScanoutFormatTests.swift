import XCTest

@testable import KMS

/// The scan-out format step without a device: what the driver prefers and what the
/// primary plane offers decide it; `format =` overrides it, and is refused when the
/// plane cannot show it.
final class ScanoutFormatTests: XCTestCase {
  private let xr24 = FourCC.xrgb8888.rawValue
  private let rg16 = FourCC.rgb565.rawValue
  /// DRM_FORMAT_ARGB8888 ('AR24'), offered by most planes besides XR24.
  private let ar24: UInt32 = 0x3432_5241

  func testSixteenBitDriversGetRGB565AndTheRestXRGB8888() {
    // A tiny SPI driver (panel-mipi-dbi), cirrus: 16 preferred, both formats offered.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [rg16, xr24], preferredDepth: 16), .rgb565)
    // vc4, virtio-gpu: 24 preferred.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [xr24, ar24, rg16], preferredDepth: 24), .xrgb8888)
    // A driver that says nothing about depth.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [xr24, rg16], preferredDepth: 0), .xrgb8888)
    // 16 preferred, but the plane shows only 32-bit formats.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [xr24, ar24], preferredDepth: 16), .xrgb8888)
    // A plane that shows RGB565 only.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [rg16], preferredDepth: 24), .rgb565)
    // No plane found: XRGB8888, which every driver scans out.
    XCTAssertEqual(ScanoutFormat.choose(requested: nil, planeFormats: [], preferredDepth: 0), .xrgb8888)
    XCTAssertNil(ScanoutFormat.choose(requested: nil, planeFormats: [ar24], preferredDepth: 32))
  }

  func testTheFormatSettingOverridesAndIsRefusedWhereThePlaneLacksIt() {
    XCTAssertEqual(ScanoutFormat.choose(requested: .xrgb8888, planeFormats: [rg16, xr24], preferredDepth: 16), .xrgb8888)
    XCTAssertEqual(ScanoutFormat.choose(requested: .rgb565, planeFormats: [xr24, rg16], preferredDepth: 24), .rgb565)
    XCTAssertNil(ScanoutFormat.choose(requested: .rgb565, planeFormats: [xr24, ar24], preferredDepth: 24))
    XCTAssertEqual(ScanoutFormat.choose(requested: .rgb565, planeFormats: [], preferredDepth: 0), .rgb565)
  }

  func testTheRefusalNamesThePlanesFormatsAndWhatToDo() {
    XCTAssertEqual(ScanoutFormat.names([xr24, ar24, 0x0102_0304]), "XR24, AR24, 0x1020304")
    let message = KMSError.unsupportedFormat(path: "/dev/dri/card0", output: "Virtual-1", format: "RG16", offered: "XR24, AR24").message
    XCTAssertEqual(
      message,
      "output Virtual-1 on /dev/dri/card0 cannot scan out RG16 (its plane offers XR24, AR24); set format = auto, or the other of xrgb8888 and rgb565")
  }
}
