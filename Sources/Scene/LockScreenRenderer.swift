import PatternCore
import Raster

// Scene: turns lock-screen state into drawing.
//
// The renderer is retained-mode in one respect only: it remembers nothing but the
// caller keeps the previous state, and `damage(from:to:)` says which rectangles
// differ. `render` then redraws each damaged rectangle completely (background,
// dots, line, text, clipped to it). Because every Raster primitive gives a pixel a
// value that does not depend on the clip, this equals a full redraw byte for byte;
// the tests check that over whole replays. Rejected: an object tree with per-node
// invalidation (more state to keep right for a screen of nine dots and a line), and
// always redrawing everything (a 1080p frame is ~8 MB of writes per finger move).
//
// Everything is in view coordinates; rotating to the panel is the display's job.

/// Draws the lock screen for a layout and a theme.
///
/// Made once per mode; `render` allocates nothing.
public final class LockScreenRenderer {
  public let layout: GridLayout
  public let theme: Theme
  /// The prompt's glyphs; nil draws no text (the font could not be loaded).
  public private(set) var atlas: GlyphAtlas?
  /// The language the prompts are written in (the atlas holds its glyphs).
  public let language: Language
  /// How the grid moves between attempts: a turning grid carries a mark on its own
  /// top edge (`GridLayout.turnMark`), so whoever draws sees which way it stands.
  public let gridMotion: GridMotion
  /// The prompt band and the rows above and below it that two lines' ascenders and
  /// descenders reach (`PromptLines`): what the prompt is drawn in, and its damage.
  public let promptBox: Rect
  /// The rasteriser's set-up state for this mode (coverage tables, scratch rows).
  public let rasterizer: Rasterizer
  private var points = InlineArray<50, Point>(repeating: Point(x: 0, y: 0))
  /// The fading line's opacity per segment (`fade-trail`), filled per draw.
  private var segmentAlphas = InlineArray<49, UInt8>(repeating: 0)
  /// Each dot's ring and centre as coverage masks, made once: blending a mask gives
  /// the same bytes as drawing the circle, at a fraction of the cost (see `CoverageMask`).
  private let ringMasks: [CoverageMask]
  private let dotMasks: [CoverageMask]
  /// Each dot's centre and its ring's and centre's box, worked out once: asked for
  /// on every frame (the line's points, which dots a damaged rectangle meets),
  /// each `layout.centre(of:)` call copied the whole layout.
  private let dotCentres: [Point]
  private let dotBoxes: [Rect]
  /// The owner's message, its glyphs placed once (centred per line in
  /// `layout.messageRect`); never changes, so it is only redrawn under damage.
  private var messageGlyphs: [TextLayout.Placement]
  private var messageBounds: Rect
  /// The message's lines, placed again when the atlas is completed.
  private let messageLines: [String]

