// GPIO: one line of a GPIO chip through the kernel's character device (uAPI v2), for
// the door strike (`gpio-unlock`).
import CShim
import SystemCalls

/// One line of a GPIO chip, driven as an output: low at rest, high for a pulse.
public struct GPIOLine: Hashable, Sendable {
  /// The chip's character device, such as `/dev/gpiochip0`.
  public var chipPath: String
  /// The line's offset on the chip.
  public var offset: UInt32

  public init(chipPath: String, offset: UInt32) {
    self.chipPath = chipPath
    self.offset = offset
  }

  /// Checks that the line exists and no other consumer holds it (`pl_gpio_line_check`).
  ///
  /// - Throws: `.noEntry` without the chip, `.invalid` without the line, `.busy` when
  ///   it is in use, or another `Errno` of opening the chip.
  public func checkFree() throws(Errno) {
    let offset = offset
    if chipPath.withCString({ pl_gpio_line_check($0, offset) }) != 0 { throw .current }
  }

  /// Drives the line to its resting level (low) and releases it (`pl_gpio_line_rest`):
  /// a pulse cut short by a SIGKILL left it where it was, perhaps high.
  ///
  /// - Throws: the `Errno` of requesting the line.
  public func rest() throws(Errno) {
    let offset = offset
    if chipPath.withCString({ pl_gpio_line_rest($0, offset) }) != 0 { throw .current }
  }

  /// Pulses the line high for `milliseconds`, then low, in a detached process
  /// (`pl_gpio_pulse_detached`), so the caller never waits for the pulse; a failure to
  /// drive the line is written to the journal `journal`.
  ///
  /// - Throws: the `Errno` of starting the pulse (`DetachedProcess.waitForFirstChild`).
  public func pulse(milliseconds: UInt32, output journal: String) throws(Errno) {
    let offset = offset
    let first = chipPath.withCString { chip in journal.withCString { pl_gpio_pulse_detached(chip, offset, milliseconds, $0) } }
    try DetachedProcess.waitForFirstChild(first)
  }
}
