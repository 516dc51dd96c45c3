// Systemd: what patternlock says to systemd and where it writes for it, spoken as the
// protocols themselves (a datagram to $NOTIFY_SOCKET, the watchdog's variables, the
// journal's stream socket), so no libsystemd is needed on the device.
import CShim
import SystemCalls

/// The sd_notify(3) protocol: state lines for a `Type=notify` unit's service manager.
public enum NotifySocket {
  /// Sends one state line, such as `READY=1`, to `$NOTIFY_SOCKET` (`pl_sd_notify`: a
  /// datagram on a Unix socket; a leading `@` is the abstract namespace).
  ///
  /// - Parameter state: the line.
  /// - Returns: true when it was sent, false when there is no `NOTIFY_SOCKET` (the
  ///   process was not started by systemd).
  /// - Throws: socket(2)'s or sendto(2)'s `Errno`.
  @discardableResult
  public static func send(_ state: StaticString) throws(Errno) -> Bool {
    // StaticString literals are NUL-terminated, so the line needs no copy.
    let sent = state.withUTF8Buffer { bytes in
      bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count + 1) { line in
        resultRetryingInterrupts { pl_sd_notify(line) }
      }
    }
    if sent < 0 { throw .current }
    return sent == 0
  }
}
