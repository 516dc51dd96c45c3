import CShim

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
  /// The size check comes first (with `stat`, through the shim's `pl_stat`) so that a
  /// huge or endless file is refused at once rather than read into memory.
  ///
  /// - Throws: `RecordingError.cannotOpen`, `.notARegularFile`, `.tooLarge` or
  ///   `.readFailed`.
  init(contentsOf path: String, limit: Int64) throws(RecordingError) {
    var info = pl_file_info()
    let statResult = path.withCString { pl_stat($0, &info) }
    guard statResult == 0 else { throw .cannotOpen(path: path, errno: pl_errno()) }
    if info.is_directory != 0 { throw .notARegularFile(path: path, kind: "a directory") }
    if info.is_regular == 0 { throw .notARegularFile(path: path, kind: "a device, pipe or socket") }
    guard info.size <= limit else { throw .tooLarge(path: path, bytes: info.size) }

    let fd = path.withCString { pl_open($0, Int32(PL_O_RDONLY), 0) }
    guard fd >= 0 else { throw .cannotOpen(path: path, errno: pl_errno()) }
    defer { _ = pl_close(fd) }

    // The file may shrink or grow after stat; read at most what stat promised.
    let capacity = Int(info.size)
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 1)
    var filled = 0
    while filled < capacity {
      let n = pl_read(fd, storage.baseAddress! + filled, capacity - filled)
      if n < 0 {
        let error = pl_errno()
        storage.deallocate()
        throw .readFailed(path: path, errno: error)
      }
      if n == 0 { break }
      filled += n
    }
    self.storage = storage
    self.count = filled
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
