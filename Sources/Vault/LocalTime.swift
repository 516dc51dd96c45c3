import CShim

/// Wall-clock seconds as the device's local time, counted like UTC seconds: what
/// credential hours and expiry are written in, since an installer says
/// "Mon-Fri 08:00-18:00" on the clock by the door, not in UTC.
///
/// The zone is the system's, `/etc/localtime` (root's file), never the `TZ` of whoever
/// started the process: sudo keeps a `TZ` that looks harmless, and `TZ=XYZ-14` would
/// otherwise move a guest's hours or an expiry by half a day.
public enum LocalTime {
  /// The system's zone file under the root `/`.
  public static let systemZoneFile = "etc/localtime"

  /// Makes the zone file under `root` (`/`, or a debug build's test configuration
  /// root) the local zone, replacing any `TZ` the caller set; UTC when there is no
  /// such file. Called first thing in the process, before any time is converted.
  public static func useSystemZone(root: String) {
    let base = root.hasSuffix("/") ? root : root + "/"
    (base + systemZoneFile).withCString { pl_use_zone_file($0) }
  }

  /// `wall` (seconds since 1970, UTC) shifted by the local offset at that moment.
  public static func seconds(atWall wall: Int64) -> Int64 { wall + pl_utc_offset_seconds(wall) }
}
