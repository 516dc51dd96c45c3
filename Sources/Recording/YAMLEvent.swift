/// One event from libyaml's parser, copied out of C memory.
///
/// Only what the recording walker looks at is kept: the kind, a scalar's text, and
/// where the event starts.
struct YAMLEvent {
  enum Kind {
    case streamStart, streamEnd, documentStart, documentEnd
    case alias, scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd

    /// What a user calls this, for "expected a mapping, found a list".
    var noun: String {
      switch self {
      case .streamStart, .streamEnd: return "the end of the file"
      case .documentStart, .documentEnd: return "a document marker"
      case .alias: return "an alias"
      case .scalar: return "a single value"
      case .sequenceStart, .sequenceEnd: return "a list"
      case .mappingStart, .mappingEnd: return "a mapping"
      }
    }
  }

  var kind: Kind
  /// The scalar's text; empty for other kinds.
  var value: String
  /// Whether the scalar was written plainly (unquoted), as numbers and empty values are.
  var isPlain: Bool
  /// The 1-based line where the event starts.
  var line: Int

  /// Whether this is an empty plain scalar: YAML's null, as in `quirks:` with nothing after.
  var isNull: Bool { kind == .scalar && isPlain && (value.isEmpty || value == "~" || value == "null") }
}
