import CINIH

/// One `key = value` line of an INI file, as libinih reported it.
struct INIEntry: Equatable {
  let section: String
  let key: String
  let value: String
  let line: Int
}

/// Runs libinih over a file's bytes and collects its `key = value` lines with their
/// line numbers.
///
/// `ini_parse_stream` with our own line reader rather than `ini_parse_string`: the
/// Debian build has `INI_HANDLER_LINENO` off, so the handler is not told the line, and
/// `ini_parse_string` reports only the first error's line, which is not enough to
/// blame a bad value found after a syntax error. The reader knows which line it handed
/// over last, checks each `[section]` header (libinih calls the handler only for keys,
/// so an empty unknown section would pass unnoticed), and refuses NUL bytes and lines
/// longer than libinih's fixed buffer, which it would otherwise split in two silently.
/// Both callbacks are `@convention(c)` functions that reach the parse state through
/// the context pointer; no Swift error crosses the C frames: the first problem is
/// recorded and the reader stops.
enum INIFile {
  /// The entries of `bytes`, in file order.
  ///
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - path: the file's name, for messages.
  /// - Throws: `ConfigurationError.syntax`, `.notText`, `.lineTooLong` or `.unknownSection`.
  static func entries(of bytes: [UInt8], path: String) throws(ConfigurationError) -> [INIEntry] {
    var state = ParseState(path: path)
    let status: Int32 = bytes.withUnsafeBufferPointer { buffer in
      state.bytes = buffer
      return withUnsafeMutablePointer(to: &state) { pointer in
        ini_parse_stream(readLine, pointer, handleEntry, pointer)
      }
    }
    if let problem = state.problem { throw problem }
    if status > 0 { throw .syntax(path: path, line: Int(status)) }
    // -1 (cannot open) cannot happen with a reader; -2 is libinih out of memory.
    precondition(status == 0, "ini_parse_stream failed with \(status)")
    return state.entries
  }

  /// What the callbacks share.
  private struct ParseState {
    let path: String
    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var offset = 0
    /// The line last handed to libinih (1-based).
    var line = 0
    var entries: [INIEntry] = []
    var problem: ConfigurationError?

    init(path: String) { self.path = path }
  }

  /// libinih's `ini_reader`: copies the next line (with its newline) into `buffer`, as
  /// fgets would, or returns NULL at the end or after a problem.
  private static let readLine: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CChar>? = {
    buffer, capacity, context in
    guard let buffer, let context else { return nil }
    let state = context.assumingMemoryBound(to: ParseState.self)
    let bytes = state.pointee.bytes
    let start = state.pointee.offset
    guard state.pointee.problem == nil, start < bytes.count else { return nil }
    var end = start
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    if end < bytes.count { end += 1 }  // keep the newline, as fgets does
    state.pointee.line += 1
    let line = state.pointee.line
    let path = state.pointee.path
    guard end - start < Int(capacity) else {
      state.pointee.problem = .lineTooLong(path: path, line: line, limit: Int(capacity) - 2)
      return nil
    }
    for i in start..<end {
      guard bytes[i] != 0 else {
        state.pointee.problem = .notText(path: path, line: line)
        return nil
      }
      buffer[i - start] = CChar(bitPattern: bytes[i])
    }
    buffer[end - start] = 0
    state.pointee.offset = end
    if let section = sectionHeader(UnsafeBufferPointer(rebasing: bytes[start..<end])),
      !Setting.sections.contains(section)
    {
      state.pointee.problem = .unknownSection(path: path, line: line, section: section)
      return nil
    }
    return buffer
  }

  /// libinih's `ini_handler`: records one `key = value`; 1 means "go on".
  private static let handleEntry: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32 = {
    context, section, key, value in
    guard let context, let section, let key, let value else { return 0 }
    let state = context.assumingMemoryBound(to: ParseState.self)
    state.pointee.entries.append(
      INIEntry(section: String(cString: section), key: String(cString: key), value: String(cString: value), line: state.pointee.line))
    return 1
  }

  /// The name in a `[name]` line (leading blanks allowed, as libinih allows them), or
  /// nil when the line is no section header or has no closing bracket (libinih then
  /// reports a syntax error).
  private static func sectionHeader(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    var i = 0
    if line.count >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF { i = 3 }  // UTF-8 BOM
    while i < line.count && (line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t")) { i += 1 }
    guard i < line.count, line[i] == UInt8(ascii: "[") else { return nil }
    let nameStart = i + 1
    var j = nameStart
    while j < line.count && line[j] != UInt8(ascii: "]") { j += 1 }
    guard j < line.count else { return nil }
    return String(decoding: UnsafeBufferPointer(rebasing: line[nameStart..<j]), as: UTF8.self)
  }
}
