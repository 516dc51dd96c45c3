import SystemCalls
import CShim

/// What a uinput device reports: enough of a recorded device's description for
/// libinput and udev to treat the copy like the original.
public struct VirtualDeviceDescription: Sendable {
  /// One absolute axis (the kernel's `struct input_absinfo`).
  public struct Axis: Sendable {
    public var code: UInt16
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
      self.code = code
      self.minimum = minimum
      self.maximum = maximum
      self.fuzz = fuzz
      self.flat = flat
      self.resolution = resolution
    }
  }

  public var name: String
  /// Bus type, vendor, product, version (`struct input_id`); the defaults say virtual.
  public var bus: UInt16 = 0x06  // BUS_VIRTUAL
  public var vendor: UInt16 = 0
  public var product: UInt16 = 0
  public var version: UInt16 = 0
  /// Event codes by event type.
  public var codes: [UInt16: [UInt16]]
  public var axes: [Axis]
  /// `INPUT_PROP_*` bits; a touchscreen needs `INPUT_PROP_DIRECT` (1), or udev calls
  /// it a touchpad.
  public var properties: [UInt16]

  public init(name: String, codes: [UInt16: [UInt16]], axes: [Axis], properties: [UInt16]) {
    self.name = name
    self.codes = codes
    self.axes = axes
    self.properties = properties
  }
}

/// A kernel input device made through /dev/uinput, destroyed in `deinit`.
///
/// Events written to it go through the real input core, udev tagging and libinput, so
/// a replay is indistinguishable from the hardware it was recorded on.
public struct VirtualDevice: ~Copyable {
  /// The /dev/uinput file; closing it (after `deinit` destroys the device) ends it.
  private let file: FileDescriptor
  /// The uinput node, for messages.
  public let path: String

  /// Creates the device (`UI_SET_*BIT`, `UI_ABS_SETUP`, `UI_DEV_SETUP`, `UI_DEV_CREATE`).
  ///
  /// - Parameters:
  ///   - description: the capabilities to copy.
  ///   - path: normally `/dev/uinput`.
  /// - Throws: `InputError.noUinput` when the node cannot be opened, `.callFailed`
  ///   naming the ioctl the kernel refused.
  public init(_ description: VirtualDeviceDescription, path: String = "/dev/uinput") throws(InputError) {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readWrite)
    } catch {
      throw .noUinput(path: path, errno: error)
    }
    // A throw below closes `file`; no device exists before UI_DEV_CREATE.
    let fd = file.rawValue
    for (type, list) in description.codes where type != 0 {
      try systemCall("UI_SET_EVBIT \(type)", on: path) { pl_uinput_enable_type(fd, type) }
      for code in list {
        // Types without a per-code bit (EV_REP, EV_FF ...) have nothing to enable.
        if resultRetryingInterrupts({ pl_uinput_enable_code(fd, type, code) }) != 0, case let errno = Errno.current, errno != .invalid {
          throw .callFailed(call: "UI_SET_*BIT \(type):\(code)", path: path, errno: errno)
        }
      }
    }
    for axis in description.axes {
      try systemCall("UI_ABS_SETUP \(axis.code)", on: path) {
        pl_uinput_setup_axis(fd, axis.code, axis.minimum, axis.maximum, axis.fuzz, axis.flat, axis.resolution)
      }
    }
    for property in description.properties {
      try systemCall("UI_SET_PROPBIT \(property)", on: path) { pl_uinput_enable_property(fd, property) }
    }
    try systemCall("UI_DEV_SETUP", on: path) {
      description.name.withCString {
        pl_uinput_setup_device(fd, $0, description.bus, description.vendor, description.product, description.version)
      }
    }
    try systemCall("UI_DEV_CREATE", on: path) { pl_uinput_create(fd) }
    self.file = file
    self.path = path
  }

  deinit {
    // Runs before `file` closes.
    let fd = file.rawValue
    _ = resultRetryingInterrupts { pl_uinput_destroy(fd) }
  }

  /// Writes one event; the kernel stamps the time.
  ///
  /// - Throws: `InputError.callFailed`.
  public func emit(type: UInt16, code: UInt16, value: Int32) throws(InputError) {
    let fd = file.rawValue
    try systemCall("write to uinput", on: path) { pl_uinput_emit(fd, type, code, value) }
  }

  /// The device's event node (`/dev/input/eventN`), found through sysfs, or nil when
  /// udev has not created it yet.
  public func eventNode() -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    let fd = file.rawValue
    let ok = buffer.withUnsafeMutableBufferPointer { name in resultRetryingInterrupts { pl_uinput_sysname(fd, name.baseAddress, name.count) } }
    guard ok == 0 else { return nil }
    let sysname = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let events = try? Directory.names(in: "/sys/devices/virtual/input/" + sysname) { $0.hasPrefix("event") }
    return events?.first.map { "/dev/input/" + $0 }
  }
}
