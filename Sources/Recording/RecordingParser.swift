/// Walks libyaml's events for the layout `libinput record` writes (file version 1):
///
/// ```yaml
/// version: 1
/// ndevices: 1
/// libinput: {version: "1.22.0", git: "unknown"}
/// system: {kernel: "6.1.21-v8+", dmi: "unknown"}
/// devices:
/// - node: /dev/input/event3
///   evdev:
///     name: "raspberrypi-ts"
///     id: [25, 0, 0, 0]
///     codes: {1: [330], 3: [0, 1, 47, 53, 54, 57]}
///     absinfo: {0: [0, 799, 0, 0, 0], ...}
///     properties: [1]
///   udev: ...
///   quirks: ...
///   events:
///   # Current time is 10:41:07
///   - evdev:
///     - [  0,      0,   3,  57,    17] # EV_ABS / ABS_MT_TRACKING_ID    17
///     - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
///   - libinput: ...
/// ```
/// (as written by `tools/libinput-record.c`; block or flow style are both accepted,
/// comments are YAML comments). Unknown keys are skipped, so newer files with more
/// keys still replay; missing required keys are errors naming the line.
///
/// Which device is kept is `DeviceSelection`'s: the one named by number or name, or
/// by the rule the best so far (a touchscreen that recorded events over a tablet or
/// absolute pointer that did, the first of equals). Only rows that may still be
/// replayed are kept, so a `libinput record --all` file costs at most the rows of the
/// best device so far and of the one being read.
struct RecordingParser: ~Copyable {
  private var reader: YAMLEventReader
  private var path: String { reader.path }
  private let selection: DeviceSelection

  /// A device that is, so far, the one to replay, with its rows.
  private struct Candidate {
    var device: RecordedDevice
    var rows: [EvdevRow]
    /// Whether its last frame ended with `SYN_REPORT`, and that frame's line.
    var endsWithReport: Bool
    var lastFrameLine: Int
    /// Its kind's `DeviceKind.automaticRank`.
    var rank: Int
  }

  private var chosen: Candidate?
  private var deviceCount = 0
  /// The first `DeviceSummary.maximumListed` devices, for messages.
  private var listed: [DeviceSummary] = []

  init(reader: consuming YAMLEventReader, selection: DeviceSelection = .automatic) {
    self.reader = reader
    self.selection = selection
  }

  /// Parses the whole first document.
  ///
  /// - Throws: `RecordingError` for YAML errors, a wrong layout, bad numbers, no usable
  ///   device, no events, or a file that stops in the middle of a frame.
  mutating func parse() throws(RecordingError) -> Recording {
    _ = try reader.next()  // stream start
    let document = try reader.next()
    guard document.kind == .documentStart else {
      throw .notARecording(path: path, line: document.line, problem: "the file is empty")
    }
    let top = try reader.next()
    guard top.kind == .mappingStart else {
      throw .notARecording(
        path: path, line: top.line,
        problem: "the top level is \(top.kind.noun), not a mapping with 'version: 1' and 'devices:'")
    }
    var version: YAMLEvent?
    var sawDevices = false
    while true {
      let key = try reader.next()
      if key.kind == .mappingEnd { break }
      switch key.kind == .scalar ? key.value : "" {
      case "version":
        let value = try reader.next()
        guard value.kind == .scalar, value.value == "1" else {
          throw .unsupportedVersion(path: path, line: value.line, version: value.kind == .scalar ? value.value : value.kind.noun)
        }
        version = value
      case "devices":
        sawDevices = true
        try parseDevices()
      default:
        try skipNode(startingWith: key)
        try skipNode(startingWith: try reader.next())
      }
    }
    guard version != nil else {
      throw .notARecording(path: path, line: top.line, problem: "there is no 'version: 1' key")
    }
    guard sawDevices else {
      throw .notARecording(path: path, line: top.line, problem: "there is no 'devices:' list")
    }
    guard let chosen else { throw noDeviceError() }
    guard chosen.device.touchProtocol != nil else {
      throw .cannotReplay(path: path, device: DeviceSummary(chosen.device))
    }
    guard !chosen.rows.isEmpty else { throw .noEvents(path: path, device: chosen.device.name) }
    guard chosen.endsWithReport else {
      throw .truncated(path: path, line: chosen.lastFrameLine, problem: "the last frame has no SYN_REPORT row")
    }
    return Recording(path: path, device: chosen.device, rows: chosen.rows)
  }

