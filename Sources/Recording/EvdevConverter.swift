import PatternCore

/// Turns evdev rows into `TouchEvent`s, the way the kernel's input protocols mean them.
///
/// Rows change state; each `SYN_REPORT` publishes it, per contact in slot order: an
/// `up` for a contact that ended, a `down` for one that began (once its position is
/// known), a `motion` when a contact that stays down moved to a different point, and
/// then one `.frame` if the report produced anything. The protocols:
/// - multitouch B: `ABS_MT_SLOT` selects a slot (0 until set), `ABS_MT_TRACKING_ID`
///   >= 0 starts a contact in it (a new ID on a slot that is down ends the old contact
///   first) and -1 ends it; `ABS_MT_POSITION_X/Y` move it. The kernel sends a slot's
///   position only when it changes, so a slot keeps its last position across contacts.
///   The single-touch `ABS_X/Y` and `BTN_TOUCH` that such devices also send are ignored.
/// - single-touch: `BTN_TOUCH` 1/0 is down/up of slot 0, `ABS_X/Y` move it.
/// - pointer: the same with `BTN_LEFT`; motion with the button up is hover, ignored.
/// - `SYN_DROPPED`: the kernel lost events; every contact is cancelled and the rows up
///   to the next report are skipped; a slot needs a new tracking ID to count again.
///
/// Positions: an axis value `v` with range `min...max` becomes the panel coordinate
/// `(v - min) * size / (max - min + 1)` (libinput's `absinfo_range` and
/// `libinput_event_touch_get_x_transformed`, so live input and replay agree), rounded
/// to the nearest 1/65536 pixel, ties away from zero; X runs along the panel's width
/// and Y along its height, then `ViewTransform.viewPoint(fromPanel:)` turns the panel
/// point into the view. Times are `sec * 1_000_000 + usec` of the row that reported.
///
/// A position outside its `absinfo` range is clamped onto the range and counted in
/// `clamped` (real panels send such values; see `ClampedCoordinates`). A slot or
/// tracking ID outside its range is an error: the slot indexes the contact table, and
/// either means the file was edited or the description does not belong to the events.
public struct EvdevConverter {
  /// How the device reports contacts.
  public let touchProtocol: TouchProtocol
  /// The positions clamped so far, or nil when none was outside its range.
  public private(set) var clamped: ClampedCoordinates?
  private let transform: ViewTransform
  private let path: String
  private let device: RecordedDevice
  private let xCode: UInt16, yCode: UInt16
  private let xAxis: AbsInfo, yAxis: AbsInfo
  /// The key that means "touching": `BTN_TOUCH` or `BTN_LEFT` (unused for multitouch).
  private let contactButton: UInt16
  private var slots: [Slot]
  private var currentSlot = 0
  /// Set by `SYN_DROPPED` until the next `SYN_REPORT`.
  private var discarding = false

  /// What is known of one contact slot.
  private struct Slot {
    /// Whether the device says a contact is in the slot (tracking ID >= 0, or the
    /// button is down).
    var present = false
    /// Whether a `down` went out that no `up` or `cancel` has matched yet.
    var active = false
    /// Whether a contact began and no `down` went out for it yet.
    var waitingForDown = false
    /// Whether the active contact ended during this frame.
    var ended = false
    var moved = false
    /// Last raw axis values; nil until the device sends them.
    var x: Int32?
    var y: Int32?
    /// Where the last `down` or `motion` put the contact, in view pixels.
    var reported = Point(x: 0, y: 0)
  }

