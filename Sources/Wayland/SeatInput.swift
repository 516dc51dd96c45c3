import PatternCore

/// Turns the seat's events into the lock screen's input (`InputEvent`, frame pixels)
/// for the surface the lock is drawn on, the way `InputContext` turns libinput's: a
/// finger is a touch slot; a pointer with its left button held is one finger in slot 0,
/// each change followed by a frame; keys become `KeyAction`s.
///
/// Only the drawing surface's input counts: a finger or a pointer on another output's
/// lock surface (which shows the background) draws nothing. Events are stamped with
/// the loop's clock when they are read (`now`), never with the compositor's times:
/// those have an undefined base (and a client could make them up), and the lock's
/// clock, which ends verdicts and lockouts, must not be moved by them. Pure: no
/// Wayland calls, nothing allocated.
public struct SeatInput: Sendable {
  /// The tag of the surface the lock is drawn on.
  public var drawingSurface: UInt32
  /// The surface's size in logical units (the configure event's).
  public var surfaceWidth: Int
  public var surfaceHeight: Int
  /// The frame's size in pixels (the surface's size times its scale).
  public var frameWidth: Int
  public var frameHeight: Int
  /// How the frame is turned on the panel (the layout's transform).
  public var transform: ViewTransform

  /// The surface the pointer is over (0: none).
  private var pointerSurface: UInt32 = 0
  private var pointerX: Int32 = 0
  private var pointerY: Int32 = 0
  private var buttonDown = false
  /// Touch ids 0 to 63 that went down on the drawing surface (a bit each).
  private var ownTouches: UInt64 = 0

  /// The left button (BTN_LEFT).
  static let leftButton: UInt32 = 0x110

  public init(drawingSurface: UInt32, surfaceWidth: Int, surfaceHeight: Int, frameWidth: Int, frameHeight: Int, transform: ViewTransform) {
    self.drawingSurface = drawingSurface
    self.surfaceWidth = max(surfaceWidth, 1)
    self.surfaceHeight = max(surfaceHeight, 1)
    self.frameWidth = frameWidth
    self.frameHeight = frameHeight
    self.transform = transform
  }

  /// A position on the drawing surface, in view pixels.
  public func viewPoint(x: Int32, y: Int32) -> Point {
    // wl_fixed_t has 8 fraction bits, Fixed16 16: 256 times, then logical to frame.
    let px = Int64(x) * 256 * Int64(frameWidth) / Int64(surfaceWidth)
    let py = Int64(y) * 256 * Int64(frameHeight) / Int64(surfaceHeight)
    let panel = Point(x: Fixed16(raw: SeatInput.clamp(px)), y: Fixed16(raw: SeatInput.clamp(py)))
    return transform.viewPoint(fromPanel: panel)
  }

  private static func clamp(_ value: Int64) -> Int32 {
    Int32(max(min(value, Int64(Int32.max)), Int64(Int32.min)))
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
      guard button == SeatInput.leftButton, pointerSurface == drawingSurface, pressed != buttonDown else { return }
      buttonDown = pressed
      pointerTouch(pressed ? .down : .up, at: now, handle)
    case .touchDown(let surface, let id, _, let x, let y):
      guard surface == drawingSurface, let bit = SeatInput.bit(id) else { return }
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
