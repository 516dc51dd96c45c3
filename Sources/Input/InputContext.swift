// Input: touch, pointer and keyboard input through libinput, display hotplug through
// libudev, and virtual devices through uinput (for `patternlock inject`).
//
// Design. `InputContext` owns a libinput context on a seat (udev back-end: devices
// come and go with libinput's own DEVICE_ADDED/REMOVED events) or on fixed device
// nodes (path back-end, for tests and tools). The event loop polls its fd and calls
// `drain`, which hands each event to a closure as an `InputEvent`: touchscreens map
// through `libinput_event_touch_get_x_transformed` to panel pixels (libinput applies
// any calibration matrix first), then `ViewTransform` to view pixels, so the touch
// lands where the dot is drawn; pointers with the left button act as one finger, as
// in the Recording module's replay, so the gesture tracker cannot tell them apart.
// `drain` allocates nothing per event (the closure is non-escaping).
//
// Rejected alternatives:
// - Reading /dev/input/event* with our own evdev parser: we would redo libinput's
//   touchscreen quirks, calibration, palm and jump detection, and device hotplug.
// - libevdev only: no calibration, no seat handling, no hotplug.
// - tslib: for resistive panels only; libinput already handles those through evdev.

import SystemCalls
import CInput
import CShim
import PatternCore

/// A libinput context and the state that turns its events into `InputEvent`s.
public struct InputContext: ~Copyable {
  private let libinput: OpaquePointer
  private let udev: OpaquePointer?
  /// libinput keeps a pointer to the interface for the context's lifetime, so it is
  /// allocated once and freed in `deinit`.
  private let interface: UnsafeMutablePointer<libinput_interface>
  /// The seat or device list, for messages.
  public let source: String
  private let transform: ViewTransform
  private let calibration: CalibrationMatrix?
  /// Whether a pointer's left button is held (the pointer is "touching").
  private var buttonDown = false
  /// The pointer position in panel pixels.
  private var cursor: Point
  /// Whether the last pointer motion was relative (a mouse), whose position only a
  /// drawn cursor shows.
  private var drawsCursor = false

  /// Opens seat `seat` through udev (`libinput_udev_create_context`,
  /// `libinput_udev_assign_seat`).
  ///
  /// - Parameters:
  ///   - seat: normally `seat0`.
  ///   - transform: the panel size and rotation positions map onto.
  ///   - calibration: a matrix for every touchscreen, or nil to keep udev's.
  /// - Throws: `InputError.noUdev` or `.seatFailed`.
  public init(seat: String = "seat0", transform: ViewTransform, calibration: CalibrationMatrix? = nil) throws(InputError) {
    guard let udev = udev_new() else { throw .noUdev }
    let interface = InputContext.makeInterface()
    guard let li = libinput_udev_create_context(interface, nil, udev) else {
      interface.deallocate()
      udev_unref(udev)
      throw .seatFailed(seat: seat)
    }
    if seat.withCString({ libinput_udev_assign_seat(li, $0) }) != 0 {
      libinput_unref(li)
      interface.deallocate()
      udev_unref(udev)
      throw .seatFailed(seat: seat)
    }
    self.libinput = li
    self.udev = udev
    self.interface = interface
    self.source = seat
    self.transform = transform
    self.calibration = calibration
    self.cursor = Point(x: transform.panelWidth / 2, y: transform.panelHeight / 2)
  }

  /// Opens fixed device nodes (`libinput_path_create_context`, `libinput_path_add_device`).
  ///
  /// - Parameters:
  ///   - devicePaths: `/dev/input/eventN` nodes.
  ///   - transform: the panel size and rotation positions map onto.
  ///   - calibration: a matrix for every touchscreen, or nil.
  /// - Throws: `InputError.callFailed` naming a node libinput would not open.
  public init(devicePaths: [String], transform: ViewTransform, calibration: CalibrationMatrix? = nil) throws(InputError) {
    let interface = InputContext.makeInterface()
    guard let li = libinput_path_create_context(interface, nil) else {
      interface.deallocate()
      throw .callFailed(call: "libinput_path_create_context", path: "libinput", errno: Errno.current)
    }
    for path in devicePaths where path.withCString({ libinput_path_add_device(li, $0) }) == nil {
      libinput_unref(li)
      interface.deallocate()
      throw .callFailed(call: "libinput_path_add_device", path: path, errno: .permissionDenied)
    }
    self.libinput = li
    self.udev = nil
    self.interface = interface
    self.source = devicePaths.joined(separator: ", ")
    self.transform = transform
    self.calibration = calibration
    self.cursor = Point(x: transform.panelWidth / 2, y: transform.panelHeight / 2)
  }

