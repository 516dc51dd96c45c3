import SystemCalls
import CSodium

/// Bytes that must not outlive their use: a pattern as typed, or its canonical
/// encoding. Owned by exactly one value (`~Copyable`), never copied into a `String` or
/// an `Array` (whose storage Swift may copy and free without wiping), locked in memory
/// (`sodium_mlock`, so never written to swap) where the kernel allows it, and wiped with
/// `sodium_memzero` (which the compiler may not remove as a dead store) in `deinit`.
public struct SecretBytes: ~Copyable {
  private let storage: UnsafeMutableRawBufferPointer
  /// How many bytes are in use.
  public private(set) var count: Int

  /// Empty bytes with room for `capacity`.
  public init(capacity: Int) {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 1)
    storage.initializeMemory(as: UInt8.self, repeating: 0)
    // Refused past RLIMIT_MEMLOCK for unprivileged users: the bytes are still wiped.
    _ = sodium_mlock(storage.baseAddress!, storage.count)
    count = 0
  }

  /// Room for more bytes.
  public var capacity: Int { storage.count }

  /// Appends one byte.
  ///
  /// - Returns: false (and appends nothing) when full.
  @discardableResult
  public mutating func append(_ byte: UInt8) -> Bool {
    guard count < storage.count else { return false }
    storage[count] = byte
    count += 1
    return true
  }

  /// The byte at `index`.
  public subscript(index: Int) -> UInt8 {
    precondition(index >= 0 && index < count, "secret byte index out of range")
    return storage[index]
  }

  /// Lends the bytes in use.
  public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
  }

  /// Lends the whole buffer for filling (by `read`); `body` returns how many bytes
  /// it filled from `count` on, and `count` grows by that much.
  mutating func fill<E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> Int) throws(E) {
    let filled = try body(UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
    precondition(filled >= 0 && count + filled <= storage.count, "filled past the end of a secret buffer")
    count += filled
  }

  /// All of standard input, when it is at most `limit` bytes; nil when there is more.
  ///
  /// - Throws: read(2)'s `Errno`.
  public static func readStandardInput(limit: Int) throws(Errno) -> SecretBytes? {
    var bytes = SecretBytes(capacity: limit + 1)
    while true {
      var atEnd = false
      try bytes.fill { buffer throws(Errno) -> Int in
        guard buffer.count > 0 else { return 0 }
        let n = try FileDescriptor.standardInput.read(into: buffer)
        if n == 0 { atEnd = true }
        return n
      }
      if bytes.count > limit { return nil }
      if atEnd { return bytes }
    }
  }

  /// Bytes `range` of these, as secret bytes of their own.
  public func copying(_ range: Range<Int>) -> SecretBytes {
    var part = SecretBytes(capacity: max(range.count, 1))
    for i in range { _ = part.append(storage[i]) }
    return part
  }

  deinit {
    sodium_memzero(storage.baseAddress, storage.count)
    // munlock also zeroes; it fails harmlessly where mlock was refused.
    _ = sodium_munlock(storage.baseAddress!, storage.count)
    storage.deallocate()
  }
}