  /// - Parameters:
  ///   - layout: where everything goes, in view pixels.
  ///   - theme: colours and options.
  ///   - atlas: glyphs for the prompt, or nil for no text.
  ///   - message: the owner's message as wrapped lines (`TextWrapping`), as many as
  ///     `layout.options.messageLines`; lines past those are not drawn.
  ///   - language: the language of the prompts.
  ///   - gridMotion: how the grid moves between attempts (`LockScreenState.grid`
  ///     says where it stands).
  public init(
    layout: GridLayout, theme: Theme = Theme(), atlas: GlyphAtlas? = nil, message: [String] = [], language: Language = .en,
    gridMotion: GridMotion = .off
  ) {
    self.layout = layout
    self.gridMotion = gridMotion
    self.theme = theme
    self.atlas = atlas
    self.language = language
    var box = layout.promptRect
    if let atlas {
      let half = box.height / 2
      let reach = max(0, (atlas.ascender + atlas.descender - half + 1) / 2)
      let view = Rect(x: 0, y: 0, width: layout.transform.viewWidth, height: layout.transform.viewHeight)
      box = Rect(x: box.x, y: box.y - reach, width: box.width, height: box.height + 2 * reach).intersection(view)
    }
    promptBox = box
    messageLines = message
    (messageGlyphs, messageBounds) = LockScreenRenderer.place(message, layout: layout, atlas: atlas)
    // Wide enough for the panel canvas too, which a rotated view is copied onto.
    let rasterizer = Rasterizer(maximumWidth: max(layout.transform.viewWidth, layout.transform.viewHeight), maximumPolylinePoints: 50)
    self.rasterizer = rasterizer
    let centres = (1...layout.dotCount).map { layout.centre(of: $0) }
    let (ringRadius, ringStroke, dotRadius) = (layout.ringRadius, layout.ringStroke, layout.dotRadius)
    ringMasks = CoverageMask.repeated(
      at: centres, box: { ShapeBounds.ring(center: $0, radius: ringRadius, strokeWidth: ringStroke) },
      drawing: { CoverageMask(ringAt: $0, radius: ringRadius, strokeWidth: ringStroke, rasterizer: rasterizer) })
    dotMasks = CoverageMask.repeated(
      at: centres, box: { ShapeBounds.circle(center: $0, radius: dotRadius) },
      drawing: { CoverageMask(circleAt: $0, radius: dotRadius, rasterizer: rasterizer) })
    dotCentres = centres
    dotBoxes = (1...layout.dotCount).map { dot in
      ShapeBounds.ring(center: layout.centre(of: dot), radius: layout.ringRadius, strokeWidth: layout.ringStroke)
        .union(ShapeBounds.circle(center: layout.centre(of: dot), radius: layout.dotRadius))
    }
  }

  /// The message's glyphs, centred per line in `layout.messageRect`, and their bounds.
  private static func place(
    _ message: [String], layout: GridLayout, atlas: GlyphAtlas?
  ) -> (glyphs: [TextLayout.Placement], bounds: Rect) {
    var glyphs: [TextLayout.Placement] = []
    var bounds = Rect.empty
    guard let atlas else { return (glyphs, bounds) }
    let box = layout.messageRect
    let pitch = layout.messageLineHeight
    for (i, line) in message.prefix(layout.options.messageLines).enumerated() {
      let x = box.x + max(0, (box.width - TextLayout.width(of: line, in: atlas)) / 2)
      let baseline = box.y + i * pitch + (pitch + atlas.ascender - atlas.descender) / 2
      TextLayout.forEachGlyph(in: line, atlas: atlas, x: x, baseline: baseline) { placement in
        glyphs.append(placement)
        if !placement.rect.isEmpty { bounds = bounds.union(placement.rect) }
      }
    }
    return (glyphs, bounds)
  }

  /// Takes the full atlas in place of the first screen's (`GlyphPlan`): the same
  /// metrics and, for every glyph the first held, the same glyph, so nothing drawn
  /// changes; prompts drawn from now on find all their glyphs. Nothing when the atlas
  /// holds as many glyphs already (or there is no text).
  public func completeGlyphs(_ full: GlyphAtlas) {
    guard let atlas, atlas.count < full.count else { return }
    precondition(
      full.pixelSize == atlas.pixelSize && full.ascender == atlas.ascender && full.descender == atlas.descender
        && full.lineHeight == atlas.lineHeight,
      "the completed atlas has other metrics")
    self.atlas = full
    (messageGlyphs, messageBounds) = LockScreenRenderer.place(messageLines, layout: layout, atlas: full)
  }

  /// The view as a rectangle.
  public var viewRect: Rect { Rect(x: 0, y: 0, width: layout.transform.viewWidth, height: layout.transform.viewHeight) }

  // MARK: Damage

