/// Runs a C call that reports failure as a negative result, the way every call we
/// make does: libc with -1 and errno, libdrm's `drmMode*` and libinput with `-errno`.
/// Retries `EINTR` and turns any other failure into the caller's error. Never use it
/// for `close`, which must not be retried (on Linux the descriptor is already gone).
///
/// Inlinable, so a call in the frame loop (`libinput_dispatch`) is specialised for
/// its result type and allocates nothing.
///
/// - Parameters:
///   - failure: makes the caller's error from the errno.
///   - body: the call.
/// - Returns: the call's non-negative result.
/// - Throws: what `failure` makes.
@inlinable
@discardableResult
public func retryingInterrupts<E: Error, Result: FixedWidthInteger & SignedInteger>(
  _ failure: (Errno) -> E, _ body: () -> Result
) throws(E) -> Result {
  while true {
    let result = body()
    if result >= 0 { return result }
    // -1 is also -EPERM; then errno is EPERM as well, so reading errno is right.
    let errno = result == -1 ? Errno.current : Errno(rawValue: Int32(truncatingIfNeeded: -result))
    if errno == .interrupted { continue }
    throw failure(errno)
  }
}

/// `retryingInterrupts` for calls whose only error is the errno itself.
///
/// - Parameter body: the call.
/// - Returns: the call's non-negative result.
/// - Throws: the call's `Errno` (never `EINTR`).
@inlinable
@discardableResult
public func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(_ body: () -> Result) throws(Errno) -> Result {
  try retryingInterrupts({ $0 }, body)
}

/// `retryingInterrupts` for callers that look at the failure themselves: retries
/// `EINTR` and hands back any other result as the call made it (negative, with errno
/// or `-errno` as the call reports it).
///
/// - Parameter body: the call.
/// - Returns: the first result that is not an `EINTR` failure.
@inlinable
public func resultRetryingInterrupts<Result: FixedWidthInteger & SignedInteger>(_ body: () -> Result) -> Result {
  while true {
    let result = body()
    if result >= 0 { return result }
    let errno = result == -1 ? Errno.current : Errno(rawValue: Int32(truncatingIfNeeded: -result))
    if errno != .interrupted { return result }
  }
}
