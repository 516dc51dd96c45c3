extension CoverageMask {
  /// A stretch of one mask row that is not all zero: columns `start..<end` (relative
  /// to the mask's left edge), either every byte 255 (`full`) or a mix.
  ///
  /// A mask's rows are stored as these runs so that a blit skips the empty parts
  /// (the corners of a dot's box, the hole of a ring) without reading them and
  /// fills the fully covered parts at one opacity without per-pixel coverage maths:
  /// a ring row is edge, full, edge, hole, edge, full, edge, and only the edges take
  /// a blend per byte. The bytes stay the truth; runs only say where to look.
  public struct Run: Hashable, Sendable {
    /// The first column, from the mask's left edge.
    public let start: Int32
    /// The column after the last one.
    public let end: Int32
    /// Every byte of the run is 255: blended at the colour's own opacity.
    public let full: Bool

    @inlinable init(start: Int, end: Int, full: Bool) {
      self.start = Int32(truncatingIfNeeded: start)
      self.end = Int32(truncatingIfNeeded: end)
      self.full = full
    }
  }
}
