import CommandKit
import SystemCalls

/// The connections `patternlock mqtt` accepts on the event socket: one a line from
/// `check`, `judge` and `credential` (each entry of the audit log), and the running
/// lock's own, which stays open, says what is on screen (`LockStateLine`) and is the
/// one the broker's LOCK and UNLOCK are passed on to, as `lock` and `unlock` lines.
///
/// Only root can connect (the socket is root's, mode 0600); what arrives is still
/// read with bounds: at most `maximumConnections` at once (more wait in the backlog),
/// lines of at most `maximumLineBytes` (a longer one ends that connection).
struct LockLinks: ~Copyable {
  static let maximumConnections = 32
  static let maximumLineBytes = 2048

  /// One accepted connection and the part of a line it has sent so far (a class, so
  /// that the list can hold its descriptor, which only one owner may close).
  final class Link {
    let connection: FileDescriptor
    var pending: [UInt8] = []
    /// Whether it is the running lock's (it sent a state line).
    var isLock = false

    init(_ connection: consuming FileDescriptor) { self.connection = connection }
  }

  private let listening: FileDescriptor
  private(set) var links: [Link] = []

  init(listening: consuming FileDescriptor) { self.listening = listening }

  var listeningDescriptor: Int32 { listening.rawValue }
  var count: Int { links.count }
  var isFull: Bool { links.count >= LockLinks.maximumConnections }
  func descriptor(at index: Int) -> Int32 { links[index].connection.rawValue }
  var lockCount: Int {
    var n = 0
    for index in links.indices where links[index].isLock { n += 1 }
    return n
  }

  /// Accepts what waits, up to the bound.
  mutating func acceptWaiting() {
    while !isFull {
      let accepted: FileDescriptor?
      do throws(Errno) {
        accepted = try listening.acceptConnection()
      } catch {
        Console.error("mqtt: cannot accept a connection on the event socket: \(error.text)")
        return
      }
      guard let connection = accepted else { return }
      links.append(Link(connection))
    }
  }

  /// Reads what link `index` sent: its whole lines, and whether it ended (closed,
  /// failed, or sent a line too long), in which case it was removed.
  mutating func read(at index: Int) -> (lines: [String], ended: Bool) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var lines: [String] = []
    var ended = false
    while true {
      let link = links[index]
      // nil: nothing more there now; -1: the connection failed.
      let received: Int? = buffer.withUnsafeMutableBytes { raw in
        do throws(Errno) {
          return try link.connection.receiveWithoutWaiting(into: raw)
        } catch {
          return -1
        }
      }
      guard let count = received else { break }
      if count < 0 {
        ended = true
        break
      }
      if count == 0 {
        ended = true
        break
      }
      links[index].pending += buffer[..<count]
      while let newline = links[index].pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: links[index].pending[..<newline], as: UTF8.self))
        links[index].pending.removeSubrange(...newline)
      }
      if links[index].pending.count > LockLinks.maximumLineBytes {
        Console.error("mqtt: a line on the event socket is longer than \(LockLinks.maximumLineBytes) bytes; closing that connection")
        ended = true
        break
      }
    }
    if ended { links.remove(at: index) }
    return (lines, ended)
  }

  /// Marks link `index` as the running lock's (it sent a state line).
  mutating func markLock(at index: Int) { links[index].isLock = true }

  /// Sends `line` to every running lock's link.
  ///
  /// - Returns: how many took it.
  mutating func sendToLocks(_ line: String) -> Int {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var taken = 0
    for index in links.indices where links[index].isLock {
      let sent = bytes.withUnsafeBytes { (try? links[index].connection.sendWithoutWaiting($0)) ?? 0 }
      if sent == bytes.count { taken += 1 }
    }
    return taken
  }
}
