/// Where libdrm's page-flip callback leaves its news.
///
/// `drmHandleEvent` calls a C function pointer with only the `user_data` given to
/// `drmModePageFlip`, so the callback cannot capture anything; it writes through that
/// pointer instead. The two words are allocated once at start-up (the flip path then
/// allocates nothing) and freed with the display.
struct FlipMailbox: ~Copyable {
  /// [0]: 1 when a flip completed since the last `take`; [1]: its time in microseconds.
  private let words: UnsafeMutablePointer<UInt64>

  init() {
    words = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)
    words.initialize(repeating: 0, count: 2)
  }

  deinit { words.deallocate() }

  /// The `user_data` for `drmModePageFlip` or the atomic flip.
  var userData: UnsafeMutableRawPointer { UnsafeMutableRawPointer(words) }

  /// The completion time of a flip that arrived since the last call, if any.
  func take() -> UInt64? {
    guard words[0] != 0 else { return nil }
    words[0] = 0
    return words[1]
  }

  /// The callback for `drmEventContext.page_flip_handler`.
  static let handler: @convention(c) (Int32, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = {
    _, _, seconds, microseconds, data in
    guard let words = data?.assumingMemoryBound(to: UInt64.self) else { return }
    words[0] = 1
    words[1] = UInt64(seconds) * 1_000_000 + UInt64(microseconds)
  }
}