  /// Why no device was chosen. A file of one touchscreen or tablet that recorded
  /// nothing keeps the plain "recorded no events"; otherwise the devices are listed.
  private func noDeviceError() -> RecordingError {
    switch selection {
    case .automatic:
      if deviceCount == 1, let only = listed.first, only.kind.automaticRank > 0, only.reportsContact, only.eventCount == 0 {
        return .noEvents(path: path, device: only.name)
      }
      return .noTouchDevice(path: path, devices: listed, total: deviceCount)
    case .number, .name:
      return .noSuchDevice(path: path, selection: selection, devices: listed, total: deviceCount)
    }
  }

  // MARK: Devices

  private mutating func parseDevices() throws(RecordingError) {
    let list = try reader.next()
    if list.isNull { return }
    try expect(list, .sequenceStart, "'devices:' must be a list of devices")
    while true {
      let item = try reader.next()
      if item.kind == .sequenceEnd { return }
      try expect(item, .mappingStart, "each entry of 'devices:' must be a mapping with 'node:', 'evdev:' and 'events:'")
      try parseDevice(startingAt: item.line)
    }
  }

  private mutating func parseDevice(startingAt line: Int) throws(RecordingError) {
    deviceCount += 1
    var device = RecordedDevice(line: line)
    device.index = deviceCount
    var rows: [EvdevRow] = []
    var rowCount = 0
    var endsWithReport = true
    var lastFrameLine = line
    var sawEvdev = false
    var keepRows = false
    var sawEvents = false
    while true {
      let key = try reader.next()
      if key.kind == .mappingEnd {
        // libinput record writes 'events:' for every device, even one that sent none.
        guard sawEvents else {
          if key.line >= reader.lastContentLine {
            throw .truncated(path: path, line: line, problem: "the file stops before the device's 'events:' list")
          }
          throw .notARecording(path: path, line: line, problem: "the device has no 'events:' list")
        }
        break
      }
      switch key.kind == .scalar ? key.value : "" {
      case "node":
        let value = try reader.next()
        if value.kind == .scalar { device.node = value.value } else { try skipNode(startingWith: value) }
      case "evdev":
        sawEvdev = true
        try parseEvdev(into: &device)
      case "events":
        sawEvents = true
        // Decided here, not at the device's start: `evdev:` comes first in what
        // libinput writes, and then the description says whether the rows matter.
        keepRows = mayChoose(device, described: sawEvdev)
        let list = try reader.next()
        if list.isNull { break }
        try expect(list, .sequenceStart, "'events:' must be a list of '- evdev:' frames")
        while true {
          let frame = try reader.next()
          if frame.kind == .sequenceEnd { break }
          if frame.isNull {
            // A bare `- ` as the last entry: the file stops where a frame would start.
            let after = try reader.next()
            try expect(after, .sequenceEnd, "each entry of 'events:' must be '- evdev:' or '- libinput:'")
            endsWithReport = false
            lastFrameLine = frame.line
            break
          }
          try expect(frame, .mappingStart, "each entry of 'events:' must be '- evdev:' or '- libinput:'")
          try parseFrame(
            into: &rows, keep: keepRows, count: &rowCount, endsWithReport: &endsWithReport, line: &lastFrameLine)
        }
      default:
        try skipNode(startingWith: key)
        try skipNode(startingWith: try reader.next())
      }
    }
    device.eventCount = rowCount
    if listed.count < DeviceSummary.maximumListed { listed.append(DeviceSummary(device)) }
    // A device whose rows were not kept is never chosen (a second `evdev:` after
    // `events:` could change its description; its rows are gone).
    guard keepRows || rowCount == 0, chooses(device) else { return }
    chosen = Candidate(
      device: device, rows: rows, endsWithReport: endsWithReport, lastFrameLine: lastFrameLine,
      rank: RecordingParser.rank(of: device))
  }

  /// How the rule ranks a device: its kind's rank when it can report contact, else 0.
  private static func rank(of device: RecordedDevice) -> Int {
    device.touchProtocol == nil ? 0 : device.kind.automaticRank
  }

  /// Whether a device that has been read to its end replaces the choice so far.
  private func chooses(_ device: RecordedDevice) -> Bool {
    switch selection {
    case .automatic:
      let rank = RecordingParser.rank(of: device)
      return rank > 0 && device.eventCount > 0 && rank > (chosen?.rank ?? 0)
    case .number(let number):
      return device.index == number
    case .name(let name):
      return chosen == nil && device.name == name
    }
  }

