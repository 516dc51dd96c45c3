import XCTest
@testable import PatternCore

final class GridLayoutTests: XCTestCase {
  private func layout(_ w: Int, _ h: Int, rotation: Rotation = .none, grid: Int = 3, dpi: Int? = nil) throws -> GridLayout {
    do {
      return try GridLayout(LayoutOptions(panelWidth: w, panelHeight: h, rotation: rotation, gridSize: grid, dotsPerInch: dpi))
    } catch {
      XCTFail("layout \(w)x\(h) rot \(rotation.degrees) grid \(grid): \(error.message)")
      throw error
    }
  }

  private func centres(_ l: GridLayout) -> [String] {
    (1...l.dotCount).map { "\(l.centre(of: $0).x.decimalString),\(l.centre(of: $0).y.decimalString)" }
  }

  func testGolden800x480PutsThePromptBesideTheGrid() throws {
    let l = try layout(800, 480)
    XCTAssertEqual(l.gridRect, Rect(x: 320, y: 0, width: 480, height: 480))
    XCTAssertEqual(l.promptRect, Rect(x: 0, y: 220, width: 320, height: 40))
    XCTAssertEqual(l.cell, Fixed16(96))
    XCTAssertEqual(l.margin, Fixed16(48))
    XCTAssertEqual(l.dotRadius, Fixed16(12))
    XCTAssertEqual(l.ringRadius, Fixed16(36))
    XCTAssertEqual(l.ringStroke, Fixed16(3))
    XCTAssertEqual(l.lineWidth, Fixed16(10))
    XCTAssertEqual(l.hitRadius.decimalString, "28.8")
    XCTAssertEqual(centres(l), ["416,96", "560,96", "704,96", "416,240", "560,240", "704,240", "416,384", "560,384", "704,384"])
  }

  func testGolden480x800PutsThePromptAboveTheGrid() throws {
    let l = try layout(480, 800)
    XCTAssertEqual(l.gridRect, Rect(x: 0, y: 180, width: 480, height: 480))
    XCTAssertEqual(l.promptRect, Rect(x: 0, y: 140, width: 480, height: 40))
    XCTAssertEqual(l.fontPixels, 20)
    XCTAssertEqual(centres(l), ["96,276", "240,276", "384,276", "96,420", "240,420", "384,420", "96,564", "240,564", "384,564"])
  }

  func testGolden720x720() throws {
    let l = try layout(720, 720)
    XCTAssertEqual(l.fontPixels, 30)
    XCTAssertEqual(l.promptRect, Rect(x: 0, y: 0, width: 720, height: 60))
    XCTAssertEqual(l.gridRect, Rect(x: 30, y: 60, width: 660, height: 660))
    XCTAssertEqual(l.cell, Fixed16(132))
    XCTAssertEqual(l.margin, Fixed16(66))
    XCTAssertEqual(l.dotRadius.decimalString, "16.5")
    XCTAssertEqual(l.ringRadius.decimalString, "49.5")
    XCTAssertEqual(l.ringStroke.decimalString, "4.125")
    XCTAssertEqual(l.lineWidth.decimalString, "13.75")
    XCTAssertEqual(l.hitRadius.decimalString, "39.6")
    XCTAssertEqual(centres(l), ["162,192", "360,192", "558,192", "162,390", "360,390", "558,390", "162,588", "360,588", "558,588"])
  }

  func testGolden1920x1080() throws {
    let l = try layout(1920, 1080)
    XCTAssertEqual(l.promptRect, Rect(x: 0, y: 495, width: 840, height: 90))
    XCTAssertEqual(l.gridRect, Rect(x: 840, y: 0, width: 1080, height: 1080))
    XCTAssertEqual(l.cell, Fixed16(216))
    XCTAssertEqual(l.hitRadius.decimalString, "64.8")
    XCTAssertEqual(l.lineWidth.decimalString, "22.5")
    XCTAssertEqual(centres(l), ["1056,216", "1380,216", "1704,216", "1056,540", "1380,540", "1704,540", "1056,864", "1380,864", "1704,864"])
  }

  func testKnownDpiCapsTheCellAtTwentyFiveMillimetres() throws {
    // 96 dpi: 25 mm is 94 px, so 1920x1080 no longer gets 216-pixel cells.
    let l = try layout(1920, 1080, dpi: 96)
    XCTAssertEqual(l.gridRect.width, 94 * 10 / 2)
    XCTAssertLessThanOrEqual(l.cell, Fixed16(94))
    XCTAssertEqual(l.fontPixels, 12)  // 3.2 mm at 96 dpi
  }

  func testMarginFollowsTheSeedRuleForEveryGridSize() throws {
    for n in 3...7 {
      let l = try layout(800, 480, grid: n)
      let side = Fixed16(l.gridRect.width)
      XCTAssertEqual(l.margin, (side - l.cell * n) / (n + 1), "grid \(n)")
      // Margins are half a cell, within rounding.
      XCTAssertLessThanOrEqual(abs(l.margin.raw - l.cell.raw / 2), 2, "grid \(n)")
    }
  }

