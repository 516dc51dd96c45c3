import PatternCore
import Raster
import Scene

/// The lock screen: the controller fed by input and the clock, the renderer, the
/// view's rotation onto the panel, and the frames it draws into, all made from one
/// `ScreenConfiguration`. Both drivers use it and nothing else: `run`'s poll loop on
/// the live clock (by `LiveStepRules`'s rules), and `replay`'s `RecordedPlayback` on a
/// recording's clock; KMS, fbdev, PNG files and test memory are only where its frames
/// go (`Display`).
///
/// Stepping (`receive`, `advance`) changes the state; `present` draws only the
/// damaged rectangles into an upright view frame in cached memory, turns them onto
/// the panel frame, and hands that to the display. Both frames are made once:
/// nothing here allocates per event or per frame.
public struct LockScreen<Pixel: PixelStorage> {
  public private(set) var controller: LockScreenController
  /// The panel's picture: its renderer and frames.
  public private(set) var picture: LockPicture<Pixel>
  public var renderer: LockScreenRenderer { picture.renderer }
  /// The panel-sized frame handed to the display (the view frame itself when the
  /// view is not turned).
  public var frame: [UInt8] { picture.frame }
  /// The state last presented (drawn, or handed to a display that draws it itself).
  private var shown: LockScreenState?
  /// Set once a pattern that unlocks was entered.
  public private(set) var unlocked = false
  /// The display refused to switch off once: blanking shows black frames from now on.
  public private(set) var blanksWithBlackFrames = false
  /// A frame was presented: from then on a verdict's time counts from the frame that
  /// first shows it. (A replay that draws nothing keeps the recording's clock.)
  private var presentsFrames = false
  /// Where a moving grid's placements come from; nil while `grid-motion` is off.
  private let gridRandomness: (any GridRandomness)?

  /// - Parameters:
  ///   - layout: the grid laid out for the panel (from `configuration.layout` and the display).
  ///   - configuration: everything the settings say about the screen.
  ///   - text: the glyphs, the message's lines and the prompts' language for `layout`.
  ///   - minimumDots: the fewest dots for a pattern that is checked at all (the stored
  ///     pattern's, or min-dots when enrolling).
  ///   - prompt: the line shown while waiting for a pattern.
  ///   - gridRandomness: where the placements of a moving grid come from (the
  ///     system's random source live, a seed in a replay); required unless
  ///     `configuration.gridMotion` is off, and unused then.
  public init(
    layout: GridLayout, configuration: ScreenConfiguration, text: ScreenText, minimumDots: Int, prompt: PromptText,
    gridRandomness: (any GridRandomness)? = nil
  ) {
    controller = LockScreenController(
      layout: layout, minimumDots: minimumDots, feedbackMicroseconds: configuration.feedbackMicroseconds,
      idlePrompt: prompt, idleBlankMicroseconds: configuration.idleBlankMicroseconds,
      dimAfterMicroseconds: configuration.dimAfterMicroseconds,
      timeoutMicroseconds: configuration.unattended.microseconds, timeoutAction: configuration.unattended.action,
      inputMode: configuration.inputMode, gridMotion: configuration.gridMotion)
    picture = LockPicture(renderer: LockScreenRenderer(layout: layout, configuration: configuration, text: text))
    precondition(configuration.gridMotion == .off || gridRandomness != nil, "a moving grid needs a source of placements")
    self.gridRandomness = configuration.gridMotion == .off ? nil : gridRandomness
    if let source = self.gridRandomness {
      controller.moveGrid(to: GridPlacement(choosing: configuration.gridMotion, randomBits: source.nextBits()))
    }
    prepareNextGrid()
  }

  /// Hands the controller the next attempt's placement as soon as it has taken the
  /// last, so it is there the moment a verdict clears (also inside `receive`, where
  /// the event that meets the cleared grid is hit-tested on the moved one).
  private mutating func prepareNextGrid() {
    guard controller.wantsNextGrid, let source = gridRandomness else { return }
    controller.prepareNextGrid(GridPlacement(choosing: controller.gridMotion, randomBits: source.nextBits()))
  }

  // MARK: Stepping

  /// Whether the picture on the display is out of date.
  public var isDirty: Bool { shown != controller.state }
  /// Whether the screen is blanked (idle); the next input only wakes it.
  public var isBlanked: Bool { controller.isBlanked }
  /// Whether the screen is dimmed (idle, before blanking); input is taken as always.
  public var isDimmed: Bool { controller.isDimmed }
  /// Whether the lock has ended: an unlock whose verdict has had its time.
  public var isFinished: Bool { unlocked && controller.feedbackEnds == nil }
  /// Switching off or restarting was asked (the timeout, the power button): the
  /// rules end the lock once this picture is shown, and the lock never opens.
  public var requestedPowerAction: PowerAction? { controller.requestedPowerAction }
  /// When the picture next changes by itself (a verdict ends, a countdown ticks, the
  /// screen blanks, the storage is tried again): when the loop's timer wakes `advance`.
  public func nextChange(after now: UInt64) -> UInt64? { controller.nextChange(after: now) }

  /// Someone is there at `now` without touching the lock: see
  /// `LockScreenController.noteActivity`.
  public mutating func noteActivity(at now: UInt64) { controller.noteActivity(at: now) }

