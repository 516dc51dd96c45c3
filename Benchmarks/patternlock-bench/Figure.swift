/// One measured figure: a size, a name from the brief's list and its median.
struct Figure {
  /// `memset`, `full`, `incremental`, `full-rgb565`, `cairo-full`, `cairo-incremental`.
  let name: String
  /// `WxH`.
  let size: String
  let medianMicroseconds: Double
  /// Heap allocations per frame, counted around damage and render (ours only).
  var allocationsPerFrame: Double?
}
