import CShim

/// An `errno` value, so errors say which one without carrying a bare `Int32`.
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

/// Runs a C call that reports failure as a negative result, the way every call here
/// does: libc with -1 and errno, libdrm's `drmMode*` with `-errno`. Retries `EINTR`
/// (libdrm's own `drmIoctl` retries too, but libc calls do not) and names the call
/// and device in the error. Never use it for `close`, which must not be retried.
///
/// - Parameters:
///   - call: the C function's name, for the message.
///   - path: the device, for the message.
///   - body: the call.
/// - Returns: the call's non-negative result.
/// - Throws: `KMSError.callFailed`.
@discardableResult
func systemCall(_ call: String, on path: String, _ body: () -> Int32) throws(KMSError) -> Int32 {
  while true {
    let result = body()
    if result >= 0 { return result }
    // drmMode* return -errno; libc returns -1 and sets errno (and -1 is -EPERM, in
    // which case errno is EPERM as well).
    let errno = result == -1 ? Errno.current : Errno(rawValue: -result)
    if errno == .interrupted { continue }
    throw .callFailed(call: call, path: path, errno: errno)
  }
}