  deinit {
    libinput_unref(libinput)
    if let udev { udev_unref(udev) }
    interface.deallocate()
  }

  /// The descriptor to `poll`; readable when `drain` has work.
  public var pollDescriptor: Int32 { libinput_get_fd(libinput) }

  /// Reads every queued libinput event and hands the meaningful ones to `body`.
  ///
  /// Call it once before the first `poll` (libinput queues DEVICE_ADDED events at
  /// start-up) and whenever `pollDescriptor` is readable.
  ///
  /// - Throws: `InputError.callFailed` when `libinput_dispatch` fails.
  public mutating func drain(_ body: (InputEvent) -> Void) throws(InputError) {
    let li = libinput
    try systemCall("libinput_dispatch", on: source) { libinput_dispatch(li) }
    while let event = libinput_get_event(libinput) {
      handle(event, body)
      libinput_event_destroy(event)
    }
  }

  // MARK: Events

  private mutating func handle(_ event: OpaquePointer, _ body: (InputEvent) -> Void) {
    let type = libinput_event_get_type(event)
    switch type {
    case LIBINPUT_EVENT_DEVICE_ADDED:
      let device = libinput_event_get_device(event)
      configure(device)
      body(.deviceAdded(name: InputContext.name(of: device)))
    case LIBINPUT_EVENT_DEVICE_REMOVED:
      body(.deviceRemoved(name: InputContext.name(of: libinput_event_get_device(event))))
    case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
      LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
      guard let touch = libinput_event_get_touch_event(event) else { return }
      touchEvent(touch, type, body)
    case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_BUTTON:
      guard let pointer = libinput_event_get_pointer_event(event) else { return }
      pointerEvent(pointer, type, body)
    case LIBINPUT_EVENT_KEYBOARD_KEY:
      guard let key = libinput_event_get_keyboard_event(event),
        libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED,
        let action = KeyAction(keyCode: libinput_event_keyboard_get_key(key))
      else { return }
      body(.key(action))
    default:
      return
    }
  }

  private func touchEvent(_ touch: OpaquePointer, _ type: libinput_event_type, _ body: (InputEvent) -> Void) {
    let time = libinput_event_touch_get_time_usec(touch)
    let slot = type == LIBINPUT_EVENT_TOUCH_FRAME ? 0 : libinput_event_touch_get_seat_slot(touch)
    var position = Point(x: 0, y: 0)
    let kind: TouchEvent.Kind
    switch type {
    case LIBINPUT_EVENT_TOUCH_DOWN: kind = .down
    case LIBINPUT_EVENT_TOUCH_MOTION: kind = .motion
    case LIBINPUT_EVENT_TOUCH_UP: kind = .up
    case LIBINPUT_EVENT_TOUCH_CANCEL: kind = .cancel
    default: kind = .frame
    }
    if kind == .down || kind == .motion {
      let panel = Point(
        x: InputContext.fixed(libinput_event_touch_get_x_transformed(touch, UInt32(transform.panelWidth))),
        y: InputContext.fixed(libinput_event_touch_get_y_transformed(touch, UInt32(transform.panelHeight))))
      position = transform.viewPoint(fromPanel: panel)
    }
    body(.touch(TouchEvent(kind: kind, slot: max(slot, 0), position: position, timeMicroseconds: time)))
  }

