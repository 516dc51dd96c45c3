import PatternCore
import SystemCalls

/// Why a recording cannot be replayed.
///
/// Every case names the file, and the line where one is known (libyaml's marks, made
/// 1-based), so `message` can tell the user what is wrong, where, and what to do.
public enum RecordingError: DescribedError, Equatable {
  /// The file cannot be opened or examined (`errno` from `stat`/`open`).
  case cannotOpen(path: String, errno: Errno)
  /// Reading the open file failed (`errno` from `read`).
  case readFailed(path: String, errno: Errno)
  /// The path is a directory, a device or a pipe; `kind` says which.
  case notARegularFile(path: String, kind: String)
  /// The file is larger than `Recording.maximumFileBytes`.
  case tooLarge(path: String, bytes: Int64)
  /// libyaml rejected the text; `problem` is its description.
  case notYAML(path: String, line: Int, problem: String)
  /// The text stops part-way: inside a YAML collection, or in an unfinished frame.
  case truncated(path: String, line: Int, problem: String)
  /// Valid YAML, but not laid out as `libinput record` writes it.
  case notARecording(path: String, line: Int, problem: String)
  /// `version:` is not 1.
  case unsupportedVersion(path: String, line: Int, version: String)
  /// A scalar that should be a whole number is not one.
  case badNumber(path: String, line: Int, what: String, text: String)
  /// A number is outside what the kernel or the device's `absinfo` allows.
  case valueOutOfRange(path: String, line: Int, what: String, value: Int64, minimum: Int64, maximum: Int64)
  /// An axis the replay needs has no `absinfo:` entry.
  case missingAbsinfo(path: String, line: Int, code: UInt16)
  /// An axis's range is empty (`max < min`).
  case invalidAbsinfo(path: String, line: Int, code: UInt16, minimum: Int32, maximum: Int32)
  /// Lists and mappings nest deeper than `limit`, far past any recording.
  case tooDeep(path: String, line: Int, limit: Int)
  /// No device in the file is a touchscreen or tablet that recorded events. `devices`
  /// describes the first few (`DeviceSummary.maximumListed`) of the `total`.
  case noTouchDevice(path: String, devices: [DeviceSummary], total: Int)
  /// `--device` names a number or name that no device in the file has.
  case noSuchDevice(path: String, selection: DeviceSelection, devices: [DeviceSummary], total: Int)
  /// The device chosen with `--device` has no absolute position and contact to replay.
  case cannotReplay(path: String, device: DeviceSummary)
  /// The chosen device recorded no evdev events.
  case noEvents(path: String, device: String)

  /// One line for the user: the file (and line), the problem, and what to do.
  public var message: String {
    switch self {
    case .cannotOpen(let path, let errno):
      return "cannot open recording \(path): \(errno.text) (check the path and that this user may read the file)"
    case .readFailed(let path, let errno):
      return "cannot read recording \(path): \(errno.text) (copy the file to local storage and try again)"
    case .notARegularFile(let path, let kind):
      return "\(path) is \(kind), not a recording (give the YAML file written by 'libinput record --output-file FILE')"
    case .tooLarge(let path, let bytes):
      return "recording \(path) is \(bytes) bytes, over the \(Recording.maximumFileBytes >> 20) MiB limit (record only a few gestures; each takes a few kilobytes)"
    case .notYAML(let path, let line, let problem):
      return "\(path):\(line): not a YAML file: \(problem) (give the file written by 'libinput record --output-file FILE')"
    case .truncated(let path, let line, let problem):
      return "\(path):\(line): the recording is cut short: \(problem) (copy the whole file, or record again and stop with Ctrl+C)"
    case .notARecording(let path, let line, let problem):
      return "\(path):\(line): not a libinput recording: \(problem) (make one with 'libinput record --output-file FILE /dev/input/eventN')"
    case .unsupportedVersion(let path, let line, let version):
      return "\(path):\(line): recording format version \(RecordingError.clip(version)) is not supported, only version 1 (record again with libinput 1.11 or later)"
    case .badNumber(let path, let line, let what, let text):
      return "\(path):\(line): \(what) '\(RecordingError.clip(text))' is not a whole number of at most 18 digits (the file was edited or damaged; record it again)"
    case .valueOutOfRange(let path, let line, let what, let value, let minimum, let maximum):
      return "\(path):\(line): \(what) \(value) is outside \(minimum)...\(maximum) (the file was edited or damaged, or the device description does not match its events; record it again)"
    case .missingAbsinfo(let path, let line, let code):
      return "\(path):\(line): axis \(EvdevCode.absName(code)) (\(code)) is used but has no absinfo entry (the device description is incomplete; record it again with 'libinput record')"
    case .invalidAbsinfo(let path, let line, let code, let minimum, let maximum):
      return "\(path):\(line): axis \(EvdevCode.absName(code)) (\(code)) has the empty range \(minimum)...\(maximum) (the device description is damaged; record it again)"
    case .tooDeep(let path, let line, let limit):
      return "\(path):\(line): lists and mappings nest more than \(limit) levels deep, where a libinput recording nests fewer than 10 (the file was edited or is not a recording; record it again)"
    case .noTouchDevice(let path, _, 0), .noSuchDevice(let path, _, _, 0):
      return "\(path): its 'devices:' list is empty; record the touchscreen's /dev/input/eventN while drawing"
    case .noTouchDevice(let path, let devices, let total):
      return "\(path): no touchscreen or tablet that recorded events among its \(RecordingError.count(total, "device")): \(DeviceSummary.list(devices, total: total)); record the touchscreen's /dev/input/eventN while drawing\(devices.contains { $0.reportsContact } ? ", or choose a device with --device N" : "")"
    case .noSuchDevice(let path, let selection, let devices, let total):
      return "\(path): there is no device \(selection.description) among its \(RecordingError.count(total, "device")): \(DeviceSummary.list(devices, total: total)); give --device a number from 1 to \(total) or one of these names"
    case .cannotReplay(let path, let device):
      // The kind's note already says why, when it has one.
      let why = device.kind.note == nil ? ": " + (device.reasonItCannotReplay ?? "it reports no contact") : ""
      return "\(path): device \(device.description) cannot draw a pattern\(why); choose a touchscreen or tablet with --device, or record one"
    case .noEvents(let path, let device):
      return "\(path): device '\(RecordingError.clip(device))' recorded no events (touch the screen while 'libinput record' runs, then stop it with Ctrl+C)"
    }
  }

  /// "1 device", "3 devices".
  static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

  /// At most 40 characters of user text, so one bad scalar cannot flood the terminal.
  static func clip(_ text: String) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == 40 { return result + "..." }
      // Control characters would break the one-line message.
      if scalar.value < 0x20 || scalar.value == 0x7f {
        result += "?"
      } else {
        result.unicodeScalars.append(scalar)
      }
      count += 1
    }
    return result
  }
}
