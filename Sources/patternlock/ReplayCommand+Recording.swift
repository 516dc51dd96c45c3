import CShim
import PatternCore
import Recording

extension ReplayCommand {
  /// `--device N|NAME` as a selection, or exit 2 saying what the option takes.
  static func deviceSelection(_ text: String) -> DeviceSelection {
    guard let selection = DeviceSelection(argument: text) else {
      Console.fail("--device takes a device's number in the recording (1 for the first) or its name, not '\(text)'")
    }
    return selection
  }

  /// Reads the recording and converts the chosen device's rows into touch events in
  /// view pixels; a bad file ends the process with its one-line message.
  ///
  /// Positions clamped onto their axis range are one warning line on stderr, before
  /// any gesture line: the replay goes on, as the lock screen would with such a panel.
  static func touchEvents(_ path: String, device: DeviceSelection, transform: ViewTransform) -> [TouchEvent] {
    do throws(RecordingError) {
      let recording = try Recording(contentsOf: path, device: device)
      let converted = try recording.convert(transform: transform)
      if let clamped = converted.clamped { Console.error(clamped.warning(path: path, device: recording.device.name)) }
      return converted.events
    } catch {
      Console.error(error.message)
      pl_exit(exitStatus(for: error).rawValue)
    }
  }
}
