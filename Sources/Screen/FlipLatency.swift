/// How long the last frames took from finger to screen: from the kernel's time of the
/// input event a frame answers (libinput's event time) to the time the display says the
/// flip showing it completed (the DRM event's). The last `capacity` figures are held in
/// a fixed ring, and said as the median and the 99th percentile in one line, written
/// into a buffer made once: recording a figure and writing the line allocate nothing.
public struct FlipLatency {
  /// How many of the latest flips the figures are taken over.
  public static let capacity = 256
  private var ring: [UInt32]
  private var ordered: [UInt32]
  private var text: [UInt8]
  private var next = 0
  /// How many figures are held (at most `capacity`).
  public private(set) var count = 0

  public init() {
    // Two buffers of their own: were they one shared buffer, the first figure recorded
    // would copy it, an allocation in the first flip's path.
    ring = [UInt32](repeating: 0, count: FlipLatency.capacity)
    ordered = [UInt32](repeating: 0, count: FlipLatency.capacity)
    text = []
    text.reserveCapacity(160)
  }

  /// Adds one flip's figure, in microseconds (the oldest goes once the ring is full).
  public mutating func record(microseconds: UInt64) {
    ring[next] = UInt32(clamping: microseconds)
    next = (next + 1) % FlipLatency.capacity
    count = min(count + 1, FlipLatency.capacity)
  }

  /// The median and the 99th percentile of the figures held (nearest rank), in
  /// microseconds; nil before the first.
  public mutating func percentiles() -> (median: UInt32, p99: UInt32)? {
    guard count > 0 else { return nil }
    // Insertion sort in place: at most 256 figures, once an attempt, no buffer made.
    for i in 0..<count {
      let value = ring[i]
      var j = i
      while j > 0 && ordered[j - 1] > value {
        ordered[j] = ordered[j - 1]
        j -= 1
      }
      ordered[j] = value
    }
    return (ordered[FlipLatency.rank(50, of: count)], ordered[FlipLatency.rank(99, of: count)])
  }

  /// The index of the nearest-rank `percent` percentile among `count` sorted figures.
  static func rank(_ percent: Int, of count: Int) -> Int {
    max(0, (percent * count + 99) / 100 - 1)
  }

  /// `patternlock: input to flip: median 12.3 ms, p99 20.1 ms over the last 87 flips`
  /// and a newline, handed to `body` as bytes; nil before the first figure.
  public mutating func withLine<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
    guard let (median, p99) = percentiles() else { return nil }
    text.removeAll(keepingCapacity: true)
    append("patternlock: input to flip: median ")
    appendMilliseconds(median)
    append(" ms, p99 ")
    appendMilliseconds(p99)
    append(" ms over the last ")
    appendNumber(UInt64(count))
    append(count == 1 ? " flip\n" : " flips\n")
    return text.withUnsafeBytes(body)
  }

  private mutating func append(_ words: StaticString) {
    words.withUTF8Buffer { bytes in
      for byte in bytes { text.append(byte) }
    }
  }

  /// Microseconds as milliseconds with one decimal, rounded half up: `12.3`.
  private mutating func appendMilliseconds(_ microseconds: UInt32) {
    let tenths = (UInt64(microseconds) + 50) / 100
    appendNumber(tenths / 10)
    text.append(UInt8(ascii: "."))
    text.append(UInt8(ascii: "0") + UInt8(tenths % 10))
  }

  private mutating func appendNumber(_ value: UInt64) {
    var divisor: UInt64 = 1
    while value / divisor >= 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