  /// The rectangles that differ between two states (everything when `old` is nil).
  public func damage(from old: LockScreenState?, to new: LockScreenState) -> DamageList {
    var damage = DamageList()
    guard let old else {
      damage.add(viewRect)
      return damage
    }
    if old == new { return damage }
    // Blanking or waking repaints everything; nothing shows while blank.
    if old.blanked != new.blanked {
      damage.add(viewRect)
      return damage
    }
    if new.blanked { return damage }
    if old.prompt != new.prompt || old.appearance != new.appearance { damage.add(promptBox) }
    if old.powerPress != new.powerPress { damage.add(layout.powerButtonRect) }
    if old.grid != new.grid {
      // The grid moved: everything of it where it stood and where it stands now.
      damage.add(gridBounds(old.grid))
      damage.add(gridBounds(new.grid))
      if !hidesPath(old) { damage.add(lineBounds(of: old, from: 0)) }
      if !hidesPath(new) { damage.add(lineBounds(of: new, from: 0)) }
    }
    if old.pointer != new.pointer {
      if let p = old.pointer { damage.add(cursorBounds(p)) }
      if let p = new.pointer { damage.add(cursorBounds(p)) }
    }

    let oldShown = shownTrail(old), newShown = shownTrail(new)
    // Dots whose look changed: joined or not, or every joined dot when the colour changed.
    let changedDots = old.appearance != new.appearance ? (oldShown.bitmask | newShown.bitmask) : (oldShown.bitmask ^ newShown.bitmask)
    if changedDots != 0 {
      for dot in 1...layout.dotCount where changedDots & (1 << UInt64(dot - 1)) != 0 {
        // A moved grid is damaged whole above; here both states share it.
        damage.add(dotBounds(dot, new.grid))
      }
    }

    // The line: segments after the common prefix of the two trails, plus the finger segment.
    if !hidesPath(old) || !hidesPath(new) {
      if old.appearance != new.appearance {
        damage.add(lineBounds(of: old, from: 0))
        damage.add(lineBounds(of: new, from: 0))
      } else {
        var common = 0
        while common < oldShown.count && common < newShown.count && oldShown[common] == newShown[common] { common += 1 }
        let unchangedTail = common == oldShown.count && common == newShown.count && old.finger == new.finger
        if !unchangedTail {
          // A fading line changes every segment's opacity when a dot is joined.
          let refades = theme.fadeTrail && oldShown.count != newShown.count
          let start = refades ? 0 : max(common - 1, 0)
          damage.add(lineBounds(of: old, from: start))
          damage.add(lineBounds(of: new, from: start))
        }
      }
    }
    return damage
  }

  private func shownTrail(_ state: LockScreenState) -> DotSequence {
    hidesPath(state) ? DotSequence() : state.trail
  }

  /// Stealth hides the path, except a wrong try's verdict when the theme peeks.
  private func hidesPath(_ state: LockScreenState) -> Bool {
    theme.stealth && !(theme.stealthPeeksWrong && state.appearance == .wrong)
  }

  /// The cursor: a disc the size of a dot, ringed in the background colour so it
  /// shows over the line and the dots alike.
  private var cursorRadius: Fixed16 { max(layout.dotRadius / 2, Fixed16(4)) }

  private func cursorBounds(_ p: Point) -> Rect {
    ShapeBounds.circle(center: p, radius: cursorRadius + Fixed16(2))
  }

  /// The box of dot `dot` (the grid's own number) on the grid placed at `placement`.
  private func dotBounds(_ dot: Int, _ placement: GridPlacement) -> Rect {
    let box = dotBoxes[placement.slot(of: dot, gridSize: layout.gridSize) - 1]
    let (dx, dy) = layout.offset(of: placement)
    return Rect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
  }

  /// Everything drawn of the grid placed at `placement`: its dots and its turn mark.
  private func gridBounds(_ placement: GridPlacement) -> Rect {
    var box = Rect.empty
    for dot in 1...layout.dotCount { box = box.union(dotBounds(dot, placement)) }
    if gridMotion == .turn { box = box.union(turnMarkBounds(placement)) }
    return box
  }