  /// Prepares a converter for one device.
  ///
  /// - Parameters:
  ///   - device: the recorded device; its `touchProtocol` decides how rows are read.
  ///   - transform: the panel size and rotation positions map onto.
  ///   - path: the file name for error messages.
  /// - Throws: `RecordingError.cannotReplay` if the device cannot report touches,
  ///   `.missingAbsinfo` or `.invalidAbsinfo` for an axis it needs.
  public init(device: RecordedDevice, transform: ViewTransform, path: String = "recording") throws(RecordingError) {
    guard let touchProtocol = device.touchProtocol else { throw .cannotReplay(path: path, device: DeviceSummary(device)) }
    self.touchProtocol = touchProtocol
    self.transform = transform
    self.path = path
    self.device = device
    switch touchProtocol {
    case .multitouch:
      xCode = EvdevCode.absMTPositionX
      yCode = EvdevCode.absMTPositionY
      contactButton = EvdevCode.buttonTouch
      let slotAxis = try EvdevConverter.axis(EvdevCode.absMTSlot, of: device, path: path)
      _ = try EvdevConverter.axis(EvdevCode.absMTTrackingID, of: device, path: path)
      guard slotAxis.minimum == 0, slotAxis.maximum < Int32(EvdevCode.maximumSlots) else {
        throw .valueOutOfRange(
          path: path, line: device.line(ofAbsinfo: EvdevCode.absMTSlot), what: "the largest ABS_MT_SLOT",
          value: Int64(slotAxis.maximum), minimum: 0, maximum: Int64(EvdevCode.maximumSlots - 1))
      }
      slots = Array(repeating: Slot(), count: Int(slotAxis.maximum) + 1)
    case .singleTouch, .pointer:
      xCode = EvdevCode.absX
      yCode = EvdevCode.absY
      contactButton = touchProtocol == .singleTouch ? EvdevCode.buttonTouch : EvdevCode.buttonLeft
      slots = [Slot()]
    }
    xAxis = try EvdevConverter.axis(xCode, of: device, path: path)
    yAxis = try EvdevConverter.axis(yCode, of: device, path: path)
    _checkInvariants()
  }

  /// The range of an axis the converter needs, which must exist and not be empty.
  private static func axis(_ code: UInt16, of device: RecordedDevice, path: String) throws(RecordingError) -> AbsInfo {
    guard let info = device.absinfo[code] else {
      throw .missingAbsinfo(path: path, line: device.line, code: code)
    }
    guard info.maximum > info.minimum else {
      throw .invalidAbsinfo(
        path: path, line: device.line(ofAbsinfo: code), code: code, minimum: info.minimum, maximum: info.maximum)
    }
    return info
  }

  /// Applies one row, appending the events a `SYN_REPORT` publishes.
  ///
  /// - Parameters:
  ///   - row: the next evdev row of the device.
  ///   - events: where new events are appended.
  /// - Throws: `RecordingError.missingAbsinfo` for an axis without a range, or
  ///   `.valueOutOfRange` for a slot or tracking ID outside its range.
  public mutating func convert(_ row: EvdevRow, into events: inout [TouchEvent]) throws(RecordingError) {
    defer { _checkInvariants() }
    switch row.type {
    case EvdevCode.eventSyn:
      if row.code == EvdevCode.synReport {
        if discarding {
          discarding = false
        } else {
          publish(at: row.timeMicroseconds, into: &events)
        }
      } else if row.code == EvdevCode.synDropped {
        cancelAll(at: row.timeMicroseconds, into: &events)
        discarding = true
      }
    case _ where discarding:
      return
    case EvdevCode.eventAbs:
      try absolute(row)
    case EvdevCode.eventKey:
      guard touchProtocol != .multitouch, row.code == contactButton else { return }
      // 2 is key repeat; buttons never repeat, but it would mean "still down".
      if row.value == 0 {
        end(slot: 0)
      } else if !slots[0].present {
        slots[0].present = true
        slots[0].waitingForDown = true
      }
    default:
      return
    }
  }

  private mutating func absolute(_ row: EvdevRow) throws(RecordingError) {
    guard let info = device.absinfo[row.code] else {
      throw .missingAbsinfo(path: path, line: row.line, code: row.code)
    }
    switch row.code {
    case xCode:
      slots[currentSlot].x = clamp(row, info)
      slots[currentSlot].moved = true
    case yCode:
      slots[currentSlot].y = clamp(row, info)
      slots[currentSlot].moved = true
    case EvdevCode.absMTSlot where touchProtocol == .multitouch:
      try check(row, info)
      currentSlot = Int(row.value)
    case EvdevCode.absMTTrackingID where touchProtocol == .multitouch:
      if row.value == -1 {
        end(slot: currentSlot)
      } else {
        try check(row, info)
        // A new ID on a slot that is down: the old contact ended without a -1.
        end(slot: currentSlot)
        slots[currentSlot].present = true
        slots[currentSlot].waitingForDown = true
      }
    default:
      // Pressure, touch size, tool type, the legacy axes of a multitouch device:
      // not needed to follow a finger.
      return
    }
  }

