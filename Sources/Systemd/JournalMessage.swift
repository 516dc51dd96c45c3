import CShim
import SystemCalls

/// One structured entry for the systemd journal, sent in its native protocol: a
/// datagram of `FIELD=value` lines to journald's socket, so each field is searchable
/// (`journalctl PATTERNLOCK_EVENT=wrong`) without libsystemd.
public enum JournalMessage {
  /// journald's socket for native entries; debug builds take another from
  /// `PATTERNLOCK_TEST_JOURNAL_DATAGRAM_SOCKET`, so a test can listen in its place.
  public static var socketPath: String {
    #if DEBUG
    if let path = CurrentProcess.environmentVariable("PATTERNLOCK_TEST_JOURNAL_DATAGRAM_SOCKET") { return path }
    #endif
    return "/run/systemd/journal/socket"
  }

  /// Sends `fields` (names in capitals, values without a newline) as one entry.
  ///
  /// - Throws: socket(2)'s or sendto(2)'s `Errno` (`.noEntry` where there is no journal).
  public static func send(_ fields: [(name: String, value: String)]) throws(Errno) {
    var datagram: [UInt8] = []
    for field in fields {
      datagram += Array(field.name.utf8)
      datagram.append(UInt8(ascii: "="))
      // A newline would end the field early; the protocol's binary form is not needed
      // for the one-line values patternlock sends.
      datagram += field.value.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }
      datagram.append(UInt8(ascii: "\n"))
    }
    let path = socketPath
    try datagram.withUnsafeBufferPointer { bytes throws(Errno) in
      try retryingInterrupts { path.withCString { pl_send_datagram($0, bytes.baseAddress, bytes.count) } }
    }
  }
}
