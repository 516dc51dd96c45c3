import CShim

/// CLOCK_REALTIME, which may jump: stored beside attempts for the repeat rule, never
/// used to measure a lockout.
public enum WallClock {
  /// Now, in seconds since 1970 (`pl_wall_seconds`, time(2)).
  public static func seconds() -> Int64 { pl_wall_seconds() }
}