  private func turnMarkBounds(_ placement: GridPlacement) -> Rect {
    let mark = layout.turnMark(placedAt: placement)
    var ends = InlineArray<2, Point>(repeating: mark.from)
    ends[1] = mark.to
    return ShapeBounds.polyline(ends.span, width: layout.lineWidth)
  }

  /// The box of the state's line from trail position `start` on (through the finger).
  /// One joined dot and no finger draws a round dot the line's width across.
  private func lineBounds(of state: LockScreenState, from start: Int) -> Rect {
    guard state.trail.count > 0 else { return .empty }
    let count = linePoints(of: state, from: start)
    return count == 0 ? .empty : ShapeBounds.polyline(points.span.extracting(0..<count), width: layout.lineWidth)
  }

  /// Fills `points` with the line's vertices from trail position `start`; returns how many.
  private func linePoints(of state: LockScreenState, from start: Int) -> Int {
    var count = 0
    var i = start
    let (dx, dy) = layout.offset(of: state.grid)
    let shift = Point(x: Fixed16(dx), y: Fixed16(dy))
    while i < state.trail.count {
      let centre = dotCentres[state.grid.slot(of: state.trail[i], gridSize: layout.gridSize) - 1]
      points[count] = Point(x: centre.x + shift.x, y: centre.y + shift.y)
      count += 1
      i += 1
    }
    if let finger = state.finger, state.trail.count > 0 {
      points[count] = finger
      count += 1
    }
    return count
  }

  // MARK: Drawing

  /// Draws `state` inside every damaged rectangle.
  ///
  /// - Parameters:
  ///   - state: what to show.
  ///   - canvas: a view-sized canvas holding the previous frame.
  ///   - damage: where to draw; everything outside is left as it is.
  ///
  /// Specialised here for both pixel formats: this body is not `@inlinable`, so a
  /// caller in another module would otherwise run it unspecialised, every pixel load
  /// and store of Raster's inlinable span loops going through generic metadata and
  /// value witnesses (a full 800x480 frame took 8x longer; scripts/bench measures it).
  @_specialize(where Storage == XRGB8888)
  @_specialize(where Storage == RGB565)
  public func render<Storage: PixelStorage>(_ state: LockScreenState, into canvas: Canvas<Storage>, damage: DamageList) {
    for i in 0..<damage.count {
      draw(state, into: canvas, clip: damage[i].intersection(viewRect))
    }
  }

  private func draw<Storage: PixelStorage>(_ state: LockScreenState, into canvas: Canvas<Storage>, clip: Rect) {
    guard !clip.isEmpty else { return }
    if state.blanked {
      canvas.fill(viewRect, color: .black, clip: clip)
      return
    }
    canvas.fillVerticalGradient(viewRect, top: theme.backgroundTop, bottom: theme.backgroundBottom, clip: clip)

    let shown = shownTrail(state)
    let joined = theme.accent(for: state.appearance)
    // The line goes under the dots, as on a phone: the joined dots stay crisp on top.
    if !hidesPath(state) && state.trail.count > 0 {
      let count = linePoints(of: state, from: 0)
      let pieces = lineClips(clip, shown: shown, dotColor: joined, grid: state.grid)
      let fades = theme.fadeTrail && state.appearance == .entry && state.trail.count > 1
      if fades { fadeSegments(joined: state.trail.count, finger: count > state.trail.count) }
      for i in 0..<pieces.count {
        if fades {
          canvas.strokePolyline(
            points.span.extracting(0..<count), width: layout.lineWidth, color: joined,
            segmentAlphas: segmentAlphas.span.extracting(0..<(count - 1)), clip: pieces[i])
        } else {
          canvas.strokePolyline(
            points.span.extracting(0..<count), width: layout.lineWidth, color: joined.withAlpha(theme.lineAlpha),
            clip: pieces[i])
        }
      }
    }
    let (dx, dy) = layout.offset(of: state.grid)
    for dot in 1...layout.dotCount {
      guard !dotBounds(dot, state.grid).intersection(clip).isEmpty else { continue }
      let isJoined = shown.contains(dot)
      let slot = state.grid.slot(of: dot, gridSize: layout.gridSize)
      // The same bytes as strokeCircle and fillCircle with these arguments.
      canvas.blit(ringMasks[slot - 1].moved(x: dx, y: dy), color: isJoined ? joined : theme.ring, clip: clip)
      canvas.blit(dotMasks[slot - 1].moved(x: dx, y: dy), color: isJoined ? joined : theme.dot, clip: clip)
    }
    if gridMotion == .turn && !turnMarkBounds(state.grid).intersection(clip).isEmpty {
      let mark = layout.turnMark(placedAt: state.grid)
      var ends = InlineArray<2, Point>(repeating: mark.from)
      ends[1] = mark.to
      canvas.strokePolyline(ends.span, width: layout.lineWidth, color: theme.ring, clip: clip)
    }

    drawPrompt(state, into: canvas, clip: clip)
    drawMessage(into: canvas, clip: clip)
    drawPowerButton(state, into: canvas, clip: clip)

    if let p = state.pointer, !cursorBounds(p).intersection(clip).isEmpty {
      canvas.fillCircle(center: p, radius: cursorRadius + Fixed16(2), color: theme.backgroundTop, clip: clip)
      canvas.fillCircle(center: p, radius: cursorRadius, color: theme.text, clip: clip)
    }
  }