  /// Whether the rows of a device, as far as it is described when its `events:`
  /// start, may be replayed and so must be kept.
  private func mayChoose(_ device: RecordedDevice, described: Bool) -> Bool {
    switch selection {
    case .automatic:
      // The first touchscreen with events is final.
      if let chosen, chosen.rank == DeviceKind.touchscreen.automaticRank { return false }
      guard described else { return true }
      let rank = RecordingParser.rank(of: device)
      return rank > 0 && rank > (chosen?.rank ?? 0)
    case .number(let number):
      return device.index == number
    case .name(let name):
      return chosen == nil && (!described || device.name == name)
    }
  }

  private mutating func parseEvdev(into device: inout RecordedDevice) throws(RecordingError) {
    let map = try reader.next()
    try expect(map, .mappingStart, "'evdev:' must be a mapping with 'name:', 'codes:' and 'absinfo:'")
    while true {
      let key = try reader.next()
      if key.kind == .mappingEnd { return }
      switch key.kind == .scalar ? key.value : "" {
      case "name":
        let value = try reader.next()
        if value.kind == .scalar { device.name = value.value } else { try skipNode(startingWith: value) }
      case "codes":
        let codes = try reader.next()
        if codes.isNull { break }
        try expect(codes, .mappingStart, "'codes:' must map event types to lists of codes")
        while true {
          let typeKey = try reader.next()
          if typeKey.kind == .mappingEnd { break }
          let type = UInt16(try number(typeKey, "an event type", 0, Int64(EvdevCode.maximumType)))
          var list: [UInt16] = []
          let items = try reader.next()
          try expect(items, .sequenceStart, "the codes of event type \(type) must be a list")
          while true {
            let item = try reader.next()
            if item.kind == .sequenceEnd { break }
            list.append(UInt16(try number(item, "an event code", 0, Int64(EvdevCode.maximumCode))))
          }
          device.setCodes(list, forType: type)
        }
      case "properties":
        let list = try reader.next()
        if list.isNull { break }
        try expect(list, .sequenceStart, "'properties:' must be a list of input property numbers")
        while true {
          let item = try reader.next()
          if item.kind == .sequenceEnd { break }
          device.properties.append(
            UInt16(try number(item, "an input property", 0, Int64(EvdevCode.maximumProperty))))
        }
      case "absinfo":
        let absinfo = try reader.next()
        if absinfo.isNull { break }
        try expect(absinfo, .mappingStart, "'absinfo:' must map axis codes to [min, max, fuzz, flat, resolution]")
        while true {
          let codeKey = try reader.next()
          if codeKey.kind == .mappingEnd { break }
          let code = UInt16(try number(codeKey, "an axis code", 0, Int64(EvdevCode.maximumAbsCode)))
          let values = try int32List(what: "the absinfo of \(EvdevCode.absName(code))", count: 5)
          device.setAbsinfo(
            AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3], resolution: values[4]),
            forCode: code, line: codeKey.line)
        }
      default:
        try skipNode(startingWith: key)
        try skipNode(startingWith: try reader.next())
      }
    }
  }

  // MARK: Events

  /// One `- evdev: [...]` or `- libinput: ...` entry (the mapping start is read).
  private mutating func parseFrame(
    into rows: inout [EvdevRow], keep: Bool, count: inout Int, endsWithReport: inout Bool, line: inout Int
  ) throws(RecordingError) {
    while true {
      let key = try reader.next()
      if key.kind == .mappingEnd { return }
      guard key.kind == .scalar, key.value == "evdev" else {
        // libinput's own events (`- libinput:`), hidraw reports, anything newer.
        try skipNode(startingWith: key)
        try skipNode(startingWith: try reader.next())
        continue
      }
      line = key.line
      let list = try reader.next()
      if list.isNull {
        // `- evdev:` with nothing after it: the file stops where the rows would start.
        endsWithReport = false
        continue
      }
      try expect(list, .sequenceStart, "'evdev:' must be a list of [sec, usec, type, code, value] rows")
      var last: EvdevRow?
      while true {
        let start = try reader.next()
        if start.kind == .sequenceEnd { break }
        let row = try parseRow(startingWith: start)
        if keep { rows.append(row) }
        count += 1
        last = row
      }
      endsWithReport = last?.isReport ?? false
    }
  }

  /// One `[sec, usec, type, code, value]` row, checked against what the kernel can send.
  private mutating func parseRow(startingWith start: YAMLEvent) throws(RecordingError) -> EvdevRow {
    try expect(start, .sequenceStart, "an evdev row must be [sec, usec, type, code, value]")
    let seconds = try number(try reader.next(), "the seconds", 0, Int64(UInt32.max))
    let microseconds = try number(try reader.next(), "the microseconds", 0, 999_999)
    let type = try number(try reader.next(), "the event type", 0, Int64(EvdevCode.maximumType))
    let code = try number(try reader.next(), "the event code", 0, Int64(EvdevCode.maximumCode))
    let value = try number(try reader.next(), "the event value (a signed 32-bit number)", Int64(Int32.min), Int64(Int32.max))
    let end = try reader.next()
    try expect(end, .sequenceEnd, "an evdev row must have exactly 5 numbers: [sec, usec, type, code, value]")
    return EvdevRow(
      seconds: UInt32(seconds), microseconds: UInt32(microseconds), type: UInt16(type), code: UInt16(code),
      value: Int32(value), line: start.line)
  }

  // MARK: Helpers

  /// A list of exactly `count` 32-bit numbers (the list start is read here).
  private mutating func int32List(what: String, count: Int) throws(RecordingError) -> [Int32] {
    let start = try reader.next()
    try expect(start, .sequenceStart, "\(what) must be a list of \(count) numbers")
    var values: [Int32] = []
    while true {
      let item = try reader.next()
      if item.kind == .sequenceEnd { break }
      guard values.count < count else {
        throw .notARecording(path: path, line: item.line, problem: "\(what) must have \(count) numbers, not more")
      }
      values.append(Int32(try number(item, what, Int64(Int32.min), Int64(Int32.max))))
    }
    guard values.count == count else {
      throw .notARecording(path: path, line: start.line, problem: "\(what) has \(values.count) numbers, not \(count)")
    }
    return values
  }

  /// A scalar as a whole number in `minimum...maximum`.
  private func number(_ event: YAMLEvent, _ what: String, _ minimum: Int64, _ maximum: Int64) throws(RecordingError) -> Int64 {
    guard event.kind == .scalar else {
      throw .notARecording(path: path, line: event.line, problem: "\(what) must be a number, not \(event.kind.noun)")
    }
    guard let value = RecordingParser.integer(event.value) else {
      throw .badNumber(path: path, line: event.line, what: what, text: event.value)
    }
    guard value >= minimum && value <= maximum else {
      throw .valueOutOfRange(path: path, line: event.line, what: what, value: value, minimum: minimum, maximum: maximum)
    }
    return value
  }

  /// A decimal integer with an optional sign, or nil. At most 18 digits, so the
  /// value always fits `Int64` and "absurd" numbers are caught by the range check.
  static func integer(_ text: String) -> Int64? {
    var value: Int64 = 0
    var digits = 0
    var negative = false
    for (i, c) in text.utf8.enumerated() {
      if i == 0 && (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) {
        negative = c == UInt8(ascii: "-")
        continue
      }
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"), digits < 18 else { return nil }
      value = value * 10 + Int64(c - UInt8(ascii: "0"))
      digits += 1
    }
    guard digits > 0 else { return nil }
    return negative ? -value : value
  }

  private func expect(_ event: YAMLEvent, _ kind: YAMLEvent.Kind, _ problem: String) throws(RecordingError) {
    guard event.kind == kind else {
      if event.isNull && event.line >= reader.lastContentLine {
        throw .truncated(path: path, line: event.line, problem: "the file stops here (\(problem))")
      }
      throw .notARecording(path: path, line: event.line, problem: "\(problem), found \(event.kind.noun)")
    }
  }

  /// Skips the node that `first` starts, however deeply nested, without recursion
  /// (a hostile file may nest thousands of levels).
  private mutating func skipNode(startingWith first: YAMLEvent) throws(RecordingError) {
    var depth = 0
    var event = first
    while true {
      switch event.kind {
      case .sequenceStart, .mappingStart: depth += 1
      case .sequenceEnd, .mappingEnd: depth -= 1
      case .streamEnd, .documentEnd, .streamStart, .documentStart:
        throw .truncated(path: path, line: event.line, problem: "the document ends inside a list or mapping")
      case .scalar, .alias: break
      }
      if depth <= 0 { return }
      event = try reader.next()
    }
  }
}
