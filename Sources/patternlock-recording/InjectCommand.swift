import CommandKit
import Configuration
import Input
import LockProgram
import PatternCore
import Recording
import SystemCalls

/// `patternlock inject FILE`: makes a uinput device with the capabilities of the
/// recorded touch device and replays its evdev events with their recorded timing.
///
/// The events then pass through the real kernel input core, udev tagging and
/// libinput, so whatever reads input (`patternlock run`, a compositor) sees the
/// gesture as if the recorded hardware were attached: the tool of the end-to-end
/// test, and a way for users to reproduce a captured gesture on a device.
///
/// The recording format has no `properties:` in what Recording keeps, so a device
/// that reports touches (multitouch or BTN_TOUCH) is given INPUT_PROP_DIRECT: that is
/// what makes udev tag it a touchscreen rather than a touchpad.
enum InjectCommand {
  static func run(_ arguments: [String]) throws(RecordingFailure) -> ExitStatus {
    let path: String
    let settings: Settings
    do throws(UsageError) {
      let parsed = try CommandLineSettings(reading: arguments, for: .inject)
      path = try parsed.onlyOperand(.inject, is: "recording file", usage: "patternlock inject FILE [--wait MS]")
      settings = parsed.settings
    } catch {
      throw .usage(error)
    }
    let waitMilliseconds = settings.waitMilliseconds
    let uinput = settings.uinputPath

    let recording: Recording
    do throws(RecordingError) {
      recording = try Recording(contentsOf: path)
    } catch {
      throw .recording(error)
    }

    let device: VirtualDevice
    do throws(InputError) {
      device = try VirtualDevice(description(of: recording.device), path: uinput)
    } catch {
      throw .input(error)
    }
    // udev must create the node and libinput open it before the first event, or
    // the start of the gesture is lost.
    sleep(microseconds: UInt64(waitMilliseconds) * 1000)

    let start = MonotonicClock.microseconds()
    for row in recording.rows {
      let due = start + row.timeMicroseconds
      let now = MonotonicClock.microseconds()
      if due > now { sleep(microseconds: due - now) }
      do throws(InputError) {
        try device.emit(type: row.type, code: row.code, value: row.value)
      } catch {
        throw .input(error)
      }
    }
    // Let the last frame be read before the device disappears.
    sleep(microseconds: 200_000)
    Console.out("injected \(recording.rows.count) events from \(path) as '\(recording.device.name)'")
    return .success
  }

  /// The uinput description of a recorded device.
  static func description(of device: RecordedDevice) -> VirtualDeviceDescription {
    var axes: [VirtualDeviceDescription.Axis] = []
    for (code, info) in device.absinfo {
      axes.append(
        VirtualDeviceDescription.Axis(
          code: code, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
          resolution: info.resolution))
    }
    var codes = device.codes
    // Axes with absinfo but missing from codes: still enable them.
    var abs = codes[EvdevCode.eventAbs] ?? []
    for axis in axes where !abs.contains(axis.code) { abs.append(axis.code) }
    if !abs.isEmpty { codes[EvdevCode.eventAbs] = abs }
    let direct: [UInt16] = device.touchProtocol == .pointer ? [] : [1]  // INPUT_PROP_DIRECT
    let name = device.name.isEmpty ? "patternlock inject" : device.name
    return VirtualDeviceDescription(name: name, codes: codes, axes: axes, properties: direct)
  }
}
