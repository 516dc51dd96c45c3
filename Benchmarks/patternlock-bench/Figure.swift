/// One measured figure: a size, a name from the brief's list and its median, from
/// one round of measuring (scripts/bench alternates ours and cairo's rounds).
struct Figure {
  /// `memset`, `full`, `incremental`, `full-rgb565`, and each peer's `full`,
  /// `incremental` and `full-rgb565` after its prefix: `cairo-`, `lvgl-`, `qt-`.
  let name: String
  /// `WxH`.
  let size: String
  let medianMicroseconds: Double
  /// Heap allocations per frame, counted around damage and render (ours only).
  var allocationsPerFrame: Double?
  /// Which round of scripts/bench measured it (1 for a single run).
  var round = 1
}
