import SystemCalls

/// The bytes of a recording, in memory that stays put while libyaml reads it.
///
/// libyaml keeps a pointer to its input between `yaml_parser_parse` calls, so the
/// bytes live in one allocation owned here and freed in `deinit`, never in an array
/// whose storage Swift may move.
struct FileBytes: ~Copyable {
  private let storage: UnsafeMutableRawBufferPointer
  /// How many bytes are valid.
  let count: Int

  /// Copies bytes that are already in memory (tests, and text made by tools).
  init(copying bytes: [UInt8]) {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
    count = bytes.count
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress, let target = storage.baseAddress {
        target.copyMemory(from: base, byteCount: source.count)
      }
    }
  }

  /// Reads a whole file, refusing anything that is not a regular file of at most
  /// `limit` bytes before reading a byte of it.
  ///
  /// The size check comes first (`RegularFile.read` examines the file before opening
  /// it) so that a huge or endless file is refused at once rather than read into memory.
  ///
  /// - Throws: `RecordingError.cannotOpen`, `.notARegularFile`, `.tooLarge` or
  ///   `.readFailed`.
  init(contentsOf path: String, limit: Int64) throws(RecordingError) {
    let bytes: [UInt8]
    do throws(RegularFile.ReadFailure) {
      bytes = try RegularFile.read(atPath: path, limit: limit)
    } catch {
      switch error {
      case .cannotExamine(let errno), .cannotOpen(let errno): throw .cannotOpen(path: path, errno: errno)
      case .notARegularFile(let kind): throw .notARegularFile(path: path, kind: kind.phrase)
      case .tooLarge(let size): throw .tooLarge(path: path, bytes: size)
      case .cannotRead(let errno): throw .readFailed(path: path, errno: errno)
      }
    }
    self.init(copying: bytes)
  }

  deinit { storage.deallocate() }

  /// Lends the bytes as a C string pointer and length.
  func withBytes<R>(_ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
    body(UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self)), count)
  }

  /// The 1-based number of the last line with anything but blanks or a comment: where
  /// a file that was cut short stops.
  func lastContentLine() -> Int {
    var line = 1
    var last = 0
    var lineHasContent = false
    var atLineStart = true
    for i in 0..<count {
      let byte = storage[i]
      if byte == UInt8(ascii: "\n") {
        if lineHasContent { last = line }
        line += 1
        lineHasContent = false
        atLineStart = true
      } else if atLineStart && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")) {
        continue
      } else {
        if atLineStart && byte != UInt8(ascii: "#") { lineHasContent = true }
        atLineStart = false
      }
    }
    if lineHasContent { last = line }
    return last
  }

  /// The 1-based line that byte `offset` is on.
  func line(atOffset offset: Int) -> Int {
    let end = min(max(offset, 0), count)
    var line = 1
    for i in 0..<end where storage[i] == UInt8(ascii: "\n") { line += 1 }
    return line
  }
}
