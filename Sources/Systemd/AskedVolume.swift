import SystemCalls

/// The volume a password request is for, when its asker is systemd-cryptsetup: a
/// token's PIN request names no disk (its message is the same for every volume), but
/// the asker's command line does (`systemd-cryptsetup attach VOLUME SOURCE ...`).
public struct AskedVolume: Equatable, Sendable {
  /// The volume's name, as in crypttab (`root`).
  public var name: String
  /// The device it is opened from (`/dev/disk/by-uuid/...`).
  public var source: String

  public init(name: String, source: String) {
    self.name = name
    self.source = source
  }

  /// The volume in a process's command line (its NUL-separated arguments), or nil when
  /// it is not systemd-cryptsetup attaching one.
  public static func parse(commandLine bytes: [UInt8]) -> AskedVolume? {
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    guard arguments.count >= 4, arguments[0] == "systemd-cryptsetup" || arguments[0].hasSuffix("/systemd-cryptsetup"),
      arguments[1] == "attach", !arguments[2].isEmpty, !arguments[3].isEmpty
    else { return nil }
    return AskedVolume(name: arguments[2], source: arguments[3])
  }

  /// The volume process `pid` is attaching, read from `/proc/PID/cmdline`; nil when it
  /// is not systemd-cryptsetup, or has gone.
  public static func of(pid: Int32) -> AskedVolume? {
    guard let file = try? FileDescriptor.open("/proc/" + String(pid) + "/cmdline", .readOnly),
      let read = try? file.readToEnd(limit: 8192)
    else { return nil }
    return parse(commandLine: read.bytes)
  }

  /// `root (/dev/vda2)`.
  public var description: String { name + " (" + source + ")" }
}
