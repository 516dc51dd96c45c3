import PatternCore
import Wayland
import XCTest

/// The session lock with a moving grid: every output moves its own grid by its own
/// share of its own room, and a finger on another output's moved dot lands on the
/// tracker's moved dot (and the tracker's finger is drawn back on the output's grid).
final class MovingGridMappingTests: XCTestCase {
  let tracker = try! GridLayout(LayoutOptions(panelWidth: 1280, panelHeight: 720))
  let outputs = [
    try! GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 600)),
    try! GridLayout(LayoutOptions(panelWidth: 480, panelHeight: 800, messageLines: 2)),
    try! GridLayout(LayoutOptions(panelWidth: 1920, panelHeight: 1080, dotsPerInch: 96)),
  ]

  func testAMovedDotOnAnyOutputLandsOnTheTrackersMovedDot() {
    let placements = [
      GridPlacement.home, GridPlacement(shiftX: 16, shiftY: -16, quarterTurns: 0),
      GridPlacement(shiftX: -9, shiftY: 13, quarterTurns: 0), GridPlacement(shiftX: 0, shiftY: 0, quarterTurns: 3),
    ]
    for output in outputs {
      let home = GridMapping(grid: output.gridRect, reference: tracker.gridRect)
      for placement in placements {
        let mapping = home.placed(at: placement, layout: output, reference: tracker)
        for dot in 1...tracker.dotCount {
          let there = mapping.toReference(output.centre(of: dot, placedAt: placement))
          let wanted = tracker.centre(of: dot, placedAt: placement)
          let context = "\(output.gridRect) \(placement) dot \(dot)"
          // Within a hundredth of a pixel: only the scaling's rounding.
          XCTAssertLessThan(abs(Int(there.x.raw) - Int(wanted.x.raw)), 656, context)
          XCTAssertLessThan(abs(Int(there.y.raw) - Int(wanted.y.raw)), 656, context)
          let back = mapping.fromReference(wanted)
          let drawn = output.centre(of: dot, placedAt: placement)
          XCTAssertLessThan(abs(Int(back.x.raw) - Int(drawn.x.raw)), 656, context)
          XCTAssertLessThan(abs(Int(back.y.raw) - Int(drawn.y.raw)), 656, context)
        }
      }
    }
  }

  /// The seat's view of a surface follows the move: its positions land on the
  /// tracker's moved grid.
  func testTheSeatFollowsTheMovedGrid() {
    let output = outputs[0]
    let home = GridMapping(grid: output.gridRect, reference: tracker.gridRect)
    var input = SeatInput(surfaces: [
      SeatSurface(
        tag: 1, surfaceWidth: 1280, surfaceHeight: 720, frameWidth: 1280, frameHeight: 720, transform: tracker.transform,
        grid: .identity(tracker.gridRect)),
      SeatSurface(
        tag: 2, surfaceWidth: 800, surfaceHeight: 600, frameWidth: 800, frameHeight: 600, transform: output.transform,
        grid: home),
    ])
    let placement = GridPlacement(shiftX: 16, shiftY: 16, quarterTurns: 0)
    input.moveGrid(of: 2, to: home.placed(at: placement, layout: output, reference: tracker))
    let moved = input.surfaces[1].grid
    let dot5 = output.centre(of: 5, placedAt: placement)
    let landed = input.surfaces[1].trackerPoint(x: Int32(dot5.x.raw / 256), y: Int32(dot5.y.raw / 256))
    let wanted = tracker.centre(of: 5, placedAt: placement)
    XCTAssertLessThan(abs(Int(landed.x.raw) - Int(wanted.x.raw)), 65_536, "\(moved)")
    XCTAssertLessThan(abs(Int(landed.y.raw) - Int(wanted.y.raw)), 65_536, "\(moved)")
  }
}
