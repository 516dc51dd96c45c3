// GPIO: lines of GPIO chips through the kernel's character device (uAPI v2): the door
// strike (`gpio-unlock`), the door contact and the exit button.
import CShim
import SystemCalls

/// One line of a GPIO chip. As an output: inactive at rest, active for a pulse (high,
/// or low when `activeLow`: the kernel inverts the level both ways).
public struct GPIOLine: Hashable, Sendable {
  /// The chip's character device, such as `/dev/gpiochip0`.
  public var chipPath: String
  /// The line's offset on the chip.
  public var offset: UInt32
  /// Whether the line's active level is low.
  public var activeLow: Bool

  public init(chipPath: String, offset: UInt32, activeLow: Bool = false) {
    self.chipPath = chipPath
    self.offset = offset
    self.activeLow = activeLow
  }

  /// The line `setting` names, found on this system's chips (`GPIOChips.locate`).
  public init(_ setting: GPIOLineSetting, chipsIn directory: String = "/dev") throws(GPIOError) {
    let (path, offset) = try GPIOChips.locate(setting.address, in: directory)
    self.init(chipPath: path, offset: offset, activeLow: setting.activeLow)
  }

  /// Checks that the line exists and no other consumer holds it (`pl_gpio_line_check`).
  ///
  /// - Throws: `.noEntry` without the chip, `.invalid` without the line, `.busy` when
  ///   it is in use, or another `Errno` of opening the chip.
  public func checkFree() throws(Errno) {
    let offset = offset
    if chipPath.withCString({ pl_gpio_line_check($0, offset) }) != 0 { throw .current }
  }

  /// Drives the line to its resting level (inactive) and releases it
  /// (`pl_gpio_line_rest`): a pulse cut short by a SIGKILL left it where it was,
  /// perhaps active.
  ///
  /// - Throws: the `Errno` of requesting the line.
  public func rest() throws(Errno) {
    let (offset, activeLow) = (offset, activeLow ? Int32(1) : 0)
    if chipPath.withCString({ pl_gpio_line_rest($0, offset, activeLow) }) != 0 { throw .current }
  }

  /// Pulses the line active for `milliseconds`, then inactive, in a detached process
  /// (`pl_gpio_pulse_detached`), so the caller never waits for the pulse; a failure to
  /// drive the line is written to the journal `journal`.
  ///
  /// - Throws: the `Errno` of starting the pulse (`DetachedProcess.waitForFirstChild`).
  public func pulse(milliseconds: UInt32, output journal: String) throws(Errno) {
    let (offset, activeLow) = (offset, activeLow ? Int32(1) : 0)
    let first = chipPath.withCString { chip in
      journal.withCString { pl_gpio_pulse_detached(chip, offset, milliseconds, activeLow, $0) }
    }
    try DetachedProcess.waitForFirstChild(first)
  }
}
