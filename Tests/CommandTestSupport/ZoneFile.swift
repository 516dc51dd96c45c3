import Foundation

/// tzdata files made by the tests, so a test's time zone never depends on this
/// machine's /etc/localtime or on a tzdata package.
public enum ZoneFile {
  /// A TZif (version 1) file of one zone `offsetSeconds` east of UTC all year, with no
  /// transitions, as tzfile(5) lays it out.
  public static func fixedOffset(_ offsetSeconds: Int32) -> Data {
    var data = Data("TZif".utf8) + Data(count: 16)
    // The counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
    for count: UInt32 in [0, 0, 0, 0, 1, 4] { withUnsafeBytes(of: count.bigEndian) { data.append(contentsOf: $0) } }
    // The one local time type: its offset, not daylight saving, abbreviation at 0.
    withUnsafeBytes(of: offsetSeconds.bigEndian) { data.append(contentsOf: $0) }
    data.append(contentsOf: [0, 0])
    data.append(contentsOf: Array("SYS".utf8) + [0])
    return data
  }

  /// Writes `fixedOffset(offsetSeconds)` as `root`/etc/localtime, creating etc.
  public static func install(_ offsetSeconds: Int32, under root: URL) throws {
    let etc = root.appendingPathComponent("etc")
    try FileManager.default.createDirectory(at: etc, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    try fixedOffset(offsetSeconds).write(to: etc.appendingPathComponent("localtime"))
  }
}
