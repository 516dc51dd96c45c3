import PatternCore

/// One lock surface as the seat's input sees it: its size in logical units and in
/// frame pixels, how its layout turns the frame, and how its grid lands on the
/// tracker's (`GridMapping`).
public struct SeatSurface: Sendable, Equatable {
  public var tag: UInt32
  /// The surface's size in logical units (the configure event's).
  public var surfaceWidth: Int
  public var surfaceHeight: Int
  /// The frame's size in pixels (the surface's size times its scale).
  public var frameWidth: Int
  public var frameHeight: Int
  /// How the frame is turned on the panel (the layout's transform).
  public var transform: ViewTransform
  public var grid: GridMapping

  public init(
    tag: UInt32, surfaceWidth: Int, surfaceHeight: Int, frameWidth: Int, frameHeight: Int, transform: ViewTransform,
    grid: GridMapping
  ) {
    self.tag = tag
    self.surfaceWidth = max(surfaceWidth, 1)
    self.surfaceHeight = max(surfaceHeight, 1)
    self.frameWidth = frameWidth
    self.frameHeight = frameHeight
    self.transform = transform
    self.grid = grid
  }

  /// A surface-local position (wl_fixed_t) in the tracker's view pixels.
  public func trackerPoint(x: Int32, y: Int32) -> Point {
    // wl_fixed_t has 8 fraction bits, Fixed16 16: 256 times, then logical to frame.
    let px = Int64(x) * 256 * Int64(frameWidth) / Int64(surfaceWidth)
    let py = Int64(y) * 256 * Int64(frameHeight) / Int64(surfaceHeight)
    let panel = Point(x: Fixed16(raw: SeatSurface.clamp(px)), y: Fixed16(raw: SeatSurface.clamp(py)))
    return grid.toReference(transform.viewPoint(fromPanel: panel))
  }

  private static func clamp(_ value: Int64) -> Int32 {
    Int32(max(min(value, Int64(Int32.max)), Int64(Int32.min)))
  }
}

/// Turns the seat's events into the lock screen's input (`InputEvent`, in the view
/// pixels of the first output's layout, which the gesture tracker uses) the way
/// `InputContext` turns libinput's: a finger is a touch slot; a pointer with its left
/// button held is one finger in slot 0, each change followed by a frame; keys become
/// `KeyAction`s.
///
/// The output a gesture starts on owns it (`owner`): a finger going down, or the left
/// button pressed, on any output's lock surface while no finger and no button is down
/// makes that output the owner, and its positions are mapped onto the tracker's grid
/// (`GridMapping`). While a gesture runs, other outputs' touches and presses draw
/// nothing (the first finger owns the gesture). The owner stays after the gesture
/// ends: it shows the verdict, and keys draw there (the output last touched, else the
/// first).
///
/// Events are stamped with the loop's clock when they are read (`now`), never with the
/// compositor's times: those have an undefined base (and a client could make them
/// up), and the lock's clock, which ends verdicts and lockouts, must not be moved by
/// them. Pure: no Wayland calls, nothing allocated per event.
public struct SeatInput: Sendable {
  /// Every output's lock surface that has a picture, the tracker's first.
  public private(set) var surfaces: [SeatSurface]
  /// The tag of the surface the current or last gesture started on.
  public private(set) var owner: UInt32

  /// The surface the pointer is over (0: none).
  private var pointerSurface: UInt32 = 0
  private var pointerX: Int32 = 0
  private var pointerY: Int32 = 0
  private var buttonDown = false
  /// Touch ids 0 to 63 that went down on the owner (a bit each).
  private var ownTouches: UInt64 = 0

  /// The left button (BTN_LEFT).
  static let leftButton: UInt32 = 0x110

  /// `surfaces` must not be empty; the first is the tracker's and the first owner.
  public init(surfaces: [SeatSurface]) {
    precondition(!surfaces.isEmpty, "a seat's input needs a surface")
    self.surfaces = surfaces
    owner = surfaces[0].tag
  }

  /// One surface, whose layout the tracker uses.
  public init(drawingSurface: UInt32, surfaceWidth: Int, surfaceHeight: Int, frameWidth: Int, frameHeight: Int, transform: ViewTransform) {
    let grid = Rect(x: 0, y: 0, width: max(frameWidth, 1), height: max(frameHeight, 1))
    self.init(surfaces: [
      SeatSurface(
        tag: drawingSurface, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight, frameWidth: frameWidth,
        frameHeight: frameHeight, transform: transform, grid: .identity(grid))
    ])
  }

