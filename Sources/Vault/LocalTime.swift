import CShim

/// Wall-clock seconds as the device's local time (the TZ in force), counted like UTC
/// seconds: what credential hours and expiry are written in, since an installer says
/// "Mon-Fri 08:00-18:00" on the clock by the door, not in UTC.
public enum LocalTime {
  /// `wall` (seconds since 1970, UTC) shifted by the local offset at that moment.
  public static func seconds(atWall wall: Int64) -> Int64 { wall + pl_utc_offset_seconds(wall) }
}
