import SystemCalls

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
  try retryingInterrupts({ KMSError.callFailed(call: call, path: path, errno: $0) }, body)
}
