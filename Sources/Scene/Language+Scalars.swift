extension Language {
  /// Every scalar the language's texts use, once each, in scalar order: what the glyph
  /// atlas must hold for it (numbers are ASCII digits, which it always holds).
  ///
  /// Start-up only: it allocates.
  public var scalars: [Unicode.Scalar] {
    var found: [Unicode.Scalar] = []
    let noNumbers = InlineArray<3, Int>(repeating: 0)
    for message in Message.allCases {
      // Every plural form: the catalogue answers the last one for any form past it.
      for form in 0..<(message.hasPluralForms ? 6 : 1) {
        MessageFormat.forEachScalar(of: MessageCatalogue.text(of: message, form: form, in: self), numbers: noNumbers) { scalar in
          if !found.contains(scalar) { found.append(scalar) }
        }
      }
    }
    found.sort { $0.value < $1.value }
    return found
  }
}