  /// Pointers: the position moves a cursor; the left button makes it one finger in
  /// slot 0, each change followed by a frame as a touchscreen would send.
  private mutating func pointerEvent(_ pointer: OpaquePointer, _ type: libinput_event_type, _ body: (InputEvent) -> Void) {
    let time = libinput_event_pointer_get_time_usec(pointer)
    var kind: TouchEvent.Kind?
    switch type {
    case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
      cursor = Point(
        x: InputContext.fixed(libinput_event_pointer_get_absolute_x_transformed(pointer, UInt32(transform.panelWidth))),
        y: InputContext.fixed(libinput_event_pointer_get_absolute_y_transformed(pointer, UInt32(transform.panelHeight))))
      kind = buttonDown ? .motion : nil
      // A tablet or touch-like pointer: the user sees the pen or the host's cursor.
      drawsCursor = false
    case LIBINPUT_EVENT_POINTER_MOTION:
      drawsCursor = true
      cursor = clamped(
        Point(
          x: cursor.x + InputContext.fixed(libinput_event_pointer_get_dx(pointer)),
          y: cursor.y + InputContext.fixed(libinput_event_pointer_get_dy(pointer))))
      kind = buttonDown ? .motion : nil
    default:
      guard libinput_event_pointer_get_button(pointer) == 0x110 else { return }  // BTN_LEFT
      let pressed = libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED
      guard pressed != buttonDown else { return }
      buttonDown = pressed
      kind = pressed ? .down : .up
    }
    let view = transform.viewPoint(fromPanel: cursor)
    if drawsCursor { body(.cursor(view)) }
    guard let kind else { return }
    body(.touch(TouchEvent(kind: kind, slot: 0, position: view, timeMicroseconds: time)))
    body(.touch(TouchEvent(kind: .frame, slot: 0, position: view, timeMicroseconds: time)))
  }

  private func clamped(_ p: Point) -> Point {
    let maxX = Fixed16(transform.panelWidth) - Fixed16(raw: 1)
    let maxY = Fixed16(transform.panelHeight) - Fixed16(raw: 1)
    return Point(x: min(max(p.x, .zero), maxX), y: min(max(p.y, .zero), maxY))
  }

  /// Applies `--calibration` to a touchscreen that accepts one.
  private func configure(_ device: OpaquePointer?) {
    guard let device, let calibration,
      libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0,
      libinput_device_config_calibration_has_matrix(device) != 0
    else { return }
    var m = (calibration.values[0], calibration.values[1], calibration.values[2],
             calibration.values[3], calibration.values[4], calibration.values[5])
    _ = withUnsafePointer(to: &m.0) { libinput_device_config_calibration_set_matrix(device, $0) }
  }

  // MARK: Helpers

  /// libinput's double pixel positions in 16.16 (scaling by 2^16 is exact; only the
  /// final rounding to a whole raw unit happens, the same on every architecture).
  static func fixed(_ value: Double) -> Fixed16 {
    // Truncating conversion of x + 0.5 rounds half away from zero without libm.
    let scaled = max(min(value * 65536, Double(Int32.max) - 1), Double(Int32.min) + 1)
    let raw = scaled >= 0 ? Int32(scaled + 0.5) : -Int32(-scaled + 0.5)
    return Fixed16(raw: raw)
  }

  private static func name(of device: OpaquePointer?) -> String {
    guard let device, let name = libinput_device_get_name(device) else { return "unnamed device" }
    return String(cString: name)
  }

  /// The open/close callbacks libinput uses for device nodes. They are C function
  /// pointers, so they capture nothing: the node is opened with the flags libinput
  /// asks for, and failures are returned as -errno as libinput expects. The
  /// descriptor is libinput's until it hands it back to `close_restricted`, which
  /// takes ownership to close it.
  private static func makeInterface() -> UnsafeMutablePointer<libinput_interface> {
    let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    interface.initialize(
      to: libinput_interface(
        open_restricted: { path, flags, _ in
          guard let path else { return -Errno.invalid.rawValue }
          return resultRetryingInterrupts { pl_open_native(path, flags) }
        },
        close_restricted: { fd, _ in FileDescriptor(owning: fd).close() }))
    return interface
  }
}
