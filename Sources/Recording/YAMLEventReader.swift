import CYAML

/// libyaml's event parser (`yaml_parser_*`) over a file's bytes, one event at a time.
///
/// The event API keeps memory flat: a recording is read as a stream and only the rows
/// of one device are kept, where libyaml's document loader would build a node tree of
/// the whole file first. Errors become `RecordingError` with the line of the problem.
///
/// Nesting is limited to `maximumDepth` lists and mappings. libyaml's scanner keeps
/// one possible simple key per open flow collection and walks all of them for every
/// token it reads (`yaml_parser_fetch_more_tokens`, `yaml_parser_stale_simple_keys`
/// in libyaml 0.2.5), so reading `[[[[...` costs time quadratic in the depth: 40 000
/// levels took 4.7 s, 200 000 over two minutes. The limit stops the file at the first
/// event past it; libyaml looks ahead at most about 1024 characters of one line for a
/// simple key, so it has opened only that many levels by then, and the refusal takes
/// milliseconds whatever the file's size. A recording nests 7 levels (document,
/// `devices:`, a device, `events:`, a frame, `evdev:`, a row), 8 with the flow
/// mappings of `- libinput:` entries; 32 leaves room for keys newer libinput adds.
struct YAMLEventReader: ~Copyable {
  /// The deepest nesting of lists and mappings read; one more is `RecordingError.tooDeep`.
  static let maximumDepth = 32

  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let bytes: FileBytes
  /// The file name for messages.
  let path: String
  /// How many lists and mappings are open at the last event read.
  private var depth = 0

  /// Starts a parser over `bytes` (`yaml_parser_initialize`, `yaml_parser_set_input_string`).
  init(bytes: consuming FileBytes, path: String) {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    // yaml_parser_initialize only fails when it cannot allocate its buffers, and then
    // so would everything else in this process.
    precondition(yaml_parser_initialize(parser) != 0, "libyaml could not allocate its parser")
    bytes.withBytes { base, count in yaml_parser_set_input_string(parser, base, count) }
    self.parser = parser
    self.bytes = bytes
    self.path = path
  }

  deinit {
    yaml_parser_delete(parser)
    parser.deallocate()
  }

  /// The last line with content; a missing value there means the file was cut short.
  ///
  /// Counted when a message needs it, not up front: a pass over 64 MiB would cost
  /// every file, good or bad, the time of its slowest refusal.
  var lastContentLine: Int { bytes.lastContentLine() }

  /// The next event (`yaml_parser_parse`, `yaml_event_delete`).
  ///
  /// - Throws: `RecordingError.truncated` when libyaml fails at the very end of the
  ///   input (the file was cut off), `.tooDeep` for a list or mapping opened more than
  ///   `maximumDepth` levels deep, else `RecordingError.notYAML`.
  mutating func next() throws(RecordingError) -> YAMLEvent {
    var event = yaml_event_t()
    guard yaml_parser_parse(parser, &event) != 0 else { throw parseError() }
    defer { yaml_event_delete(&event) }
    let line = Int(event.start_mark.line) + 1
    switch event.type {
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      depth += 1
      guard depth <= YAMLEventReader.maximumDepth else {
        throw .tooDeep(path: path, line: line, limit: YAMLEventReader.maximumDepth)
      }
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      depth -= 1
    default:
      break
    }
    switch event.type {
    case YAML_STREAM_START_EVENT: return YAMLEvent(kind: .streamStart, value: "", isPlain: false, line: line)
    case YAML_STREAM_END_EVENT: return YAMLEvent(kind: .streamEnd, value: "", isPlain: false, line: line)
    case YAML_DOCUMENT_START_EVENT: return YAMLEvent(kind: .documentStart, value: "", isPlain: false, line: line)
    case YAML_DOCUMENT_END_EVENT: return YAMLEvent(kind: .documentEnd, value: "", isPlain: false, line: line)
    case YAML_ALIAS_EVENT: return YAMLEvent(kind: .alias, value: "", isPlain: false, line: line)
    case YAML_SEQUENCE_START_EVENT: return YAMLEvent(kind: .sequenceStart, value: "", isPlain: false, line: line)
    case YAML_SEQUENCE_END_EVENT: return YAMLEvent(kind: .sequenceEnd, value: "", isPlain: false, line: line)
    case YAML_MAPPING_START_EVENT: return YAMLEvent(kind: .mappingStart, value: "", isPlain: false, line: line)
    case YAML_MAPPING_END_EVENT: return YAMLEvent(kind: .mappingEnd, value: "", isPlain: false, line: line)
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      var text = ""
      if let value = scalar.value {
        text = String(decoding: UnsafeBufferPointer(start: value, count: scalar.length), as: UTF8.self)
      }
      return YAMLEvent(kind: .scalar, value: text, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, line: line)
    default:
      // YAML_NO_EVENT: libyaml returns it only after the stream has ended.
      return YAMLEvent(kind: .streamEnd, value: "", isPlain: false, line: line)
    }
  }

  /// The parser's error as a `RecordingError`.
  private func parseError() -> RecordingError {
    let p = parser.pointee
    var problem = p.problem.map { String(cString: $0) } ?? "libyaml ran out of memory"
    if let context = p.context { problem += " " + String(cString: context) }
    let line: Int
    let atEnd: Bool
    if p.error == YAML_READER_ERROR {
      // Reader errors (bad UTF-8, control bytes) carry a byte offset, not a mark.
      line = bytes.line(atOffset: Int(p.problem_offset))
      atEnd = false
    } else {
      line = Int(p.problem_mark.line) + 1
      atEnd = Int(p.problem_mark.index) >= bytes.count
    }
    if atEnd {
      // libyaml puts the end of the stream after the last line; name the line that stops.
      return .truncated(
        path: path, line: max(1, min(line, lastContentLine)),
        problem: "YAML ends inside a list or mapping (\(problem))")
    }
    return .notYAML(path: path, line: line, problem: problem)
  }
}