  /// The surfaces laid out again (sizes, scales, outputs changed): the owner stays if
  /// its output does, else the first output owns.
  public mutating func replaceSurfaces(_ new: [SeatSurface]) {
    precondition(!new.isEmpty, "a seat's input needs a surface")
    surfaces = new
    if index(of: owner) == nil { owner = new[0].tag }
  }

  /// The grid moved (`grid-motion`): surface `tag`'s grid lands on the tracker's by
  /// `mapping` now. In place: nothing is allocated.
  public mutating func moveGrid(of tag: UInt32, to mapping: GridMapping) {
    guard let index = index(of: tag) else { return }
    surfaces[index].grid = mapping
  }

  /// A position on the owner's surface, in the tracker's view pixels.
  public func viewPoint(x: Int32, y: Int32) -> Point {
    surfaces[index(of: owner) ?? 0].trackerPoint(x: x, y: y)
  }

  private func index(of tag: UInt32) -> Int? {
    var index = 0
    while index < surfaces.count {
      if surfaces[index].tag == tag { return index }
      index += 1
    }
    return nil
  }

  /// Makes `surface` the owner if a gesture may start there: it is the owner, or no
  /// gesture runs and it is a lock surface with a picture.
  private mutating func takeGesture(on surface: UInt32) -> Bool {
    if surface == owner { return true }
    guard ownTouches == 0, !buttonDown, index(of: surface) != nil else { return false }
    owner = surface
    return true
  }

  /// Hands what `event`, read at `now` (the loop's monotonic microseconds), means for
  /// the lock to `handle` (nothing, one event, or a touch event and its frame).
  public mutating func translate(_ event: SeatEvent, at now: UInt64, _ handle: (InputEvent) -> Void) {
    switch event {
    case .pointerEnter(let surface, let x, let y):
      pointerSurface = surface
      pointerX = x
      pointerY = y
    case .pointerLeave(let surface):
      guard surface == pointerSurface else { return }
      pointerSurface = 0
      if buttonDown {
        // Only while a button is held can the pointer leave in the middle of a
        // pattern (another output, say): the pattern ends where it was.
        buttonDown = false
        pointerTouch(.up, at: now, handle)
      }
    case .pointerMotion(_, let x, let y):
      pointerX = x
      pointerY = y
      if buttonDown { pointerTouch(.motion, at: now, handle) }
    case .pointerButton(_, let button, let pressed):
      guard button == SeatInput.leftButton, pressed != buttonDown else { return }
      if pressed {
        guard pointerSurface != 0, takeGesture(on: pointerSurface) else { return }
      }
      buttonDown = pressed
      pointerTouch(pressed ? .down : .up, at: now, handle)
    case .touchDown(let surface, let id, _, let x, let y):
      guard let bit = SeatInput.bit(id), takeGesture(on: surface) else { return }
      ownTouches |= bit
      handle(.touch(TouchEvent(kind: .down, slot: id, position: viewPoint(x: x, y: y), timeMicroseconds: now)))
    case .touchMotion(let id, _, let x, let y):
      guard let bit = SeatInput.bit(id), ownTouches & bit != 0 else { return }
      handle(.touch(TouchEvent(kind: .motion, slot: id, position: viewPoint(x: x, y: y), timeMicroseconds: now)))
    case .touchUp(let id, _):
      guard let bit = SeatInput.bit(id), ownTouches & bit != 0 else { return }
      ownTouches &= ~bit
      handle(.touch(TouchEvent(kind: .up, slot: id, position: Point(x: 0, y: 0), timeMicroseconds: now)))
    case .touchFrame:
      handle(.touch(TouchEvent(kind: .frame, slot: 0, position: Point(x: 0, y: 0), timeMicroseconds: now)))
    case .touchCancel:
      guard ownTouches != 0 else { return }
      ownTouches = 0
      handle(.touch(TouchEvent(kind: .cancel, slot: 0, position: Point(x: 0, y: 0), timeMicroseconds: now)))
    case .key(let keysym, let code):
      if let action = KeyAction(keysym: keysym, evdevCode: code) { handle(.key(action)) }
    }
  }

  private func pointerTouch(_ kind: TouchEvent.Kind, at now: UInt64, _ handle: (InputEvent) -> Void) {
    let position = viewPoint(x: pointerX, y: pointerY)
    handle(.touch(TouchEvent(kind: kind, slot: 0, position: position, timeMicroseconds: now)))
    handle(.touch(TouchEvent(kind: .frame, slot: 0, position: position, timeMicroseconds: now)))
  }

  private static func bit(_ id: Int32) -> UInt64? {
    (0..<64).contains(id) ? UInt64(1) << UInt64(id) : nil
  }
}
