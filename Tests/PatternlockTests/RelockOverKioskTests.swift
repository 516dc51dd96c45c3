import CShim
import Foundation
import Glibc
import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import Typeface
import XCTest

import CommandKit
@testable import LockProgram

/// `run`'s locks over a kiosk, on the host: the product's loop and relock sequence
/// (`RunCommand.relockOverKiosk`), with a memory display, taps written into a pipe and
/// a stand-in for the kiosk's VT and service manager. The lock shown again after the
/// kiosk keeps the input mode (taps still unlock) and the language (its picture is the
/// first lock's).
final class RelockOverKioskTests: XCTestCase {
  /// What the display showed each time it was handed to the kiosk.
  final class HandOvers {
    var frames: [[UInt8]] = []
  }

  /// A memory display that can be handed over; it notes the picture it leaves.
  struct HandingDisplay: PanelDisplay {
    var memory: MemoryDisplay<XRGB8888>
    let handOvers: HandOvers
    typealias Pixel = XRGB8888
    typealias Failure = MemoryDisplay<XRGB8888>.Refused
    var width: Int { memory.width }
    var height: Int { memory.height }
    var pollDescriptor: Int32 { -1 }
    var isFlipPending: Bool { false }
    var isOutputOff: Bool { memory.isOutputOff }
    var canSwitchOff: Bool { false }
    

    var summary: String { "memory" }
    var canHandOver: Bool { true }
    mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool { try memory.show(frame, damage: damage) }
    mutating func completeFlip() throws(Failure) -> UInt64? { nil }
    mutating func switchOff() throws(Failure) { try memory.switchOff() }
    mutating func switchOn(showing frame: [UInt8]) throws(Failure) { try memory.switchOn(showing: frame) }
    mutating func handOver() { handOvers.frames.append(memory.frame) }
  }

  /// One pattern of taps per lock: a byte in the pipe lets the next one through.
  final class TapScript {
    let read: Int32, write: Int32
    var patterns: [[TouchEvent]]
    init(_ patterns: [[TouchEvent]]) {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
      self.patterns = patterns
    }
    deinit {
      close(read)
      close(write)
    }
    func release() { var byte: UInt8 = 1; _ = Glibc.write(write, &byte, 1) }
  }

  struct ScriptedTaps: InputSource {
    struct NoMoreInput: DescribedError { var message: String { "no more taps" } }
    let script: TapScript
    var pollDescriptor: Int32 { script.read }
    var nextEventTime: UInt64? { nil }
    mutating func drain(upTo now: UInt64, _ handle: (InputEvent) -> Void) throws(NoMoreInput) {
      var pending = pollfd(fd: script.read, events: Int16(POLLIN), revents: 0)
      guard poll(&pending, 1, 0) == 1 else { return }
      var byte: UInt8 = 0
      _ = Glibc.read(script.read, &byte, 1)
      guard !script.patterns.isEmpty else { throw NoMoreInput() }
      for event in script.patterns.removeFirst() { handle(.touch(event)) }
    }
  }

  /// The kiosk's VT and systemd, as far as the lock sees them: the display is handed
  /// over, and the stay ends in a relock (the taps of the next lock let through), then
  /// in SIGTERM.
  struct StandInKiosk: KioskStay {
    let script: TapScript
    let relocks: Int
    var stays = 0
    mutating func stay<D: Display & ~Copyable, I: InputSource & ~Copyable>(
      loop: inout EventLoop, display: inout D, input: inout I
    ) -> KioskEnding {
      stays += 1
      display.handOver()
      guard stays <= relocks else { return .signal(SIGTERM) }
      script.release()
      return .relock
    }
  }

  /// Taps on `dots` and on the last again (which confirms), ending before `end`.
  private func taps(_ dots: [Int], on layout: GridLayout, endingBefore end: UInt64) -> [TouchEvent] {
    let all = dots + [dots.last!]
    var time = end - UInt64(all.count) * 200_000
    var events: [TouchEvent] = []
    for dot in all {
      let centre = layout.centre(of: dot)
      events.append(TouchEvent(kind: .down, slot: 0, position: centre, timeMicroseconds: time))
      events.append(TouchEvent(kind: .frame, slot: 0, position: centre, timeMicroseconds: time))
      events.append(TouchEvent(kind: .up, slot: 0, position: centre, timeMicroseconds: time + 50_000))
      events.append(TouchEvent(kind: .frame, slot: 0, position: centre, timeMicroseconds: time + 50_000))
      time += 200_000
    }
    return events
  }

  func testTheLockShownAgainOverTheKioskKeepsInputModeAndLanguage() throws {
    try XCTSkipUnless(FileManager.default.fileExists(atPath: FontLoader.defaultFontPath), "needs \(FontLoader.defaultFontPath)")
    // The settings' input mode (both: a touch that stays on a dot taps), in German; a
    // short verdict, so each unlock's picture is shown and its loop ends soon; a
    // timeout ends a lock that the taps cannot open instead of leaving the test waiting.
    var configuration = ScreenConfiguration()
    configuration.language = .de
    configuration.feedbackMicroseconds = 50_000
    configuration.unattended = UnattendedTimeout(seconds: 5, action: .poweroff)
    let (layout, text) = try ScreenText.layOut(
      configuration.layout, message: "", fontPath: FontLoader.defaultFontPath, language: configuration.language,
      loadingFont: true, fontFailure: { XCTFail($0.message) })
    XCTAssertEqual(text.language, .de)
    let screens = RunScreens(configuration: configuration, layout: layout, text: text)

    let now = pl_monotonic_microseconds()
    let pattern = [1, 2, 3, 6]
    let script = TapScript([taps(pattern, on: layout, endingBefore: now), taps(pattern, on: layout, endingBefore: now)])
    script.release()
    var input = ScriptedTaps(script: script)
    let handOvers = HandOvers()
    var display = HandingDisplay(memory: MemoryDisplay<XRGB8888>(width: 800, height: 480), handOvers: handOvers)
    var judge = RunJudge.development(DevelopmentJudge(expected: DotSequence(pattern), minimumDots: 4, matchUnlocks: true))
    var loop = try EventLoop()
    var kiosk: StandInKiosk? = StandInKiosk(script: script, relocks: 1)

    var first = screens.screen(XRGB8888.self, minimumDots: 4, prompt: PromptText.drawPattern)
    let firstEnding = loop.run(display: &display, input: &input, screen: &first, judge: &judge)
    guard case .unlocked = firstEnding else { return XCTFail("the first lock did not open to taps: \(firstEnding)") }
    let ending = try RunCommand.relockOverKiosk(
      after: firstEnding, kiosk: &kiosk, screens: screens, minimumDots: 4, loop: &loop, display: &display, input: &input,
      judge: &judge)

    XCTAssertEqual(kiosk?.stays, 2, "the lock shown again over the kiosk did not open to taps (input mode lost)")
    guard case .signal(SIGTERM) = ending else { return XCTFail("ended with \(ending), not the kiosk's SIGTERM") }
    XCTAssertEqual(handOvers.frames.count, 2)
    XCTAssertTrue(handOvers.frames.first?.contains { $0 != 0 } ?? false, "the unlocked picture was never shown")
    XCTAssertTrue(
      handOvers.frames.count == 2 && handOvers.frames[0] == handOvers.frames[1],
      "the unlocked picture of the lock shown again differs from the first's (language lost)")
  }
}
