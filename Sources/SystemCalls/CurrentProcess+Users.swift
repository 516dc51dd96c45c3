import CShim

extension CurrentProcess {
  /// The real user (`pl_getuid`): who ran the command, which decides what it may do.
  public static var realUser: UserID { UserID(rawValue: pl_getuid()) }

  /// The effective user (`pl_geteuid`): whose files the process may trust.
  public static var effectiveUser: UserID { UserID(rawValue: pl_geteuid()) }
}