  /// Refuses input from the start (a lockout that was running before a restart).
  public mutating func startLockedOut(_ lockout: Lockout, now: UInt64) {
    controller.lockOut(lockout, at: now)
    prepareNextGrid()
  }

  /// Takes one input event at `now`; a finished pattern is judged by `judge` and
  /// the judgement shown.
  ///
  /// - Returns: the finished pattern, if the event finished one.
  @discardableResult
  public mutating func receive<J: PatternJudge & ~Copyable>(_ event: InputEvent, at now: UInt64, judge: inout J) -> GestureOutcome? {
    // A tap entry whose pause ran out before this event is judged first, as the
    // timer would have done; the event then meets its verdict.
    if let paused = controller.confirmTapsIfPaused(at: now) { apply(judge.judge(paused, at: now), for: paused, at: now) }
    let outcome: GestureOutcome?
    switch event {
    case .touch(let touch): outcome = controller.handle(touch)
    case .key(.dot(let n)): controller.keyDot(n, at: now); outcome = nil
    case .key(.removeLast): controller.keyBackspace(at: now); outcome = nil
    case .key(.clear):
      if controller.keyClear(at: now), controller.awaitedAnswer == nil, judge.cancel(at: now) { unlocked = true }
      outcome = nil
    case .key(.submit): outcome = controller.keySubmit(at: now)
    case .cursor(let p): controller.movePointer(to: p); outcome = nil
    case .deviceAdded, .deviceRemoved: outcome = nil
    }
    if let outcome { apply(judge.judge(outcome, at: now), for: outcome, at: now) }
    prepareNextGrid()
    return outcome
  }

  private mutating func apply(_ judgement: LockScreenController.Judgement, for outcome: GestureOutcome, at now: UInt64) {
    controller.apply(judgement, for: outcome, at: now)
    if presentsFrames { controller.holdVerdictUntilShown() }
    if judgement.unlocks { unlocked = true }
  }

  /// Whether a pattern waits for a judge that answers later (`takeAnswer`).
  public var awaitsAnswer: Bool { controller.awaitedAnswer != nil }

  /// Shows the verdict of a judge that answered later, once it has come (the loop saw
  /// its descriptor ready) or its time ran out; nothing while it is still awaited. With
  /// nothing awaited, the judge is asked whether its question went away (`isWithdrawn`),
  /// which ends the lock.
  public mutating func takeAnswer<J: PatternJudge & ~Copyable>(from judge: inout J, at now: UInt64) {
    guard let awaited = controller.awaitedAnswer else {
      if judge.isWithdrawn(at: now) { unlocked = true }
      return
    }
    guard let judgement = judge.takeAnswer(at: now, due: awaited.due) else { return }
    apply(judgement, for: awaited.outcome, at: now)
    prepareNextGrid()
  }

  /// Lets the clock run to `now` (the loop's timer fired): confirms a tap entry
  /// whose pause is over, and tries the storage again when a storage error's wait is over.
  public mutating func advance<J: PatternJudge & ~Copyable>(to now: UInt64, judge: inout J) {
    controller.advance(to: now)
    defer { prepareNextGrid() }
    // An answer past its time limit is given up on here.
    if let awaited = controller.awaitedAnswer, now >= awaited.due { takeAnswer(from: &judge, at: now) }
    if let paused = controller.confirmTapsIfPaused(at: now) { apply(judge.judge(paused, at: now), for: paused, at: now) }
    guard controller.storageRetryDue(at: now) else { return }
    switch judge.retryStorage(at: now) {
    case .stillFailing: controller.refuseUntilStorageWritable(retryAt: now + StorageRetry.intervalMicroseconds, at: now)
    case .recorded(let next): controller.endStorageError(then: next, at: now)
    }
  }

  // MARK: Drawing

  /// Draw everything on the next present (the output came back after a hotplug).
  public mutating func invalidate() {
    shown = nil
    picture.invalidate()
  }

  /// Brings the display up to date with the state: the display draws what changed
  /// (into this screen's picture, for a panel) or switches its output for idle
  /// blanking (`Display.present`). A display that refuses to switch off once is told
  /// black frames from then on (`blanksWithBlackFrames`).
  ///
  /// A verdict shown for the first time starts its time at `now`, whatever the
  /// judgement cost: the wrong pattern's red is seen for the whole feedback time.
  ///
  /// - Parameter now: the moment of presenting, on the clock the events carry.
  /// - Returns: what the present did. (Returned, not passed to a callback: a closure
  ///   over the generic display would allocate its context on every frame.)
  public mutating func present<D: Display & ~Copyable>(
    on display: inout D, at now: UInt64
  ) throws(D.Failure) -> Presentation<D.Failure> where D.Pixel == Pixel {
    presentsFrames = true
    let state = controller.state
    // Only once the display took the picture does the verdict's time start; a display
    // that failed leaves it held for the next attempt.
    let result = try display.present(state, picture: &picture, blackFrames: blanksWithBlackFrames)
    shown = state
    if result.switchOffRefusal != nil { blanksWithBlackFrames = true }
    controller.verdictShown(at: now)
    return result
  }

  /// Takes the layout `renderer` was made for (the panel changed size under the
  /// running lock), keeping the state: see `LockScreenController.relayOut`. Everything
  /// is drawn again on the next present.
  public mutating func relayOut(_ renderer: LockScreenRenderer) {
    controller.relayOut(renderer.layout)
    picture = LockPicture(renderer: renderer)
    shown = nil
  }
}
