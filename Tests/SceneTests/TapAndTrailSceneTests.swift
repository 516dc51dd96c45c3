import GoldenSupport
import PatternCore
import Raster
import Scene
import XCTest

/// Golden frames of Android's options and of tap entry: dots tapped one by one (no
/// line on to a finger) and the confirmed pattern's verdict, the fading trail while
/// drawing, and stealth after a wrong try, which shows nothing of the path unless
/// `show-wrong` peeks.
final class TapAndTrailSceneTests: XCTestCase {
  private func golden(_ h: SceneHarness, _ state: LockScreenState, _ name: String) {
    assertMatchesGolden(
      h.fullFrame(state), width: h.width, height: h.height, stride: h.stride(for: .xrgb8888), format: .xrgb8888,
      area: "scene", name: name)
  }

  private var fading: Theme {
    var theme = Theme()
    theme.fadeTrail = true
    return theme
  }

  func testTapModeWithDotsTappedAndConfirmed() throws {
    for (capture, size, verdict) in [
      ("taps-1236", "800x480", LockScreenState.Appearance.success), ("taps-480x800-2589", "480x800", .wrong),
    ] {
      let h = try SceneHarness(capture: capture)
      let states = h.states(inputMode: .tap)
      let tapped = try XCTUnwrap(states.last { $0.trail.count == 3 && $0.appearance == .entry }, capture)
      XCTAssertNil(tapped.finger, "\(capture): taps draw no line on to a finger")
      golden(h, tapped, "tap-\(size)-3-dots")
      let confirmed = try XCTUnwrap(states.first { $0.appearance != .entry }, capture)
      XCTAssertEqual(confirmed.appearance, verdict, capture)
      XCTAssertEqual(confirmed.trail.count, 4, capture)
      golden(h, confirmed, "tap-\(size)-confirmed")
    }
  }

  func testFadingTrailWhileDrawing() throws {
    for (capture, size, dots) in [("z-1235789", "800x480", 5), ("portrait-480x800-25896", "480x800", 4)] {
      let h = try SceneHarness(capture: capture, theme: fading)
      let drawing = try XCTUnwrap(h.states().last { $0.trail.count == dots && $0.finger != nil }, capture)
      golden(h, drawing, "fade-trail-\(size)-drawing-\(dots)-dots")
    }
  }

  /// Along the fading line the older segment is fainter: between dots 1 and 2 the
  /// line is nearer the background than between 2 and 3, and the finger's segment is
  /// as the plain line draws it.
  func testTheOlderSegmentIsFainter() throws {
    let faded = try SceneHarness(capture: "z-1235789", theme: fading)
    let plain = try SceneHarness(capture: "z-1235789")
    let state = try XCTUnwrap(faded.states().last { $0.trail.count == 3 && $0.finger != nil })
    XCTAssertEqual(state.trail, DotSequence([1, 2, 3]))
    let a = faded.fullFrame(state), b = plain.fullFrame(state), idle = plain.fullFrame(LockScreenState(prompt: state.prompt))
    let stride = faded.stride(for: .xrgb8888)
    func distance(_ frame: [UInt8], x: Int, y: Int) -> Int {
      (0..<3).reduce(0) { $0 + abs(Int(frame[y * stride + x * 4 + $1]) - Int(idle[y * stride + x * 4 + $1])) }
    }
    // Dots 1, 2, 3 are at y 96, x 416, 560 and 704; the midpoints are off every ring.
    let older = distance(a, x: 488, y: 96), newer = distance(a, x: 632, y: 96), full = distance(b, x: 632, y: 96)
    XCTAssertGreaterThan(older, 0)
    XCTAssertLessThan(older, newer, "the oldest segment must be the faintest")
    XCTAssertLessThan(newer, full, "joined segments fade below the line's opacity")
    let finished = try XCTUnwrap(faded.states().first { $0.appearance != .entry })
    XCTAssertEqual(faded.fullFrame(finished), plain.fullFrame(finished), "a verdict shows the whole line")
  }

  func testStealthAfterAWrongTryShowsNothingOfThePath() throws {
    var stealth = Theme()
    stealth.stealth = true
    let h = try SceneHarness(capture: "z-1235789", theme: stealth)
    let wrong = try XCTUnwrap(h.states().first { $0.appearance == .wrong })
    XCTAssertEqual(wrong.trail.count, 7)
    golden(h, wrong, "stealth-800x480-wrong")
    let plain = try SceneHarness(capture: "z-1235789")
    XCTAssertEqual(h.fullFrame(wrong), plain.fullFrame(LockScreenState(appearance: .wrong, prompt: wrong.prompt)),
                   "only the prompt says it was wrong: no line, no lit dots")
  }

  /// `show-wrong = yes` in stealth: nothing while drawing, then the wrong try's path as
  /// without stealth; damaged redraws through the change equal full ones.
  func testStealthPeekShowsTheWrongPathOnlyAtTheVerdict() throws {
    var peeking = Theme()
    peeking.stealth = true
    peeking.stealthPeeksWrong = true
    var hidden = Theme()
    hidden.stealth = true
    let h = try SceneHarness(capture: "z-1235789", theme: peeking)
    let stealthy = try SceneHarness(capture: "z-1235789", theme: hidden)
    let plain = try SceneHarness(capture: "z-1235789")
    let states = h.states()
    let drawing = try XCTUnwrap(states.last { $0.appearance == .entry && $0.trail.count == 5 })
    XCTAssertEqual(h.fullFrame(drawing), stealthy.fullFrame(drawing), "nothing of the path while drawing")
    let wrong = try XCTUnwrap(states.first { $0.appearance == .wrong })
    XCTAssertEqual(h.fullFrame(wrong), plain.fullFrame(wrong), "the verdict shows the path as without stealth")
    XCTAssertNotEqual(h.fullFrame(wrong), stealthy.fullFrame(wrong))
    var incremental = h.makeFrame(.xrgb8888)
    var previous: LockScreenState? = nil
    for (index, state) in states.enumerated() {
      h.render(state, damage: h.renderer.damage(from: previous, to: state), into: &incremental, format: .xrgb8888)
      XCTAssertEqual(incremental, h.fullFrame(state), "frame \(index): damaged redraw differs from a full redraw")
      if incremental != h.fullFrame(state) { break }
      previous = state
    }
  }
}
