import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import Typeface
import Wayland
import XCTest

/// Two outputs of different sizes and scales: the one a gesture starts on owns it and
/// shows the drawing, the other shows the prompt and the verdicts without the pattern;
/// keys draw on the output last touched. The tracker is laid out for the first output.
final class GestureOwnerTests: XCTestCase {
  /// Output 1: 640x360 logical at scale 2 (1280x720 frames), the tracker's.
  /// Output 2: 800x600 logical at scale 1.
  let first = try! GridLayout(LayoutOptions(panelWidth: 1280, panelHeight: 720))
  let second = try! GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 600))

  func makeInput() -> SeatInput {
    SeatInput(surfaces: [
      SeatSurface(
        tag: 1, surfaceWidth: 640, surfaceHeight: 360, frameWidth: 1280, frameHeight: 720, transform: first.transform,
        grid: .identity(first.gridRect)),
      SeatSurface(
        tag: 2, surfaceWidth: 800, surfaceHeight: 600, frameWidth: 800, frameHeight: 600, transform: second.transform,
        grid: GridMapping(grid: second.gridRect, reference: first.gridRect)),
    ])
  }

  /// A layout's dot centre as a surface-local wl_fixed_t position at `scale`.
  func fixed(_ layout: GridLayout, _ dot: Int, scale: Int = 1) -> (Int32, Int32) {
    let centre = layout.centre(of: dot)
    return (Int32(centre.x.raw / 256) / Int32(scale), Int32(centre.y.raw / 256) / Int32(scale))
  }

  /// Drives `screen` with the seat's events, one millisecond apart.
  func feed(_ seat: [SeatEvent], _ input: inout SeatInput, _ screen: inout LockScreen<XRGB8888>, _ judge: inout MatchJudge, from start: UInt64 = 1_000_000) {
    for (index, event) in seat.enumerated() {
      let now = start + UInt64(index) * 1000
      var events: [InputEvent] = []
      input.translate(event, at: now) { events.append($0) }
      for e in events { screen.receive(e, at: now, judge: &judge) }
    }
  }

  /// The left button pressed on `surface` at `dots[0]` and moved through the rest.
  func drag(on surface: UInt32, _ layout: GridLayout, _ dots: [Int], scale: Int = 1, release: Bool) -> [SeatEvent] {
    let (x0, y0) = fixed(layout, dots[0], scale: scale)
    var seat: [SeatEvent] = [.pointerEnter(surface: surface, x: x0, y: y0), .pointerButton(timeMilliseconds: 0, button: 0x110, pressed: true)]
    for dot in dots.dropFirst() {
      let (x, y) = fixed(layout, dot, scale: scale)
      seat.append(.pointerMotion(timeMilliseconds: 0, x: x, y: y))
    }
    if release { seat.append(.pointerButton(timeMilliseconds: 0, button: 0x110, pressed: false)) }
    return seat
  }

  /// `state` drawn by a renderer laid out for `layout`, with the prompt's glyphs.
  func render(_ layout: GridLayout, _ state: LockScreenState) -> [UInt8] {
    let atlas = try? FontLoader.loadAtlas(pixelSize: layout.fontPixels)
    XCTAssertNotNil(atlas, "the default font is needed to see the prompt")
    var picture = LockPicture<XRGB8888>(renderer: LockScreenRenderer(layout: layout, atlas: atlas))
    _ = picture.render(state)
    return picture.frame
  }

  func testAGestureOnTheSecondOutputIsDrawnThereAndOnlyThere() {
    var input = makeInput()
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    XCTAssertEqual(input.owner, 1, "the first output owns until a gesture starts elsewhere")
    feed(drag(on: 2, second, [1, 2, 3], release: false), &input, &screen, &judge)
    XCTAssertEqual(input.owner, 2)
    let state = screen.controller.state
    XCTAssertEqual(state.trail, DotSequence([1, 2, 3]), "the second output's dots are the tracker's")

    let owned = state.shown(ownsGesture: true, grid: GridMapping(grid: second.gridRect, reference: first.gridRect))
    let finger = try! XCTUnwrap(owned.finger)
    let want = second.centre(of: 3)
    XCTAssertLessThanOrEqual(abs(Int(finger.x.raw) - Int(want.x.raw)), 256, "the finger is drawn where it is on the second output")
    XCTAssertLessThanOrEqual(abs(Int(finger.y.raw) - Int(want.y.raw)), 256)
    // The second output's picture is the drawing laid out for 800x600 ...
    var direct = LockScreenState(trail: DotSequence([1, 2, 3]), finger: finger, prompt: state.prompt)
    direct.appearance = state.appearance
    XCTAssertTrue(render(second, owned) == render(second, direct), "the drawing laid out for the second output")
    XCTAssertFalse(render(second, owned) == render(second, state.withoutDrawing), "the drawing shows on its output")
    // ... and the first shows the idle prompt and dots, no trail.
    let beside = state.shown(ownsGesture: false, grid: .identity(first.gridRect))
    XCTAssertEqual(beside.trail.count, 0)
    XCTAssertNil(beside.finger)
    XCTAssertTrue(render(first, beside) == render(first, LockScreenState(prompt: .drawPattern)), "the idle screen")
  }

  func testTheVerdictShowsOnEveryOutputThePatternOnlyOnItsOwn() {
    var input = makeInput()
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    feed(drag(on: 2, second, [1, 4, 7, 8], release: true), &input, &screen, &judge)
    let state = screen.controller.state
    XCTAssertEqual(state.appearance, .wrong)
    let beside = state.shown(ownsGesture: false, grid: .identity(first.gridRect))
    XCTAssertEqual(beside.appearance, .wrong, "the other output says the pattern was wrong")
    XCTAssertEqual(beside.prompt, state.prompt)
    XCTAssertEqual(beside.trail.count, 0, "without showing it")
    XCTAssertFalse(render(first, beside) == render(first, LockScreenState(prompt: .drawPattern)), "the verdict's prompt shows")
    let owned = state.shown(ownsGesture: true, grid: GridMapping(grid: second.gridRect, reference: first.gridRect))
    XCTAssertEqual(owned.trail, DotSequence([1, 4, 7, 8]))
  }

  func testOnceAGestureRunsTheOtherOutputDrawsNothing() {
    var input = makeInput()
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    let (x, y) = fixed(first, 1, scale: 2)
    let (x2, y2) = fixed(second, 9)
    feed(
      [
        .touchDown(surface: 1, id: 0, timeMilliseconds: 0, x: x, y: y), .touchFrame,
        .touchDown(surface: 2, id: 1, timeMilliseconds: 0, x: x2, y: y2), .touchFrame,
        .pointerEnter(surface: 2, x: x2, y: y2), .pointerButton(timeMilliseconds: 0, button: 0x110, pressed: true),
      ], &input, &screen, &judge)
    XCTAssertEqual(input.owner, 1, "the first finger owns the gesture")
    XCTAssertEqual(screen.controller.state.trail, DotSequence([1]))
  }

  func testKeysDrawOnTheOutputLastTouched() {
    var input = makeInput()
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    // A tap on the second output (too short to judge) makes it the owner.
    let (x, y) = fixed(second, 5)
    feed(
      [.touchDown(surface: 2, id: 0, timeMilliseconds: 0, x: x, y: y), .touchFrame, .touchUp(id: 0, timeMilliseconds: 0), .touchFrame],
      &input, &screen, &judge)
    XCTAssertEqual(input.owner, 2)
    feed([.key(keysym: 0x31, evdevCode: 2), .key(keysym: 0x32, evdevCode: 3)], &input, &screen, &judge, from: 5_000_000)
    let state = screen.controller.state
    XCTAssertEqual(state.trail, DotSequence([1, 2]))
    XCTAssertEqual(state.shown(ownsGesture: input.owner == 2, grid: .identity(second.gridRect)).trail, DotSequence([1, 2]))
    XCTAssertEqual(state.shown(ownsGesture: input.owner == 1, grid: .identity(first.gridRect)).trail.count, 0)
  }

  func testAnOutputLaidOutAgainKeepsTheOwnerOrFallsBackToTheFirst() {
    var input = makeInput()
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    feed(drag(on: 2, second, [1, 2], release: true), &input, &screen, &judge)
    XCTAssertEqual(input.owner, 2)
    input.replaceSurfaces(input.surfaces)
    XCTAssertEqual(input.owner, 2)
    input.replaceSurfaces([input.surfaces[0]])
    XCTAssertEqual(input.owner, 1, "the second output went: the first owns")
  }

  func testGridMappingPutsDotOnDot() {
    let mapping = GridMapping(grid: second.gridRect, reference: first.gridRect)
    for dot in 1...9 {
      let mapped = mapping.toReference(second.centre(of: dot))
      let want = first.centre(of: dot)
      XCTAssertLessThanOrEqual(abs(Int(mapped.x.raw) - Int(want.x.raw)), 2, "dot \(dot)")
      XCTAssertLessThanOrEqual(abs(Int(mapped.y.raw) - Int(want.y.raw)), 2, "dot \(dot)")
      let back = mapping.fromReference(want)
      XCTAssertLessThanOrEqual(abs(Int(back.x.raw) - Int(second.centre(of: dot).x.raw)), 2, "dot \(dot)")
    }
  }

  func testThePowerButtonIsPressedOnAnyOutput() throws {
    let first = try GridLayout(LayoutOptions(panelWidth: 1280, panelHeight: 720, powerButton: true))
    let second = try GridLayout(LayoutOptions(panelWidth: 800, panelHeight: 600, powerButton: true))
    var input = SeatInput(surfaces: [
      SeatSurface(
        tag: 1, surfaceWidth: 1280, surfaceHeight: 720, frameWidth: 1280, frameHeight: 720, transform: first.transform,
        grid: GridMapping(grid: first.gridRect, reference: first.gridRect, button: first.powerButtonRect, referenceButton: first.powerButtonRect)),
      SeatSurface(
        tag: 2, surfaceWidth: 800, surfaceHeight: 600, frameWidth: 800, frameHeight: 600, transform: second.transform,
        grid: GridMapping(grid: second.gridRect, reference: first.gridRect, button: second.powerButtonRect, referenceButton: first.powerButtonRect)),
    ])
    var screen = LockScreen<XRGB8888>(testing: first)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    let box = second.powerButtonRect
    XCTAssertFalse(box.isEmpty)
    let (x, y) = (Int32((box.x + box.width / 2) * 256), Int32((box.y + box.height / 2) * 256))
    feed([.touchDown(surface: 2, id: 0, timeMilliseconds: 0, x: x, y: y), .touchFrame], &input, &screen, &judge)
    XCTAssertEqual(screen.controller.state.powerPress, 0, "the second output's power button is the tracker's")
    XCTAssertEqual(screen.controller.state.trail.count, 0)
  }
}
