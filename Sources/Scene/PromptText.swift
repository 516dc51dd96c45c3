/// The line the prompt shows: a message of the catalogue and its numbers, held inline,
/// so building "Try again in 4:59" each second allocates nothing.
///
/// A prompt names its message and does not hold words: the words are the language's,
/// written out (`forEachScalar`) only where the prompt is drawn, so the controller and
/// the judges never need to know which language the screen speaks.
public struct PromptText: Sendable, Equatable {
  /// The most numbers a message takes.
  public static let maximumNumbers = 3

  /// The message; nil for a blank prompt or a verbatim one.
  public private(set) var message: Message?
  private var verbatim: StaticString?
  private var numbers = InlineArray<3, Int>(repeating: 0)

  /// A blank prompt.
  public init() {}

  /// A message without numbers.
  public init(_ message: Message) {
    self.message = message
  }

  /// A message with its numbers, in the order of its English text.
  public init(_ message: Message, _ first: Int, _ second: Int = 0, _ third: Int = 0) {
    self.message = message
    numbers[0] = first
    numbers[1] = second
    numbers[2] = third
  }

  /// Text outside the catalogue, the same in every language: for tests only (every
  /// word the lock shows is a `Message`).
  public init(_ text: StaticString) {
    verbatim = text
  }

  /// Whether there is nothing to show.
  public var isEmpty: Bool { message == nil && (verbatim.map { $0.utf8CodeUnitCount == 0 } ?? true) }

  /// Calls `body` with each scalar of the prompt in `language`, without allocating.
  public func forEachScalar(in language: Language, _ body: (Unicode.Scalar) -> Void) {
    if let verbatim {
      MessageFormat.forEachScalar(of: verbatim, numbers: numbers, body)
    } else if let message {
      let form = message.hasPluralForms ? MessageCatalogue.pluralForm(for: numbers[0], in: language) : 0
      MessageFormat.forEachScalar(of: MessageCatalogue.text(of: message, form: form, in: language), numbers: numbers, body)
    }
  }

  /// The prompt in a language, as a String (for tests and logs; allocates).
  public func text(in language: Language) -> String {
    var s = ""
    forEachScalar(in: language) { s.unicodeScalars.append($0) }
    return s
  }

  /// The prompt in English (for tests and logs; allocates).
  public var string: String { text(in: .en) }

  public static func == (a: PromptText, b: PromptText) -> Bool {
    guard a.message == b.message else { return false }
    if let m = a.message {
      for i in 0..<m.numberCount where a.numbers[i] != b.numbers[i] { return false }
      return true
    }
    switch (a.verbatim, b.verbatim) {
    case (nil, nil): return true
    case (let x?, let y?):
      return x.withUTF8Buffer { xs in y.withUTF8Buffer { ys in xs.elementsEqual(ys) } }
    default: return false
    }
  }
}
