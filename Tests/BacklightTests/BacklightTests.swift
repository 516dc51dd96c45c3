import AllocationCounter
import Backlight
import CommandTestSupport
import Foundation
import PatternCore
import Raster
import Scene
import Screen
import ScreenTestSupport
import XCTest

/// The backlight against sysfs-shaped trees of its own: which device belongs to the
/// panel, ranges of 1, 31 and 255, a missing device, and one that cannot be written
/// (the lock then blanks with DPMS and says so once).
final class BacklightTests: XCTestCase {
  /// A tree with `class/backlight` (and `class/drm`) under a temporary root.
  private func tree() throws -> URL { try makeTemporaryDirectory(prefix: "patternlock-sysfs") }

  @discardableResult
  private func device(_ root: URL, _ relative: String, maximum: Int, level: Int) throws -> URL {
    let directory = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try "\(maximum)\n".write(to: directory.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
    try "\(level)\n".write(to: directory.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
    return directory
  }

  /// The level in the file (writes to a plain file do not truncate it, as sysfs's
  /// attributes need not: the first line is the level).
  private func level(_ directory: URL) throws -> Int? {
    Int(try String(contentsOf: directory.appendingPathComponent("brightness"), encoding: .utf8).split(separator: "\n").first ?? "")
  }

  private func find(_ root: URL, card: String = "card1", connector: String = "DSI-1", named: String? = nil) throws -> Backlight? {
    try Backlight.find(root: root.path, card: card, connector: connector, named: named)
  }

  struct NoBacklight: Error {}

  /// The backlight `find` gives, which must be one.
  private func found(_ root: URL, connector: String = "DSI-1", named: String? = nil) throws -> Backlight {
    let result = try find(root, connector: connector, named: named)
    switch consume result {
    case .some(let light): return light
    case .none: throw NoBacklight()
    }
  }

  /// Whether `find` gives one.
  private func exists(_ root: URL, connector: String = "DSI-1") throws -> Bool {
    let result = try find(root, connector: connector)
    switch consume result {
    case .some: return true
    case .none: return false
    }
  }

  /// What `find` throws, if it does.
  private func failure(_ root: URL, named: String? = nil) -> BacklightError? {
    do throws(BacklightError) {
      _ = try Backlight.find(root: root.path, card: "card1", connector: "DSI-1", named: named)
      return nil
    } catch {
      return error
    }
  }

  func testTheOnlyBacklightIsThePanels() throws {
    let root = try tree()
    try device(root, "class/backlight/rpi_backlight", maximum: 255, level: 200)
    let light = try found(root)
    XCTAssertEqual(light.name, "rpi_backlight")
    XCTAssertEqual(light.maximum, 255)
    XCTAssertEqual(light.initial, 200)
  }

  func testTheConnectorsOwnBacklightWinsOverOthers() throws {
    let root = try tree()
    try device(root, "class/backlight/acpi_video0", maximum: 100, level: 50)
    try device(root, "class/backlight/intel_backlight", maximum: 31, level: 12)
    try device(root, "class/drm/card1-eDP-1/intel_backlight", maximum: 31, level: 12)
    let light = try found(root, connector: "eDP-1")
    XCTAssertEqual(light.name, "intel_backlight")
    XCTAssertEqual(light.maximum, 31)
    XCTAssertFalse(try exists(root, connector: "HDMI-A-1"), "several, none of them this output's: none is guessed")
  }

  func testNoBacklightIsNone() throws {
    XCTAssertFalse(try exists(try tree()))
  }

  func testANamedBacklightMustBeThere() throws {
    let root = try tree()
    try device(root, "class/backlight/10-0045", maximum: 255, level: 255)
    try device(root, "class/backlight/4-0045", maximum: 31, level: 31)
    XCTAssertEqual(try found(root, named: "4-0045").maximum, 31)
    XCTAssertEqual(
      failure(root, named: "rpi_backlight")?.message,
      "no backlight rpi_backlight in \(root.path)/class/backlight (there: 10-0045, 4-0045); set backlight = auto, none, or one of those")
  }

  func testRangesFromOneTo255AreSwitchedTheSameWay() throws {
    for (maximum, start) in [(1, 1), (31, 20), (255, 0)] {
      let root = try tree()
      let directory = try device(root, "class/backlight/panel", maximum: maximum, level: start)
      do {
        var light = try found(root)
        XCTAssertEqual(light.initial, start == 0 ? maximum : start, "a dark panel is lit at its whole range")
        try light.switchOff()
        XCTAssertEqual(try level(directory), 0)
        try light.switchOn()
        XCTAssertEqual(try level(directory), light.initial)
        try light.switchOff()
      }
      XCTAssertEqual(try level(directory), start == 0 ? maximum : start, "given back as found when the lock ends")
    }
  }

  func testAnUnreadableDeviceSaysWhichFile() throws {
    let root = try tree()
    let directory = try device(root, "class/backlight/panel", maximum: 255, level: 3)
    try "lots\n".write(to: directory.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
    XCTAssertEqual(failure(root), .unreadable(path: directory.path + "/max_brightness", why: "not a number"))
  }

  /// A backlight whose level file cannot be written (a read-only number in /proc, for
  /// root too): switching off falls back to DPMS, and that is said once.
  func testAnUnwritableBacklightFallsBackToSwitchingTheDisplayOff() throws {
    let root = try tree()
    let directory = root.appendingPathComponent("class/backlight/panel")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try "255\n".write(to: directory.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("brightness").path, withDestinationPath: "/proc/sys/kernel/ngroups_max")
    var panel = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 8, height: 4, canSwitchOff: true), light: try find(root), dimPercent: 20)
    try panel.switchOff()
    XCTAssertEqual(panel.panel.switchedOff, 1, "DPMS instead")
    let notice = try XCTUnwrap(panel.takeNotice())
    XCTAssertTrue(notice.hasPrefix("cannot write \(directory.path)/brightness ("), notice)
    XCTAssertTrue(notice.hasSuffix("blanking switches the display off instead"), notice)
    XCTAssertFalse(notice.contains("\n"))
    XCTAssertNil(panel.takeNotice(), "said once")
    try panel.switchOn(showing: [UInt8](repeating: 0, count: 8 * 4 * 4))
    try panel.switchOff()
    XCTAssertEqual(panel.panel.switchedOff, 2, "the backlight is not tried again")
  }

  /// The lock's idle blanking through the backlit panel: the backlight goes off and
  /// the panel stays powered; the waking touch shows the current picture first and
  /// lights it once that frame is shown.
  func testBlankingSwitchesTheBacklightOffAndWakingLightsTheCurrentPicture() throws {
    let root = try tree()
    let directory = try device(root, "class/backlight/rpi_backlight", maximum: 255, level: 180)
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(idleBlankMicroseconds: 1_000_000))
    var display = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: true), light: try find(root), dimPercent: 20)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    screen.advance(to: 0, judge: &judge)
    _ = try screen.present(on: &display, at: 0)
    screen.advance(to: 1_000_000, judge: &judge)
    XCTAssertTrue(screen.isBlanked)
    _ = try screen.present(on: &display, at: 1_000_000)
    XCTAssertEqual(try level(directory), 0)
    XCTAssertEqual(display.panel.switchedOff, 0, "the panel stays powered")
    XCTAssertTrue(display.isOutputOff)
    let shownBefore = display.panel.presented
    let touch = TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 5), timeMicroseconds: 2_000_000)
    screen.receive(.touch(touch), at: 2_000_000, judge: &judge)
    XCTAssertFalse(screen.isBlanked)
    _ = try screen.present(on: &display, at: 2_000_000)
    XCTAssertEqual(display.panel.presented, shownBefore + 1, "the current picture, whole")
    XCTAssertEqual(display.panel.frame, screen.picture.frame)
    XCTAssertEqual(try level(directory), 180, "lit again at its level")
    XCTAssertFalse(display.isOutputOff)
    XCTAssertNil(display.takeNotice())
  }

  // MARK: Dimming and brightness

  func testPercentToLevelRoundsToTheNearestAndNeverSwitchesOff() {
    XCTAssertEqual([1, 20, 50, 100].map { Backlight.level(percent: $0, of: 1) }, [1, 1, 1, 1])
    XCTAssertEqual([1, 2, 20, 40, 50, 99, 100].map { Backlight.level(percent: $0, of: 31) }, [1, 1, 6, 12, 16, 31, 31])
    XCTAssertEqual([1, 20, 40, 50, 100].map { Backlight.level(percent: $0, of: 255) }, [3, 51, 102, 128, 255])
    XCTAssertEqual(Backlight.level(percent: 0, of: 255), 3, "below 1 % is 1 %")
    XCTAssertEqual(Backlight.level(percent: 250, of: 255), 255)
    XCTAssertEqual(Backlight.percent(level: 12, of: 31), 39, "40 % of 31 reads back as what it is")
    XCTAssertEqual(Backlight.percent(level: 1, of: 31), 3)
    XCTAssertEqual(Backlight.percent(level: 51, of: 255), 20)
    XCTAssertEqual(Backlight.percent(level: 1, of: 1), 100)
    XCTAssertEqual(Backlight.percent(level: 1, of: 1000), 1, "a lit panel is at least 1 %")
    for maximum in [1, 2, 7, 31, 100, 255, 1023, 65535] {
      var last = 0
      for percent in 1...100 {
        let level = Backlight.level(percent: percent, of: maximum)
        XCTAssertTrue((1...maximum).contains(level), "\(percent) % of \(maximum) is \(level)")
        XCTAssertGreaterThanOrEqual(level, last, "\(percent) % of \(maximum) is darker than \(percent - 1) %")
        last = level
      }
    }
  }

  /// The lock screen through the backlit panel: after dim-after-s the light goes to
  /// dim-level with the picture kept (no frame for it); a touch brightens it and
  /// draws; the door brightens it too; blanking after it switches the light off.
  func testTheLockDimsThenBrightensOnInputAndTheDoor() throws {
    let second: UInt64 = 1_000_000
    let root = try tree()
    let directory = try device(root, "class/backlight/4-0045", maximum: 31, level: 25)
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(
      testing: layout, .testing(idleBlankMicroseconds: 30 * second, dimAfterMicroseconds: 10 * second))
    var display = BacklitPanel(
      panel: MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: true), light: try find(root), dimPercent: 20)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    var rules = LiveStepRules()
    rules.start(screen, at: 0)
    rules.timerFired(at: 0, screen: &screen, judge: &judge)
    _ = try screen.present(on: &display, at: 0)
    XCTAssertEqual(rules.takeTimerDelay(), 10 * second)
    rules.timerFired(at: 10 * second, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isDimmed)
    let framesBefore = display.panel.presented
    XCTAssertTrue(rules.shouldPresent(screen, on: display))
    _ = try screen.present(on: &display, at: 10 * second)
    XCTAssertEqual(try level(directory), 6, "20 % of 31")
    XCTAssertEqual(display.panel.presented, framesBefore, "the picture stays; no frame for dimming")
    XCTAssertFalse(display.isOutputOff)

    let down = TouchEvent(kind: .down, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 11 * second)
    rules.receive(.touch(down), at: 11 * second, screen: &screen, judge: &judge)
    XCTAssertFalse(screen.isDimmed)
    _ = try screen.present(on: &display, at: 11 * second)
    XCTAssertEqual(try level(directory), 25, "its normal level again")
    XCTAssertEqual(screen.controller.state.trail, DotSequence([1]), "and the touch drew")
    let up = TouchEvent(kind: .up, slot: 0, position: layout.centre(of: 1), timeMicroseconds: 11 * second + 1)
    rules.receive(.touch(up), at: 11 * second + 1, screen: &screen, judge: &judge)

    rules.timerFired(at: 22 * second, screen: &screen, judge: &judge)
    _ = try screen.present(on: &display, at: 22 * second)
    XCTAssertEqual(try level(directory), 6)
    rules.activity(at: 23 * second, screen: &screen)
    _ = try screen.present(on: &display, at: 23 * second)
    XCTAssertEqual(try level(directory), 25, "someone at the door")

    rules.timerFired(at: 33 * second, screen: &screen, judge: &judge)
    _ = try screen.present(on: &display, at: 33 * second)
    rules.timerFired(at: 53 * second, screen: &screen, judge: &judge)
    XCTAssertTrue(screen.isBlanked)
    _ = try screen.present(on: &display, at: 53 * second)
    XCTAssertEqual(try level(directory), 0, "blank after dim")
    XCTAssertNil(display.takeNotice())
  }

  func testDimmingNeverBrightensAPanelTurnedDown() throws {
    let root = try tree()
    let directory = try device(root, "class/backlight/panel", maximum: 31, level: 3)
    var panel = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 8, height: 4, canSwitchOff: true), light: try find(root), dimPercent: 50)
    panel.dim(true)
    XCTAssertEqual(try level(directory), 3)
    panel.dim(false)
    XCTAssertEqual(try level(directory), 3)
  }

  /// Without a backlight dimming does nothing, and that is said once.
  func testWithoutABacklightDimmingIsSaidOnce() throws {
    var panel = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 8, height: 4, canSwitchOff: true), light: nil, dimPercent: 20)
    XCTAssertNil(panel.takeNotice())
    panel.dim(true)
    let notice = try XCTUnwrap(panel.takeNotice())
    XCTAssertTrue(notice.hasPrefix("dim-after-s: "), notice)
    XCTAssertTrue(notice.hasSuffix("set backlight = NAME or dim-after-s = 0"), notice)
    XCTAssertFalse(notice.contains("\n"))
    panel.dim(false)
    panel.dim(true)
    XCTAssertNil(panel.takeNotice(), "said once")
    XCTAssertNil(panel.setBrightness(percent: 40), "nothing to set")
    XCTAssertNil(panel.brightnessPercent)
  }

  /// Home Assistant's brightness is the normal level: written at once on a lit panel,
  /// kept for the waking of a dimmed or blank one, and the level it reads back as is
  /// what is reported; the level found is given back when the lock ends.
  func testABrightnessSetsTheNormalLevel() throws {
    let root = try tree()
    let directory = try device(root, "class/backlight/4-0045", maximum: 31, level: 25)
    do {
      var panel = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 8, height: 4, canSwitchOff: true), light: try find(root), dimPercent: 20)
      XCTAssertEqual(panel.brightnessPercent, 81)
      XCTAssertEqual(panel.setBrightness(percent: 40), 39)
      XCTAssertEqual(try level(directory), 12)
      panel.dim(true)
      XCTAssertEqual(try level(directory), 6)
      XCTAssertEqual(panel.setBrightness(percent: 10), 10)
      XCTAssertEqual(try level(directory), 3, "dimmed, never above the new normal level")
      XCTAssertEqual(panel.setBrightness(percent: 100), 100)
      XCTAssertEqual(try level(directory), 6, "still dimmed")
      panel.dim(false)
      XCTAssertEqual(try level(directory), 31)
      try panel.switchOff()
      XCTAssertEqual(panel.setBrightness(percent: 50), 52)
      XCTAssertEqual(try level(directory), 0, "a blank panel stays dark")
      try panel.switchOn(showing: [UInt8](repeating: 0, count: 8 * 4 * 4))
      XCTAssertEqual(try level(directory), 16)
    }
    XCTAssertEqual(try level(directory), 25, "given back as found")
  }

  /// Dimming and the touch that brightens the panel again write the backlight on the
  /// loop's path: neither allocates.
  func testDimmingAndBrighteningAllocateNothing() throws {
    let second: UInt64 = 1_000_000
    let root = try tree()
    let directory = try device(root, "class/backlight/rpi_backlight", maximum: 255, level: 200)
    let layout = try GridLayout(LayoutOptions())
    var screen = LockScreen<XRGB8888>(testing: layout, .testing(dimAfterMicroseconds: 10 * second))
    var display = BacklitPanel(
      panel: MemoryDisplay<XRGB8888>(width: 800, height: 480, canSwitchOff: true), light: try find(root), dimPercent: 20)
    var judge = MatchJudge(DotSequence([1, 2, 3, 6]))
    let position = layout.centre(of: 5)
    screen.advance(to: 0, judge: &judge)
    _ = try screen.present(on: &display, at: 0)
    var counted: [Int64] = []
    var levels: [Int] = []
    counted.reserveCapacity(2)
    // The first round makes the runtime's metadata; the second is counted.
    for round in 0..<2 {
      let start = UInt64(round) * 100 * second
      if round == 1 { allocation_counter_start() }
      screen.advance(to: start + 50 * second, judge: &judge)
      _ = try screen.present(on: &display, at: start + 50 * second)
      if round == 1 { counted.append(allocation_counter_stop()) }
      levels.append(try level(directory) ?? -1)
      let down = TouchEvent(kind: .down, slot: 0, position: position, timeMicroseconds: start + 60 * second)
      if round == 1 { allocation_counter_start() }
      screen.receive(.touch(down), at: start + 60 * second, judge: &judge)
      _ = try screen.present(on: &display, at: start + 60 * second)
      if round == 1 { counted.append(allocation_counter_stop()) }
      levels.append(try level(directory) ?? -1)
      // The finger lifts (a pattern too short to judge), uncounted: this is about the light.
      let up = TouchEvent(kind: .up, slot: 0, position: position, timeMicroseconds: start + 61 * second)
      screen.receive(.touch(up), at: start + 61 * second, judge: &judge)
      _ = try screen.present(on: &display, at: start + 61 * second)
    }
    XCTAssertEqual(levels, [51, 200, 51, 200], "dimmed to 20 % of 255 and lit again, each round")
    XCTAssertEqual(counted, [0, 0], "dimming, then brightening on a touch, allocated")
  }

  /// A remote unlock opens the kiosk from a blank or dimmed lock with no touch: the
  /// kiosk's session gets the panel lit at its normal level.
  func testTheKioskGetsThePanelLit() throws {
    let root = try tree()
    let directory = try device(root, "class/backlight/10-0045", maximum: 255, level: 180)
    var panel = BacklitPanel(panel: MemoryDisplay<XRGB8888>(width: 8, height: 4, canSwitchOff: true), light: try find(root), dimPercent: 20)
    panel.dim(true)
    XCTAssertEqual(try level(directory), 51)
    panel.handOver()
    XCTAssertEqual(try level(directory), 180, "dimmed, then handed over")
    try panel.switchOff()
    XCTAssertEqual(try level(directory), 0)
    panel.handOver()
    XCTAssertEqual(try level(directory), 180, "blank, then handed over")
    XCTAssertFalse(panel.isOutputOff)
  }
}