  /// Ends the contact in a slot, if any; the `up` goes out with the next report.
  private mutating func end(slot index: Int) {
    guard slots[index].present else { return }
    slots[index].present = false
    slots[index].waitingForDown = false
    if slots[index].active { slots[index].ended = true }
  }

  /// A position moved onto its axis range, counted in `clamped` when it was outside.
  private mutating func clamp(_ row: EvdevRow, _ info: AbsInfo) -> Int32 {
    if info.contains(row.value) { return row.value }
    if clamped == nil {
      clamped = ClampedCoordinates(
        count: 0, line: row.line, code: row.code, value: row.value, minimum: info.minimum, maximum: info.maximum)
    }
    clamped?.count += 1
    return min(max(row.value, info.minimum), info.maximum)
  }

  private func check(_ row: EvdevRow, _ info: AbsInfo) throws(RecordingError) {
    guard info.contains(row.value) else {
      throw .valueOutOfRange(
        path: path, line: row.line, what: EvdevCode.absName(row.code), value: Int64(row.value),
        minimum: Int64(info.minimum), maximum: Int64(info.maximum))
    }
  }

  /// Publishes what changed since the last report.
  private mutating func publish(at time: UInt64, into events: inout [TouchEvent]) {
    let before = events.count
    for index in slots.indices {
      var slot = slots[index]
      let number = Int32(index)
      if slot.ended {
        events.append(TouchEvent(kind: .up, slot: number, position: slot.reported, timeMicroseconds: time))
        slot.active = false
        slot.ended = false
      }
      if slot.waitingForDown, let x = slot.x, let y = slot.y {
        let p = viewPoint(x: x, y: y)
        events.append(TouchEvent(kind: .down, slot: number, position: p, timeMicroseconds: time))
        slot.active = true
        slot.waitingForDown = false
        slot.reported = p
      } else if slot.active, slot.moved, let x = slot.x, let y = slot.y {
        let p = viewPoint(x: x, y: y)
        if p != slot.reported {
          events.append(TouchEvent(kind: .motion, slot: number, position: p, timeMicroseconds: time))
          slot.reported = p
        }
      }
      slot.moved = false
      slots[index] = slot
    }
    if events.count != before {
      events.append(TouchEvent(kind: .frame, slot: 0, position: Point(x: 0, y: 0), timeMicroseconds: time))
    }
  }

  /// `SYN_DROPPED`: cancels every contact; none counts again until it starts anew.
  private mutating func cancelAll(at time: UInt64, into events: inout [TouchEvent]) {
    let before = events.count
    for index in slots.indices {
      if slots[index].active {
        events.append(
          TouchEvent(kind: .cancel, slot: Int32(index), position: slots[index].reported, timeMicroseconds: time))
      }
      slots[index].present = false
      slots[index].active = false
      slots[index].waitingForDown = false
      slots[index].ended = false
      slots[index].moved = false
    }
    if events.count != before {
      events.append(TouchEvent(kind: .frame, slot: 0, position: Point(x: 0, y: 0), timeMicroseconds: time))
    }
  }

  /// A raw position in view pixels (see the type's documentation for the rounding).
  public func viewPoint(x: Int32, y: Int32) -> Point {
    let px = Fixed16(
      numerator: (Int64(x) - Int64(xAxis.minimum)) * Int64(transform.panelWidth), denominator: xAxis.valueCount)
    let py = Fixed16(
      numerator: (Int64(y) - Int64(yAxis.minimum)) * Int64(transform.panelHeight), denominator: yAxis.valueCount)
    return transform.viewPoint(fromPanel: Point(x: px, y: py))
  }

  #if DEBUG
  /// Checks that the slot index is valid and every active contact has a position.
  func _checkInvariants() {
    precondition(currentSlot >= 0 && currentSlot < slots.count, "current slot out of range")
    for slot in slots {
      precondition(!slot.active || (slot.x != nil && slot.y != nil), "active contact without a position")
      precondition(!(slot.active && slot.waitingForDown && !slot.ended), "contact both down and waiting")
    }
  }
  #else
  @inline(__always) func _checkInvariants() {}
  #endif
}
