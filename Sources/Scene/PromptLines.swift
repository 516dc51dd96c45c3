import PatternCore
import Raster

/// A prompt written out in a language and broken into the prompt band's lines: one
/// when it fits the band's width, else two (the band is two text lines high), broken
/// at a space or between two Chinese (CJK) characters: after punctuation where both
/// lines then fit, else where the lines are most even; inside a word only when no such
/// place exists.
///
/// Held inline and made per frame without allocating. A prompt that still does not fit
/// is clipped by the band: the catalogue's test (`PromptFitTests`) makes sure none does.
public struct PromptLines {
  /// The most scalars a prompt holds; the rest is cut (a bug in a translation, which
  /// the tests catch, never a crash).
  public static let capacity = 96

  private var scalars = InlineArray<96, Unicode.Scalar>(repeating: " ")
  /// How many scalars the prompt has.
  public private(set) var count = 0
  /// The first line is `0..<firstEnd`, the second `secondStart..<count` (empty for one line).
  public private(set) var firstEnd = 0
  public private(set) var secondStart = 0
  /// The lines' pen widths in pixels.
  public private(set) var firstWidth = 0
  public private(set) var secondWidth = 0

  /// Writes `prompt` in `language` and breaks it for a band `width` pixels wide.
  public init(_ prompt: PromptText, language: Language, atlas: GlyphAtlas, width: Int) {
    prompt.forEachScalar(in: language) { scalar in
      guard count < PromptLines.capacity else { return }
      scalars[count] = scalar
      count += 1
    }
    var total = 0
    for i in 0..<count { total += advance(i, atlas) }
    firstEnd = count
    secondStart = count
    firstWidth = total
    guard total > width else { return }

    // Of the breaks that leave both lines narrow enough, one after punctuation ("Wrong
    // pattern: / 2 tries left", "图案错误， / 还可尝试 2 次") if there is one, and of
    // those the most even; failing that, the first line as full as it can be.
    var prefix = 0
    var fitting = 0
    var breakEnd = -1, breakStart = 0, breakWidth = 0
    var best = (end: -1, start: 0, width: 0, afterPunctuation: false, widest: Int.max)
    for i in 0..<count {
      if i > 0 {
        var end = -1, lineWidth = 0
        if scalars[i - 1] == " " {
          // After a space: the first line ends before it.
          end = i - 1
          lineWidth = prefix - advance(i - 1, atlas)
          while end > 0 && scalars[end - 1] == " " {
            end -= 1
            lineWidth -= advance(end, atlas)
          }
        } else if PromptLines.mayBreak(between: scalars[i - 1], and: scalars[i]) {
          end = i
          lineWidth = prefix
        }
        if end > 0 && lineWidth <= width {
          (breakEnd, breakStart, breakWidth) = (end, i, lineWidth)
          let rest = total - prefix
          let afterPunctuation = PromptLines.isPunctuation(scalars[end - 1])
          let widest = max(lineWidth, rest)
          if rest <= width && (afterPunctuation && !best.afterPunctuation || afterPunctuation == best.afterPunctuation && widest < best.widest) {
            best = (end, i, lineWidth, afterPunctuation, widest)
          }
        }
      }
      prefix += advance(i, atlas)
      if prefix <= width { fitting = i + 1 }
    }
    if best.end > 0 {
      (breakEnd, breakStart, breakWidth) = (best.end, best.start, best.width)
    } else if breakEnd < 0 {
      let end = max(1, fitting)
      (breakEnd, breakStart, breakWidth) = (end, end, 0)
      for i in 0..<end { breakWidth += advance(i, atlas) }
    }
    firstEnd = breakEnd
    secondStart = breakStart
    firstWidth = breakWidth
    for i in secondStart..<count { secondWidth += advance(i, atlas) }
  }

  /// How many lines the prompt takes: 0 (blank), 1 or 2.
  public var lineCount: Int { count == 0 ? 0 : (secondStart < count ? 2 : 1) }

  /// The wider line's width in pixels.
  public var widestLine: Int { max(firstWidth, secondWidth) }

  /// Calls `body` once per glyph with where its mask goes in `box` (the layout's prompt
  /// band): each line centred; one line on the band's middle as before translations,
  /// two lines on the middles of the band's halves.
  public func forEachGlyph(in box: Rect, atlas: GlyphAtlas, _ body: (TextLayout.Placement) -> Void) {
    let lines = lineCount
    guard lines > 0 else { return }
    let pitch = box.height / lines
    for line in 0..<lines {
      let range = line == 0 ? 0..<firstEnd : secondStart..<count
      let width = line == 0 ? firstWidth : secondWidth
      var pen = box.x + max(0, (box.width - width) / 2)
      let baseline = box.y + line * pitch + (pitch + atlas.ascender - atlas.descender) / 2
      for i in range {
        guard let glyph = TextLayout.glyph(for: scalars[i], in: atlas) else { continue }
        body(TextLayout.Placement(glyph: glyph, x: pen + glyph.bearingX, y: baseline - glyph.bearingY))
        pen += glyph.advance
      }
    }
  }

  /// The prompt's scalars as a String (for tests; allocates).
  public var string: String {
    var s = ""
    for i in 0..<count { s.unicodeScalars.append(scalars[i]) }
    return s
  }

  private func advance(_ i: Int, _ atlas: GlyphAtlas) -> Int {
    TextLayout.glyph(for: scalars[i], in: atlas)?.advance ?? 0
  }

  /// Chinese and Japanese text has no spaces: a line may break between two of its
  /// characters, but never before closing punctuation (，。、：；！？）」) nor after an
  /// opening one (（「), the common rule of Chinese typesetting.
  static func mayBreak(between before: Unicode.Scalar, and after: Unicode.Scalar) -> Bool {
    guard isCJK(before) || isCJK(after) else { return false }
    // Switches, not array literals: this runs per frame, which allocates nothing.
    switch after.value {
    case 0x3001, 0x3002, 0xFF0C, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F, 0xFF09, 0x300D, 0x300F, 0x201D: return false
    default: break
    }
    switch before.value {
    case 0xFF08, 0x300C, 0x300E, 0x201C: return false
    default: return true
    }
  }

  /// Where a sentence or a clause ends: a good place to break a line.
  static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x3001, 0x3002, 0xFF01, 0xFF0C, 0xFF1A, 0xFF1B, 0xFF1F: return true
    default: return false
    }
  }

  /// CJK ideographs, their punctuation and full-width forms.
  static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (0x3000...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v)
      || (0xFF00...0xFFEF).contains(v)
  }
}