  /// Where the line is drawn: `clip` less the opaque cores of the joined dots it
  /// meets, which their masks cover in `dotColor` when that is opaque (see
  /// `LineClips`).
  private func lineClips(_ clip: Rect, shown: DotSequence, dotColor: Color, grid: GridPlacement) -> LineClips {
    var pieces = LineClips(clip)
    guard dotColor.a == 255 else { return pieces }
    let (dx, dy) = layout.offset(of: grid)
    for i in 0..<shown.count {
      let core = dotMasks[grid.slot(of: shown[i], gridSize: layout.gridSize) - 1].opaqueCore
      guard !core.isEmpty else { continue }
      pieces.cutOut(Rect(x: core.x + dx, y: core.y + dy, width: core.width, height: core.height).intersection(clip))
    }
    return pieces
  }

  /// The opacities of a fading line (`fade-trail`) through `joined` dots and, when
  /// `finger`, on to the finger: the k segments between dots at `i + 1` (k + 1)ths of
  /// the line's opacity from the oldest (i = 0), and the finger's segment at the full
  /// opacity, as Android's pattern fades its older segments. Whole-number maths,
  /// rounded to nearest, so every architecture draws the same bytes. Only while
  /// drawing: a verdict shows the whole line.
  private func fadeSegments(joined: Int, finger: Bool) {
    let finished = joined - 1
    let full = Int(theme.lineAlpha)
    for i in 0..<finished {
      segmentAlphas[i] = UInt8((2 * full * (i + 1) + finished + 1) / (2 * (finished + 1)))
    }
    if finger { segmentAlphas[finished] = theme.lineAlpha }
  }

  private func drawPrompt<Storage: PixelStorage>(_ state: LockScreenState, into canvas: Canvas<Storage>, clip: Rect) {
    guard let atlas, !state.prompt.isEmpty else { return }
    let box = layout.promptRect
    let textClip = clip.intersection(promptBox)
    guard !textClip.isEmpty else { return }
    let lines = PromptLines(state.prompt, language: language, atlas: atlas, width: box.width)
    let color = state.appearance == .wrong ? theme.wrong : theme.text
    lines.forEachGlyph(in: box, atlas: atlas) { placement in
      let glyph = placement.glyph
      canvas.blitMask(
        atlas.plane, offset: glyph.maskOffset, width: glyph.width, height: glyph.height, stride: glyph.maskStride,
        x: placement.x, y: placement.y, color: color, clip: textClip)
    }
  }

