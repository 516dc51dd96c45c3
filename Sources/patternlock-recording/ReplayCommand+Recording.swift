import CommandKit
import Configuration
import LockProgram
import PatternCore
import Recording
import SystemCalls

extension ReplayCommand {
  /// The recorded device the settings name, as Recording selects it.
  static func deviceSelection(_ device: DeviceInRecording) -> DeviceSelection {
    switch device {
    case .automatic: return .automatic
    case .number(let n): return .number(n)
    case .name(let name): return .name(name)
    }
  }

  /// Reads the recording and converts the chosen device's rows into touch events in
  /// view pixels.
  ///
  /// Positions clamped onto their axis range are one warning line on stderr, before
  /// any gesture line: the replay goes on, as the lock screen would with such a panel.
  static func touchEvents(_ path: String, device: DeviceSelection, transform: ViewTransform) throws(RecordingFailure) -> [TouchEvent] {
    do throws(RecordingError) {
      let recording = try Recording(contentsOf: path, device: device)
      let converted = try recording.convert(transform: transform)
      if let clamped = converted.clamped { Console.error(clamped.warning(path: path, device: recording.device.name)) }
      return converted.events
    } catch {
      throw .recording(error)
    }
  }
}
