import CShim

extension CurrentProcess {
  /// The value of the environment variable `name` (`pl_getenv`, getenv(3)), or nil
  /// when it is not set. A variable set to nothing is `""`, not nil.
  public static func environmentVariable(_ name: String) -> String? {
    name.withCString { pl_getenv($0) }.map { String(cString: $0) }
  }
}
