import PatternCore
import SystemCalls

/// A panel's backlight through sysfs (`/sys/class/backlight/NAME`): its range (1 to
/// 255 and anything between: `rpi_backlight` has 255, a Pi 5's `4-0045` 31) and the
/// level it had when the lock took it, which it is given back when this value ends.
///
/// Switching the backlight off keeps the panel powered, unlike DPMS: the official
/// 7-inch panel's touch controller goes down with the panel, so a lock blanked by DPMS
/// may never wake by touch. HDMI and many DPI panels have no backlight: then nothing
/// is written and the lock blanks with DPMS as before.
public struct Backlight: ~Copyable {
  /// The device's name, such as `rpi_backlight`.
  public let name: String
  /// Its directory, such as `/sys/class/backlight/rpi_backlight`.
  public let directory: String
  /// `max_brightness`, at least 1.
  public let maximum: Int
  /// `brightness` when the lock took it: the level it gives back when it ends.
  public let initial: Int
  /// The level the panel is lit at when neither blank nor dimmed: `initial` until a
  /// brightness from Home Assistant sets another.
  public private(set) var normal: Int
  /// The level last written; nil while nothing was written.
  public private(set) var written: Int?
  /// `directory/brightness`, made once so that writing a level allocates nothing.
  private let levelPath: String
  /// The digits of a level and its newline, written in place.
  private var digits = [UInt8](repeating: 0, count: 24)

  /// Reads the device in `directory`.
  ///
  /// - Throws: `unreadable` when its range or level is not a number (or 0 as range).
  public init(name: String, directory: String) throws(BacklightError) {
    let range = try Backlight.number(in: directory + "/max_brightness")
    guard range >= 1 else { throw .unreadable(path: directory + "/max_brightness", why: "the range is 0") }
    let level = try Backlight.number(in: directory + "/brightness")
    self.name = name
    self.directory = directory
    maximum = range
    // A panel that was dark when the lock started is lit at its whole range.
    initial = level > 0 ? min(level, range) : range
    normal = initial
    levelPath = directory + "/brightness"
  }

  deinit {
    // Whatever the lock did, the panel is left as it found it.
    if let written, written != initial { _ = try? Backlight.write(initial, to: directory + "/brightness") }
  }

  /// Switches the backlight off (level 0); the panel stays powered.
  public mutating func switchOff() throws(BacklightError) { try set(0) }

  /// Lights the panel at its normal level.
  public mutating func switchOn() throws(BacklightError) { try set(normal) }

  /// Lowers the light to `percent` of the range (`dim-level`), never above the normal
  /// level: dimming never brightens a panel someone turned down.
  public mutating func dim(toPercent percent: Int) throws(BacklightError) {
    try set(min(Backlight.level(percent: percent, of: maximum), normal))
  }

  /// Makes `percent` of the range the normal level, written at once when `lit`.
  ///
  /// - Returns: the normal level in percent, as it reads back from the level (a
  ///   range of 31 has no 40 %: it is 39).
  public mutating func setNormal(percent: Int, lit: Bool) throws(BacklightError) -> Int {
    normal = Backlight.level(percent: percent, of: maximum)
    if lit { try set(normal) }
    return normalPercent
  }

  /// The normal level in percent of the range.
  public var normalPercent: Int { Backlight.percent(level: normal, of: maximum) }

