import CShim
import Input
import PatternCore
import Raster
import Scene

/// The lock screen on a live display: the controller fed by input and the clock,
/// drawn by the Scene renderer into an upright shadow frame in cached memory, then
/// copied, turned to the panel, into the panel-sized frame the display presents.
///
/// Both frames are made once; `render` draws only the damaged rectangles and
/// allocates nothing, as in the headless dumps (`FrameDump`), which go through the
/// same renderer and the same copy.
struct LiveLockScreen {
  private(set) var controller: LockScreenController
  let renderer: LockScreenRenderer
  /// The panel-sized XRGB8888 frame handed to the display.
  private(set) var panel: [UInt32]
  private var view: [UInt32]
  private var shown: LockScreenState?
  /// Set once a pattern that unlocks was entered.
  private(set) var unlocked = false

  /// - Parameters:
  ///   - minimumDots: the fewest dots for a pattern that is checked at all.
  ///   - feedbackMicroseconds: how long a verdict stays on screen (`--feedback-ms`).
  ///   - idleBlankMicroseconds: blank the screen after this long without input (`idle-blank-s`).
  ///   - prompt: the line shown while waiting for a pattern.
  init(
    layout: GridLayout, theme: Theme, atlas: GlyphAtlas?, minimumDots: Int = 4, feedbackMicroseconds: UInt64 = 500_000,
    idleBlankMicroseconds: UInt64? = nil, prompt: PromptText = PromptText.drawPattern
  ) {
    controller = LockScreenController(
      layout: layout, minimumDots: minimumDots, feedbackMicroseconds: feedbackMicroseconds, idlePrompt: prompt,
      idleBlankMicroseconds: idleBlankMicroseconds)
    renderer = LockScreenRenderer(layout: layout, theme: theme, atlas: atlas)
    let t = layout.transform
    panel = [UInt32](repeating: 0, count: t.panelWidth * t.panelHeight)
    view = t.rotation == .none ? [] : [UInt32](repeating: 0, count: t.viewWidth * t.viewHeight)
  }

  /// Whether the picture on screen is out of date.
  var isDirty: Bool { shown != controller.state }

  /// Draw everything on the next render (the output came back after a hotplug).
  mutating func invalidate() { shown = nil }

  /// Whether the screen is blanked (idle); the next input only wakes it.
  var isBlanked: Bool { controller.isBlanked }

  /// When the verdict on screen ends, if one is showing.
  var feedbackEnds: UInt64? { controller.feedbackEnds }

  /// When the picture next changes by itself (a verdict ends, a countdown ticks).
  func nextChange(after now: UInt64) -> UInt64? { controller.nextChange(after: now) }

  /// Applies one input event at `now` (CLOCK_MONOTONIC microseconds).
  ///
  /// - Returns: the finished pattern, for the caller to judge and pass to `apply`.
  mutating func handle(_ event: InputEvent, now: UInt64) -> GestureOutcome? {
    switch event {
    case .touch(let touch): return controller.handle(touch)
    case .key(.dot(let n)): controller.keyDot(n, at: now)
    case .key(.removeLast): controller.keyBackspace(at: now)
    case .key(.clear): controller.keyClear(at: now)
    case .key(.submit): return controller.keySubmit(at: now)
    case .cursor(let p): controller.movePointer(to: p)
    case .deviceAdded, .deviceRemoved: break
    }
    return nil
  }

  /// Shows the caller's judgement of a finished pattern (as `FrameScript` does in a
  /// replay: the controller applies it).
  mutating func apply(_ judgement: LockScreenController.Judgement, for outcome: GestureOutcome, now: UInt64) {
    controller.apply(judgement, for: outcome, at: now)
    if judgement.unlocks { unlocked = true }
  }

  /// Refuses input from the start (a lockout that was running before a restart).
  mutating func startLockedOut(_ lockout: LockScreenController.Lockout, now: UInt64) {
    controller.lockOut(lockout, at: now)
  }

  /// Lets the clock run to `now` (the timer fired).
  mutating func advance(to now: UInt64) { controller.advance(to: now) }

  /// Whether the storage should be tried again now (a storage-error lockout).
  func storageRetryDue(at now: UInt64) -> Bool { controller.storageRetryDue(at: now) }

  /// After the storage was tried again: still failing, wait and try later; written,
  /// show the prompt again, or `next` (the lockout the recorded attempts impose).
  mutating func storageRetried(_ result: LockScreenController.Lockout??, now: UInt64) {
    switch result {
    case .none: controller.lockOut(.storageError(retryAt: now + VaultGate.storageRetryMicroseconds), at: now)
    case .some(let next): controller.endStorageError(then: next, at: now)
    }
  }

  /// Brings the panel frame up to date.
  ///
  /// - Returns: the panel rectangle that changed (empty when nothing did).
  mutating func render() -> Rect {
    let state = controller.state
    let damage = renderer.damage(from: shown, to: state)
    shown = state
    if damage.isEmpty { return .empty }
    let renderer = self.renderer
    let t = renderer.layout.transform
    panel.withUnsafeMutableBytes { panelBytes in
      let out = Canvas<XRGB8888>(
        pixels: panelBytes, width: t.panelWidth, height: t.panelHeight, bytesPerRow: t.panelWidth * 4,
        rasterizer: renderer.rasterizer)
      guard t.rotation != .none else {
        renderer.render(state, into: out, damage: damage)
        return
      }
      view.withUnsafeMutableBytes { viewBytes in
        let shadow = Canvas<XRGB8888>(
          pixels: viewBytes, width: t.viewWidth, height: t.viewHeight, bytesPerRow: t.viewWidth * 4,
          rasterizer: renderer.rasterizer)
        renderer.render(state, into: shadow, damage: damage)
        for i in 0..<damage.count { out.copyRotated(from: shadow, rect: damage[i], transform: t) }
      }
    }
    return renderer.layout.panelRect(fromView: damage.bounds)
  }
}
