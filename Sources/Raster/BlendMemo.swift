/// The blended words of one colour over one underlying word, by coverage byte:
/// a shape's edge pixels mostly lie over the same background word, so a mask's
/// or a polyline's edge pixel whose word underneath is that word takes the word
/// blended the last time at its coverage instead of blending again.
///
/// A blend is a function of the colour, the opacity (a function of the coverage
/// byte and the colour) and the word underneath, so a remembered word is exactly
/// what blending would give: the bytes do not change. A memo keeps one colour
/// and one word underneath (the rasterizer keeps a few, one per colour, from
/// frame to frame); a pixel over another word blends and makes that word
/// the remembered one (a gradient background changes it every few rows, the line
/// under a ring now and then). Entries belong to the current `tag`: changing the
/// colour or the word underneath only moves the tag on, so nothing is cleared.
///
/// At 1920x1080 a full frame blends about 13 000 edge pixels of the rings and
/// dots at some thirty instructions each; a remembered one costs about ten.
///
/// The storage lives in the `Rasterizer` (made once); a draw copies this value out
/// with `Rasterizer.blendMemo(for:)`, uses it in its pixel loops (in registers,
/// not through the class) and hands it back with `Rasterizer.keep(_:)`.
@usableFromInline struct BlendMemo {
  /// `words[c]`: the colour blended at coverage byte `c` over `under`, valid when
  /// `tags[c] == tag`.
  @usableFromInline let words: UnsafeMutablePointer<UInt32>
  @usableFromInline let tags: UnsafeMutablePointer<UInt32>
  @usableFromInline var tag: UInt32
  /// The word underneath the remembered blends (in the canvas's format).
  @usableFromInline var under: UInt32
  /// Which of the rasterizer's memos this is.
  @usableFromInline let slot: Int

  @inlinable init(
    words: UnsafeMutablePointer<UInt32>, tags: UnsafeMutablePointer<UInt32>, tag: UInt32, under: UInt32, slot: Int
  ) {
    self.words = words
    self.tags = tags
    self.tag = tag
    self.under = under
    self.slot = slot
  }

  /// The blended word at coverage byte `c` over `old`, blending with `blend` when
  /// it is not remembered.
  @inlinable @inline(__always)
  mutating func word(coverage c: Int, over old: UInt32, blend: () -> UInt32) -> UInt32 {
    if old == under && tags[c] == tag { return words[c] }
    if old != under { forget(under: old) }
    let word = blend()
    words[c] = word
    tags[c] = tag
    return word
  }

  /// Starts over with `old` as the word underneath: every entry is stale.
  @inlinable mutating func forget(under old: UInt32) {
    under = old
    tag &+= 1
    // After 2^32 changes the tags would come round again: clear them once.
    if tag == 0 {
      tags.update(repeating: 0, count: 256)
      tag = 1
    }
  }
}