  /// Writes `level` (clamped to the range).
  public mutating func set(_ level: Int) throws(BacklightError) {
    let clamped = max(0, min(level, maximum))
    var count = 1
    var power = 10
    while clamped >= power {
      power *= 10
      count += 1
    }
    var rest = clamped
    for index in stride(from: count - 1, through: 0, by: -1) {
      digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    digits[count] = UInt8(ascii: "\n")
    do throws(Errno) {
      let file = try FileDescriptor.open(levelPath, .writeOnly)
      try file.writeAll(digits[...count])
    } catch {
      throw .unwritable(path: levelPath, errno: error)
    }
    written = clamped
  }

  // MARK: Percent and level

  /// `percent` (1 to 100, clamped) of a range of `maximum` as a level: rounded to the
  /// nearest, halves up, and at least 1, so that the lowest percent of a small range
  /// (1 % of 31) still lights the panel rather than switching it off.
  public static func level(percent: Int, of maximum: Int) -> Int {
    let clamped = max(1, min(percent, 100))
    return max(1, (clamped * maximum + 50) / 100)
  }

  /// A level (0 to `maximum`) in percent of the range, rounded to the nearest; a lit
  /// level is at least 1 %.
  public static func percent(level: Int, of maximum: Int) -> Int {
    guard level > 0, maximum > 0 else { return 0 }
    return max(1, min(100, (level * 100 + maximum / 2) / maximum))
  }

  // MARK: Finding it

  /// The backlight of the panel on `connector` of `card` (such as `card1`, `DSI-1`),
  /// under `root` (`/sys`; the tests give a tree of their own):
  ///
  /// 1. `named`, when given, must be in the backlight class;
  /// 2. else one registered under the connector's own sysfs directory (eDP and LVDS
  ///    panels' drivers put it there);
  /// 3. else the only device in the backlight class (a Raspberry Pi's DSI panel:
  ///    `rpi_backlight`, `10-0045`, `4-0045` are not linked to the connector);
  /// 4. else none (several and none of them the connector's: guessing could darken
  ///    another screen).
  ///
  /// - Returns: nil for none.
  /// - Throws: `unknown` for a `named` device that is not there; `unreadable` for a
  ///   device whose range or level cannot be read.
  public static func find(
    root: String = "/sys", card: String, connector: String, named: String?
  ) throws(BacklightError) -> Backlight? {
    let classDirectory = root + "/class/backlight"
    let present = (try? Directory.names(in: classDirectory) { !$0.hasPrefix(".") })?.sorted() ?? []
    if let named {
      guard present.contains(named) else { throw .unknown(name: named, directory: classDirectory, present: present) }
      return try Backlight(name: named, directory: classDirectory + "/" + named)
    }
    let connectorDirectory = root + "/class/drm/" + card + "-" + connector
    let children = (try? Directory.names(in: connectorDirectory) { !$0.hasPrefix(".") })?.sorted() ?? []
    for child in children where isBacklight(connectorDirectory + "/" + child) {
      return try Backlight(name: child, directory: connectorDirectory + "/" + child)
    }
    if present.count == 1 { return try Backlight(name: present[0], directory: classDirectory + "/" + present[0]) }
    return nil
  }

  private static func isBacklight(_ directory: String) -> Bool {
    (try? FileStatus(ofPath: directory + "/max_brightness", followingSymlinks: true)) != nil
      && (try? FileStatus(ofPath: directory + "/brightness", followingSymlinks: true)) != nil
  }

  /// The decimal number in a sysfs attribute (read whole, whatever size stat gives).
  static func number(in path: String) throws(BacklightError) -> Int {
    var bytes = [UInt8](repeating: 0, count: 32)
    let count: Int
    do throws(Errno) {
      let file = try FileDescriptor.open(path, .readOnly)
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)
      defer { buffer.deallocate() }
      count = try file.read(into: buffer)
      for i in 0..<count { bytes[i] = buffer[i] }
    } catch {
      throw .unreadable(path: path, why: error.text)
    }
    var value = 0
    var digits = 0
    for byte in bytes[..<count] {
      if byte == UInt8(ascii: "\n") { break }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else {
        throw .unreadable(path: path, why: "not a number")
      }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    guard digits > 0 else { throw .unreadable(path: path, why: "empty") }
    return value
  }

  static func write(_ level: Int, to path: String) throws(BacklightError) {
    do throws(Errno) {
      let file = try FileDescriptor.open(path, .writeOnly)
      let text = Array((String(level) + "\n").utf8)
      try file.writeAll(text[...])
    } catch {
      throw .unwritable(path: path, errno: error)
    }
  }
}
