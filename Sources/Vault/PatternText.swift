import SystemCalls
import PatternCore

/// Patterns as bytes: parsed from what an administrator types (`1-2-3-6-9`) and
/// encoded canonically for hashing.
///
/// The canonical form is `<n>x<n>:<dots joined by dashes>`, such as `3x3:1-2-3-6-9`:
/// the grid size is part of the secret, so the same dot numbers on another grid never
/// verify, and there is exactly one encoding per pattern (no spaces, no leading zeros,
/// no trailing newline), so whatever typed or drew the pattern hashes the same bytes.
/// Both directions work in `SecretBytes` only; no `String` ever holds a pattern.
public enum PatternText {
  /// The most bytes a typed pattern may take (49 dots of 2 digits and dashes fit).
  public static let maximumBytes = 255

  /// The canonical encoding of `dots` on a `gridSize` grid.
  public static func canonical(_ dots: DotSequence, gridSize: Int) -> SecretBytes {
    var bytes = SecretBytes(capacity: 8 + dots.count * 3)
    appendNumber(gridSize, to: &bytes)
    bytes.append(UInt8(ascii: "x"))
    appendNumber(gridSize, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    for i in 0..<dots.count {
      if i > 0 { bytes.append(UInt8(ascii: "-")) }
      appendNumber(dots[i], to: &bytes)
    }
    return bytes
  }

  /// Parses `1-2-3-6-9`, optionally followed by one line end (`\n` or `\r\n`).
  ///
  /// - Throws: `VaultError.badPattern` saying what is wrong, never quoting the text.
  public static func parse(_ text: borrowing SecretBytes, gridSize: Int) throws(VaultError) -> DotSequence {
    var end = text.count
    if end > 0 && text[end - 1] == UInt8(ascii: "\n") { end -= 1 }
    if end > 0 && text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    guard end > 0 else { throw .badPattern(problem: "it is empty") }
    let dotCount = gridSize * gridSize
    var dots = DotSequence()
    var value = 0
    var digits = 0
    var index = 0
    while index <= end {
      let c: UInt8 = index < end ? text[index] : UInt8(ascii: "-")
      index += 1
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        guard digits < 2 else { throw .badPattern(problem: "a dot number is longer than 2 digits") }
        if digits == 1 && value == 0 { throw .badPattern(problem: "a dot number has a leading zero") }
        value = value * 10 + Int(c - UInt8(ascii: "0"))
        digits += 1
        continue
      }
      guard c == UInt8(ascii: "-") else {
        throw .badPattern(problem: "it holds a character other than digits and dashes (one pattern on one line)")
      }
      guard digits > 0 else { throw .badPattern(problem: "two dashes meet, or a dash starts or ends it") }
      guard value >= 1 && value <= dotCount else {
        throw .badPattern(problem: "a dot number is outside 1...\(dotCount) for a \(gridSize)x\(gridSize) grid")
      }
      guard dots.append(value) else { throw .badPattern(problem: "a dot is used twice") }
      value = 0
      digits = 0
    }
    return dots
  }

  /// Refuses a typed pattern that no finger can draw: one whose move jumps over a dot
  /// not yet joined, which the screen would join on the way, so the stored pattern
  /// would never match a drawing. The error numbers the move and names no dot, since
  /// whoever reads the message (a terminal, a log) must learn nothing of the pattern.
  ///
  /// - Throws: `VaultError.patternNotDrawable`.
  public static func requireDrawable(_ dots: DotSequence, gridSize: Int) throws(VaultError) {
    guard let undrawable = dots.firstPassedOverDot(gridSize: gridSize) else { return }
    // Move i joins dots[i - 1] to dots[i]; a dot appears once in a sequence.
    var move = 1
    for i in 1..<dots.count where dots[i] == undrawable.move.to { move = i }
    throw .patternNotDrawable(move: move)
  }

  /// Reads all of standard input (at most `maximumBytes`) into secret bytes.
  ///
  /// - Throws: `VaultError.standardInputFailed`, or `.badPattern` when it is longer.
  public static func readStandardInput() throws(VaultError) -> SecretBytes {
    let read: SecretBytes?
    do throws(Errno) {
      read = try SecretBytes.readStandardInput(limit: maximumBytes)
    } catch {
      throw .standardInputFailed(errno: error)
    }
    guard let bytes = read else { throw .badPattern(problem: "it is longer than \(maximumBytes) bytes") }
    return bytes
  }

  /// Reads one line (through its newline, or to end-of-file) of at most
  /// `maximumBytes` from a connected socket, within `timeLimitMicroseconds` for the
  /// whole line: what `judge` reads from its client. The limit is one for the line,
  /// not for each read, so a client sending a byte at a time cannot hold the reader
  /// longer; bytes are read one at a time, so nothing after the newline is taken.
  ///
  /// - Throws: `VaultError.standardInputFailed` with `Errno.wouldBlock` when the time
  ///   ran out, or with the socket's error; `.badPattern` when the line is longer.
  public static func readLine(from socket: borrowing FileDescriptor, timeLimitMicroseconds: Int64) throws(VaultError)
    -> SecretBytes
  {
    let deadline = Int64(MonotonicClock.microseconds()) + timeLimitMicroseconds
    var bytes = SecretBytes(capacity: maximumBytes + 1)
    while true {
      var atEnd = false
      do throws(Errno) {
        let left = deadline - Int64(MonotonicClock.microseconds())
        guard left > 0 else { throw Errno.wouldBlock }
        try socket.setReceiveTimeout(microseconds: left)
        try bytes.fill { buffer throws(Errno) -> Int in
          guard buffer.count > 0 else { return 0 }
          let n = try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<1]))
          if n == 0 { atEnd = true }
          return n
        }
      } catch {
        throw .standardInputFailed(errno: error)
      }
      if bytes.count > maximumBytes { throw .badPattern(problem: "it is longer than \(maximumBytes) bytes") }
      if atEnd || bytes[bytes.count - 1] == UInt8(ascii: "\n") { return bytes }
    }
  }

  private static func appendNumber(_ value: Int, to bytes: inout SecretBytes) {
    if value >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10)) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
