// Recording: replays `libinput record` captures as PatternCore `TouchEvent`s.
//
// Design. A capture is read in three steps, each its own type:
//   1. `FileBytes` checks the path with stat (regular file, at most 64 MiB) before
//      reading it, so a directory, a device node or a huge file is refused at once.
//   2. `RecordingParser` walks libyaml's *event* stream (`YAMLEventReader`, which
//      refuses nesting past 32 levels) and keeps the device to replay
//      (`DeviceSelection`: by number or name, or the first touchscreen that recorded
//      events, else the first tablet or absolute pointer that did; `DeviceKind` says
//      which is which) and its evdev rows (`EvdevRow`); every other device's rows are
//      checked, counted and dropped.
//   3. `EvdevConverter`, a pure state machine, turns rows into down/motion/up/cancel and
//      frame events in panel pixels, then view pixels, the way the kernel's
//      multitouch protocol B, single-touch and absolute-pointer devices mean them.
//      Positions outside the axis range are clamped onto it and counted
//      (`ClampedCoordinates`), for one warning per replay.
// Live input (the Input module, through libinput) produces the same `TouchEvent`s, so
// the gesture tracker cannot tell a replay from a finger.
//
// Rejected alternatives:
// - Parsing the YAML by hand, line by line: libinput record's output uses flow lists,
//   comments and quoted strings, and anything a user edits may use any YAML; a hand
//   parser would accept some files libyaml rejects and the other way round.
// - libyaml's document loader (`yaml_parser_load`): it builds a node tree of the whole
//   file first; the event API reads the rows of one device with flat memory.
// - Replaying through libinput itself (a uinput device): needs root and /dev/uinput,
//   so it cannot run in CI.

import PatternCore

/// A parsed `libinput record` capture: the device that is replayed and its events.
///
/// Which device: the one `DeviceSelection` names; by default the first touchscreen
/// in `devices:` that recorded events, else the first tablet or absolute pointer that
/// did (see `DeviceKind`); the others (keyboards, mice, touchpads, idle devices) are
/// ignored.
public struct Recording: Sendable {
  /// The largest file `init(contentsOf:)` reads: 64 MiB. A minute of one finger at
  /// 100 Hz is about 1 MiB, so this is far past any capture of gestures, and small
  /// enough to hold in memory on a 512 MiB board.
  public static let maximumFileBytes: Int64 = 64 << 20

  /// The file name, for messages.
  public let path: String
  /// The replayed device.
  public let device: RecordedDevice
  /// The device's evdev rows in recorded order, `SYN_REPORT` rows included.
  public let rows: [EvdevRow]

  /// Makes a recording from parts (tests build these without a file).
  ///
  /// - Parameters:
  ///   - path: the name used in messages.
  ///   - device: the device the rows came from.
  ///   - rows: the evdev rows in order.
  public init(path: String, device: RecordedDevice, rows: [EvdevRow]) {
    self.path = path
    self.device = device
    self.rows = rows
  }

  /// Reads and parses a capture file.
  ///
  /// - Parameters:
  ///   - path: the file written by `libinput record --output-file`.
  ///   - device: which of its devices to replay (`--device`).
  /// - Throws: `RecordingError` saying what is wrong with the file, and on which line.
  public init(contentsOf path: String, device: DeviceSelection = .automatic) throws(RecordingError) {
    let bytes = try FileBytes(contentsOf: path, limit: Recording.maximumFileBytes)
    var parser = RecordingParser(reader: YAMLEventReader(bytes: bytes, path: path), selection: device)
    self = try parser.parse()
  }

  /// Parses capture text that is already in memory.
  ///
  /// - Parameters:
  ///   - text: the YAML bytes.
  ///   - path: the name used in messages.
  ///   - device: which of its devices to replay.
  /// - Throws: `RecordingError` saying what is wrong with the text, and on which line.
  public init(parsing text: [UInt8], path: String, device: DeviceSelection = .automatic) throws(RecordingError) {
    var parser = RecordingParser(reader: YAMLEventReader(bytes: FileBytes(copying: text), path: path), selection: device)
    self = try parser.parse()
  }

  /// The recording as touch events in view pixels, and the positions that had to be
  /// clamped onto their axis range.
  ///
  /// All rows are converted before any event is returned, so a damaged row near the
  /// end fails the whole replay instead of leaving half an output.
  ///
  /// - Parameter transform: the panel size and rotation the positions map onto.
  /// - Throws: `RecordingError` for a missing or empty axis range, or a slot or
  ///   tracking ID outside its range.
  public func convert(transform: ViewTransform) throws(RecordingError) -> ConvertedRecording {
    var converter = try EvdevConverter(device: device, transform: transform, path: path)
    var events: [TouchEvent] = []
    events.reserveCapacity(rows.count / 2)
    for row in rows { try converter.convert(row, into: &events) }
    return ConvertedRecording(events: events, clamped: converter.clamped)
  }

  /// The recording as touch events in view pixels (`convert(transform:)` without the
  /// clamping report).
  ///
  /// - Parameter transform: the panel size and rotation the positions map onto.
  /// - Throws: `RecordingError`, as `convert(transform:)`.
  public func touchEvents(transform: ViewTransform) throws(RecordingError) -> [TouchEvent] {
    try convert(transform: transform).events
  }
}
