import CShim
import SystemCalls

/// One question of systemd's password agent protocol: an `ask.*` file in
/// `/run/systemd/ask-password`, written by `systemd-ask-password` (and so by
/// systemd-cryptsetup, which asks for a disk's passphrase or its TPM PIN this way) for
/// whichever agent shows it to someone. The answer is one datagram to the file's
/// socket: `+` and the secret, or `-` to cancel; the asker believes only root.
///
/// Parsed here, not with the configuration's INI reader: the file is systemd's, of a
/// fixed shape (`[Ask]` and one `Key=value` a line), and `Message=` is C-escaped.
public struct PasswordRequest: Equatable, Sendable {
  /// The question, unescaped (`Please enter passphrase for disk root:`).
  public var message: String
  /// The datagram socket the answer goes to.
  public var socket: String
  /// What is asked for (`cryptsetup:/dev/vda2`), when the asker said.
  public var id: String?
  /// The asking process: a request whose process is gone is stale.
  public var pid: Int32?
  /// Until when the asker waits, on CLOCK_MONOTONIC in microseconds; nil: no limit.
  public var notAfterMicroseconds: UInt64?
  /// Whether the secret may be shown as typed (never for a pattern).
  public var echo: Bool
  /// Whether the asker takes a cached secret (the kernel keyring) instead.
  public var acceptsCached: Bool

  /// The longest `ask.*` file read: systemd's are a few hundred bytes.
  public static let largestFile: Int64 = 16 * 1024

  /// Reads the request in `bytes`, the contents of file `path`.
  ///
  /// - Throws: `PasswordRequestError` naming the file and what was wrong with it.
  public static func parse(_ bytes: [UInt8], path: String) throws(PasswordRequestError) -> PasswordRequest {
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(path: path) }
    var inAsk = false
    var fields: [(key: Substring, value: Substring)] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("[") {
        inAsk = line == "[Ask]"
        continue
      }
      guard inAsk, let equals = line.firstIndex(of: "=") else { continue }
      fields.append((line[..<equals], line[line.index(after: equals)...]))
    }
    func value(_ key: String) -> Substring? { fields.last { $0.key == key }?.value }
    guard let socket = value("Socket"), socket.hasPrefix("/") else { throw .noSocket(path: path) }
    var request = PasswordRequest(
      message: "", socket: String(socket), id: nil, pid: nil, notAfterMicroseconds: nil, echo: value("Echo") == "1",
      acceptsCached: value("AcceptCached") == "1")
    if let message = value("Message") {
      guard let unescaped = CEscapes.unescape(message) else { throw .badMessage(path: path) }
      request.message = unescaped
    }
    if let id = value("Id"), !id.isEmpty { request.id = String(id) }
    if let pid = value("PID") {
      guard let number = Int32(pid), number > 0 else { throw .badNumber(path: path, key: "PID", value: String(pid)) }
      request.pid = number
    }
    if let until = value("NotAfter") {
      guard let number = UInt64(until) else { throw .badNumber(path: path, key: "NotAfter", value: String(until)) }
      request.notAfterMicroseconds = number == 0 ? nil : number
    }
    return request
  }

  /// Whether the asker has stopped waiting by `now` (CLOCK_MONOTONIC microseconds).
  public func hasExpired(at now: UInt64) -> Bool {
    guard let notAfter = notAfterMicroseconds else { return false }
    return now > notAfter
  }

  /// Sends `secret` as the answer (`+secret`); the copy made for the datagram is wiped.
  ///
  /// - Throws: sendto(2)'s `Errno` (`.connectionRefused` or `.noEntry` once the asker
  ///   has gone).
  public func answer(with secret: UnsafeRawBufferPointer) throws(Errno) {
    let datagram = UnsafeMutableRawBufferPointer.allocate(byteCount: secret.count + 1, alignment: 1)
    defer {
      pl_wipe(datagram.baseAddress, datagram.count)
      datagram.deallocate()
    }
    datagram[0] = UInt8(ascii: "+")
    if let source = secret.baseAddress, secret.count > 0 {
      (datagram.baseAddress! + 1).copyMemory(from: source, byteCount: secret.count)
    }
    try send(UnsafeRawBufferPointer(datagram))
  }

  /// Tells the asker that no secret will come (`-`): the user cancelled.
  public func cancel() throws(Errno) {
    var minus = UInt8(ascii: "-")
    try withUnsafeBytes(of: &minus) { bytes throws(Errno) in try send(bytes) }
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    let path = socket
    try retryingInterrupts {
      path.withCString { pl_send_datagram($0, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) }
    }
  }
}

/// What is wrong with an `ask.*` file.
public enum PasswordRequestError: Error, Equatable {
  case notText(path: String)
  case noSocket(path: String)
  case badMessage(path: String)
  case badNumber(path: String, key: String, value: String)
  case notRoots(path: String)
  case unreadable(path: String, reason: String)

  public var message: String {
    switch self {
    case .notText(let path):
      return "\(path) is not a password request (not UTF-8 text); it is skipped: remove it if no program is asking"
    case .noSocket(let path):
      return "\(path) names no absolute Socket= to answer on; it is skipped: remove it if no program is asking"
    case .badMessage(let path):
      return "\(path) has a Message= with a broken escape; it is skipped: remove it if no program is asking"
    case .badNumber(let path, let key, let value):
      return "\(path) has \(key)=\(value), not a number; it is skipped: remove it if no program is asking"
    case .notRoots(let path):
      return "\(path) is not a regular file of root's, so it is not answered: remove it; only root's programs may ask for a disk's secret"
    case .unreadable(let path, let reason):
      return "cannot read the password request \(path) (\(reason)); it is skipped: check that it is root's and remove it if no program is asking"
    }
  }
}
