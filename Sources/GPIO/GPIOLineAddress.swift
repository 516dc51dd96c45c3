/// How the configuration names a GPIO line. A chip's number (`gpiochip4`) is the
/// order in which the kernel happened to probe the chips, and changes with the kernel
/// (the Raspberry Pi 5's header moved from gpiochip4 to gpiochip0); a line's name
/// (the device tree's `gpio-line-names`, as `gpioinfo` shows them) and a chip's label
/// do not.
public enum GPIOLineAddress: Equatable, Sendable {
  /// The line of this name on whichever chip has it, such as `GPIO17` or `DOOR_STRIKE`.
  case named(String)
  /// The line at `offset` of the chip labelled `label`, such as `pinctrl-rp1`.
  case chipLabel(String, offset: UInt32)
  /// The line at `offset` of the chip `/dev/gpiochipN`: kept for configurations that
  /// name the chip by number.
  case chipPath(String, offset: UInt32)

  /// The address as the configuration wrote it, for messages.
  public var text: String {
    switch self {
    case .named(let name): return name
    case .chipLabel(let label, let offset): return "\(label):\(offset)"
    case .chipPath(let path, let offset): return "\(path):\(offset)"
    }
  }
}

/// A GPIO line as configured: where it is, and whether its active level is low (a
/// relay board that switches on a low input, a contact wired to ground).
public struct GPIOLineSetting: Equatable, Sendable {
  public var address: GPIOLineAddress
  public var activeLow: Bool

  public init(address: GPIOLineAddress, activeLow: Bool = false) {
    self.address = address
    self.activeLow = activeLow
  }

  /// The setting's value as written: the address, then ` active-low` when set.
  public var text: String { address.text + (activeLow ? " active-low" : "") }
}