  private func drawMessage<Storage: PixelStorage>(into canvas: Canvas<Storage>, clip: Rect) {
    guard let atlas, !messageBounds.intersection(clip).isEmpty else { return }
    let textClip = clip.intersection(layout.messageRect)
    for placement in messageGlyphs where !placement.rect.intersection(textClip).isEmpty {
      let glyph = placement.glyph
      canvas.blitMask(
        atlas.plane, offset: glyph.maskOffset, width: glyph.width, height: glyph.height, stride: glyph.maskStride,
        x: placement.x, y: placement.y, color: theme.message, clip: textClip)
    }
  }

  /// The power symbol (a ring open at the top, a bar through the gap) and, while it
  /// is held, the ring of the long press filling clockwise from the top.
  private func drawPowerButton<Storage: PixelStorage>(_ state: LockScreenState, into canvas: Canvas<Storage>, clip: Rect) {
    let box = layout.powerButtonRect
    let buttonClip = clip.intersection(box)
    guard !buttonClip.isEmpty else { return }
    let side = box.width
    let centre = Point(x: Fixed16(box.x) + Fixed16(side) / 2, y: Fixed16(box.y) + Fixed16(side) / 2)
    let radius = Fixed16(numerator: Int64(3 * side), denominator: 10)
    let stroke = max(Fixed16.one, Fixed16(numerator: Int64(side), denominator: 16))
    let color = state.powerPress == nil ? theme.ring : theme.text
    canvas.strokeCircle(center: centre, radius: radius, strokeWidth: stroke, color: color, clip: buttonClip)
    // The gap: the background painted again over the ring's top.
    let gapHalf = max(2, side / 8)
    let gap = Rect(x: box.x + side / 2 - gapHalf, y: box.y, width: 2 * gapHalf, height: side / 2)
    canvas.fillVerticalGradient(viewRect, top: theme.backgroundTop, bottom: theme.backgroundBottom, clip: buttonClip.intersection(gap))
    var bar = InlineArray<2, Point>(repeating: centre)
    bar[0] = Point(x: centre.x, y: centre.y - radius.scaled(by: 23, over: 20))
    bar[1] = Point(x: centre.x, y: centre.y - radius.scaled(by: 1, over: 4))
    canvas.strokePolyline(bar.span, width: stroke, color: color, clip: buttonClip)

    guard let steps = state.powerPress, steps > 0 else { return }
    let arcRadius = radius + stroke.scaled(by: 3, over: 2)
    var arc = InlineArray<26, Point>(repeating: centre)
    let count = min(steps, LockScreenController.powerPressSteps) + 1
    for k in 0..<count {
      // Step k is k * 15 degrees clockwise from the top.
      arc[k] = Point(
        x: centre.x + LockScreenRenderer.scaled(arcRadius, bySineOf: k),
        y: centre.y - LockScreenRenderer.scaled(arcRadius, bySineOf: k + 6))
    }
    canvas.strokePolyline(arc.span.extracting(0..<count), width: stroke.scaled(by: 3, over: 2), color: theme.wrong, clip: buttonClip)
  }

  /// sin(k * 15 degrees) in 16.16, for k = 0...6 (the rest by symmetry).
  private static func sineStep(_ k: Int) -> Int64 {
    switch k {
    case 0: return 0
    case 1: return 16_962
    case 2: return 32_768
    case 3: return 46_341
    case 4: return 56_756
    case 5: return 63_303
    default: return 65_536
    }
  }

  /// `length` times the sine of `step` * 15 degrees, in whole-number arithmetic.
  private static func scaled(_ length: Fixed16, bySineOf step: Int) -> Fixed16 {
    let k = step % 24
    let sine: Int64
    switch k {
    case 0...6: sine = sineStep(k)
    case 7...12: sine = sineStep(12 - k)
    case 13...18: sine = -sineStep(k - 12)
    default: sine = -sineStep(24 - k)
    }
    return Fixed16(raw: Int32(truncatingIfNeeded: (Int64(length.raw) * sine) >> 16))
  }
}
