import CommandKit
import LockEvents
import SystemCalls
import Vault

/// The lock's events for the processes that report them onwards (`patternlock mqtt`):
/// each audit entry, as its log line, sent to the local event socket
/// (`EventSocket`) after the entry is in the log. A command installs it as the
/// audit log's observer (`AuditLog.observer`), one connection a line; the running lock
/// sends them on its own connection instead (`EventLink.carryAuditEntries`).
///
/// Best effort and never waiting: the log is the record, and the lock must not stall
/// or fail because a reporter is slow or absent. No socket, nothing listening, a full
/// backlog or a socket of anyone but root's (or this user's) and the line is not sent.
/// A line is at most a few hundred bytes, which an empty connection's buffer always
/// takes whole.
package enum EventFeed {
  /// Sends `line` and its newline on a connection of its own.
  ///
  /// - Returns: whether the whole line was sent.
  @discardableResult
  package static func send(_ line: String) -> Bool {
    guard let connection = try? FileDescriptor.connectingTrustedUnixStream(to: EventSocket.path) else { return false }
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    let sent = bytes.withUnsafeBytes { (try? connection.sendWithoutWaiting($0)) ?? 0 }
    return sent == bytes.count
  }

  /// Sends each stored audit entry on a connection of its own.
  package static func carryAuditEntries() {
    AuditLog.observer = { entry in send(entry.jsonLine) }
  }
}
