/// Breaks a message into lines no wider than a box: at spaces first, inside a word
/// only when the word alone is wider than the box; past the last line allowed, the
/// text is cut and the last line ends in an ellipsis.
///
/// Widths are the pen advances `TextLayout` draws with, so a line that fits here fits
/// there (a scalar the atlas lacks is measured as the '?' drawn for it). Any run of
/// white space (spaces, tabs, line breaks) is one break opportunity. Run once, when
/// the screen is made: it allocates the lines.
public enum TextWrapping {
  /// The lines of `text`, at most `maximumLines`, each at most `width` pixels wide
  /// (a single glyph wider than the box still gets a line of its own).
  public static func lines(of text: String, atlas: GlyphAtlas, width: Int, maximumLines: Int) -> [String] {
    guard maximumLines > 0 else { return [] }
    var lines: [[Unicode.Scalar]] = []
    var line: [Unicode.Scalar] = []
    var lineWidth = 0
    let space = advance(of: " ", in: atlas)

    func finishLine() {
      if !line.isEmpty { lines.append(line) }
      line.removeAll()
      lineWidth = 0
    }

    func add(_ word: [Unicode.Scalar]) {
      let wordWidth = word.reduce(0) { $0 + advance(of: $1, in: atlas) }
      if !line.isEmpty && lineWidth + space + wordWidth <= width {
        line.append(" ")
        line.append(contentsOf: word)
        lineWidth += space + wordWidth
        return
      }
      finishLine()
      // Hard breaks: as many scalars as fit, at least one per line.
      for scalar in word {
        let w = advance(of: scalar, in: atlas)
        if !line.isEmpty && lineWidth + w > width { finishLine() }
        line.append(scalar)
        lineWidth += w
      }
    }

    var word: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars {
      if isBreak(scalar) {
        if !word.isEmpty { add(word) }
        word.removeAll()
      } else {
        word.append(scalar)
      }
    }
    if !word.isEmpty { add(word) }
    finishLine()

    if lines.count > maximumLines {
      lines.removeSubrange(maximumLines...)
      lines[maximumLines - 1] = cut(lines[maximumLines - 1], toFit: width, atlas: atlas)
    }
    return lines.map { scalars in
      var s = ""
      s.unicodeScalars.append(contentsOf: scalars)
      return s
    }
  }

  /// The ellipsis drawn at the end of a cut message: '…' when the font has it.
  static func ellipsis(in atlas: GlyphAtlas) -> [Unicode.Scalar] {
    atlas.glyph(for: "\u{2026}") != nil ? ["\u{2026}"] : [".", ".", "."]
  }

  /// `line` shortened (and its trailing spaces dropped) until it fits with the ellipsis after it.
  static func cut(_ line: [Unicode.Scalar], toFit width: Int, atlas: GlyphAtlas) -> [Unicode.Scalar] {
    let mark = ellipsis(in: atlas)
    let markWidth = mark.reduce(0) { $0 + advance(of: $1, in: atlas) }
    var kept = line
    var keptWidth = kept.reduce(0) { $0 + advance(of: $1, in: atlas) }
    while let last = kept.last, keptWidth + markWidth > width || last == " " {
      keptWidth -= advance(of: last, in: atlas)
      kept.removeLast()
    }
    return kept + mark
  }

  /// White space and control characters (which have no glyph to draw). Listed, not
  /// looked up in the Unicode tables, which an embedded build does not link.
  static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v <= 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x1680 || (0x2000...0x200A).contains(v)
      || v == 0x2028 || v == 0x2029 || v == 0x205F || v == 0x3000
  }

  static func advance(of scalar: Unicode.Scalar, in atlas: GlyphAtlas) -> Int {
    TextLayout.glyph(for: scalar, in: atlas)?.advance ?? 0
  }
}