  func testEveryPanelRotationAndGridGivesASaneLayout() throws {
    let sides = [240, 241, 320, 480, 600, 720, 768, 800, 1024, 1080, 1280, 1920, 2160, 3840]
    for w in sides {
      for h in sides where h <= 2160 || w <= 2160 {
        for rotation in Rotation.allCases {
          for n in 3...7 {
            let l = try layout(w, h, rotation: rotation, grid: n)
            let context = "\(w)x\(h) rot \(rotation.degrees) grid \(n)"
            let view = Rect(x: 0, y: 0, width: l.transform.viewWidth, height: l.transform.viewHeight)
            XCTAssertEqual(l.gridRect.intersection(view), l.gridRect, "grid outside view: \(context)")
            XCTAssertEqual(l.promptRect.intersection(view), l.promptRect, "prompt outside view: \(context)")
            XCTAssertTrue(l.promptRect.intersection(l.gridRect).isEmpty, "prompt overlaps grid: \(context)")
            XCTAssertGreaterThanOrEqual(l.fontPixels, 12, context)
            XCTAssertLessThan(l.hitRadius * 2, l.cell + l.margin, "hit circles overlap: \(context)")
            XCTAssertLessThan(l.ringRadius + l.ringStroke / 2, (l.cell + l.margin) / 2, "rings overlap: \(context)")
            for dot in 1...l.dotCount {
              let c = l.centre(of: dot)
              XCTAssertTrue(c.x - l.ringRadius >= Fixed16(l.gridRect.x) && c.x + l.ringRadius <= Fixed16(l.gridRect.maxX), "dot \(dot) x: \(context)")
              XCTAssertTrue(c.y - l.ringRadius >= Fixed16(l.gridRect.y) && c.y + l.ringRadius <= Fixed16(l.gridRect.maxY), "dot \(dot) y: \(context)")
              let (row, column) = l.rowAndColumn(of: dot)
              XCTAssertEqual(l.dot(row: row, column: column), dot)
              let p = l.transform.panelPoint(fromView: c)
              XCTAssertTrue(p.x >= .zero && p.x <= Fixed16(w) && p.y >= .zero && p.y <= Fixed16(h), "dot \(dot) off panel: \(context)")
              XCTAssertEqual(l.transform.viewPoint(fromPanel: p), c, "round trip: \(context)")
            }
            // Centred: equal space on both sides of the grid along the axis it fills.
            XCTAssertLessThanOrEqual(abs(c0(l).x.raw + c1(l).x.raw - 2 * (Fixed16(l.gridRect.x) + Fixed16(l.gridRect.width) / 2).raw), 8, context)
          }
        }
      }
    }
  }

  private func c0(_ l: GridLayout) -> Point { l.centre(of: 1) }
  private func c1(_ l: GridLayout) -> Point { l.centre(of: l.dotCount) }

  func testRotationMapsViewCornersToPanelCorners() {
    let t = ViewTransform(rotation: .clockwise90, panelWidth: 800, panelHeight: 480)
    XCTAssertEqual(t.viewWidth, 480)
    XCTAssertEqual(t.viewHeight, 800)
    XCTAssertEqual(t.panelPoint(fromView: Point(x: 0, y: 0)), Point(x: 800, y: 0))
    XCTAssertEqual(t.panelPoint(fromView: Point(x: 480, y: 0)), Point(x: 800, y: 480))
    let u = ViewTransform(rotation: .clockwise270, panelWidth: 800, panelHeight: 480)
    XCTAssertEqual(u.panelPoint(fromView: Point(x: 0, y: 0)), Point(x: 0, y: 480))
    let v = ViewTransform(rotation: .upsideDown, panelWidth: 800, panelHeight: 480)
    XCTAssertEqual(v.panelPoint(fromView: Point(x: 10, y: 20)), Point(x: 790, y: 460))
  }

  func testOutOfRangeOptionsAreRejectedWithAMessage() {
    func error(_ o: LayoutOptions) -> LayoutError? {
      do { _ = try GridLayout(o); return nil } catch { return error }
    }
    XCTAssertEqual(error(LayoutOptions(panelWidth: 239, panelHeight: 480)), .panelSizeOutOfRange(width: 239, height: 480))
    XCTAssertEqual(error(LayoutOptions(panelWidth: 800, panelHeight: 3841)), .panelSizeOutOfRange(width: 800, height: 3841))
    XCTAssertEqual(error(LayoutOptions(gridSize: 2)), .gridSizeOutOfRange(2))
    XCTAssertEqual(error(LayoutOptions(gridSize: 8)), .gridSizeOutOfRange(8))
    XCTAssertEqual(error(LayoutOptions(dotsPerInch: 5)), .dpiOutOfRange(5))
    XCTAssertEqual(error(LayoutOptions(hitRadiusPerMille: 1001)), .hitRadiusOutOfRange(1001))
    XCTAssertTrue(LayoutError.gridSizeOutOfRange(8).message.contains("3 to 7"))
  }

  func testDpiFromPhysicalSizeIgnoresNonsense() {
    XCTAssertEqual(LayoutOptions.dotsPerInch(pixels: 800, millimetres: 155), 131)
    XCTAssertNil(LayoutOptions.dotsPerInch(pixels: 800, millimetres: 0))
    XCTAssertNil(LayoutOptions.dotsPerInch(pixels: 800, millimetres: 16))  // centimetres reported as mm
    XCTAssertNil(LayoutOptions.dotsPerInch(pixels: 1920, millimetres: 2000))
  }

  func testJsonListsDotsInPanelPixels() throws {
    let l = try layout(800, 480, rotation: .clockwise90)
    let json = l.json
    let p = l.transform.panelPoint(fromView: l.centre(of: 1))
    XCTAssertTrue(json.contains("{\"n\":1,\"x\":\(p.x.decimalString),\"y\":\(p.y.decimalString)}"), json)
    XCTAssertTrue(json.hasPrefix("{\"panel\":{\"width\":800,\"height\":480},\"rotate\":90,"), json)
    let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    XCTAssertEqual((decoded?["dots"] as? [Any])?.count, 9)
  }
}
