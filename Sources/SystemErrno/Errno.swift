import CShim

/// An `errno` value, so errors say which one without carrying a bare `Int32`.
///
/// Shared by the modules that make system calls (KMS, Input), so both name errors the
/// same way and the executable sees one `Errno` type.
public struct Errno: RawRepresentable, Hashable, Sendable {
  public var rawValue: Int32
  @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let notPermitted = Errno(rawValue: 1)  // EPERM
  public static let noEntry = Errno(rawValue: 2)  // ENOENT
  public static let interrupted = Errno(rawValue: 4)  // EINTR
  public static let tryAgain = Errno(rawValue: 11)  // EAGAIN
  public static let permissionDenied = Errno(rawValue: 13)  // EACCES
  public static let busy = Errno(rawValue: 16)  // EBUSY
  public static let noDevice = Errno(rawValue: 19)  // ENODEV
  public static let invalid = Errno(rawValue: 22)  // EINVAL

  /// The calling thread's current errno.
  public static var current: Errno { Errno(rawValue: pl_errno()) }

  /// strerror(3) text.
  public var text: String {
    guard let text = pl_strerror(rawValue) else { return "error \(rawValue)" }
    return String(cString: text)
  }
}

/// Runs a C call that reports failure as a negative result, the way every call we
/// make does: libc with -1 and errno, libdrm's `drmMode*` and libinput with `-errno`.
/// Retries `EINTR` and turns any other failure into the caller's error. Never use it
/// for `close`, which must not be retried (on Linux the descriptor is already gone).
///
/// - Parameters:
///   - failure: makes the module's error from the errno.
///   - body: the call.
/// - Returns: the call's non-negative result.
/// - Throws: what `failure` makes.
@discardableResult
public func retryingInterrupts<E: Error>(_ failure: (Errno) -> E, _ body: () -> Int32) throws(E) -> Int32 {
  while true {
    let result = body()
    if result >= 0 { return result }
    // -1 is also -EPERM; then errno is EPERM as well, so reading errno is right.
    let errno = result == -1 ? Errno.current : Errno(rawValue: -result)
    if errno == .interrupted { continue }
    throw failure(errno)
  }
}
