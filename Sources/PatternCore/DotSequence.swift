/// The dots of a pattern in the order they were joined, stored inline.
///
/// A value type with fixed capacity (the largest grid's 49 dots) and no heap storage,
/// so the gesture path can copy and hand it out without allocating. Each dot appears
/// at most once; `contains` is a bit test.
public struct DotSequence: Sendable {
  /// The most dots a sequence holds: every dot of a 7x7 grid.
  public static let capacity = 49

  private var storage = InlineArray<49, UInt8>(repeating: 0)
  private var members: UInt64 = 0
  /// How many dots have been joined.
  public private(set) var count = 0

  /// An empty sequence.
  public init() {}

  /// A sequence of the given dots (1-based numbers), each once.
  public init(_ dots: [Int]) {
    for dot in dots { append(dot) }
  }

  /// The dot at a position, from 0.
  @inlinable public subscript(position: Int) -> Int {
    precondition(position >= 0 && position < count, "dot position out of range")
    return element(at: position)
  }

  @usableFromInline func element(at position: Int) -> Int { Int(storage[position]) }

  /// Whether the dot (1-based) has been joined.
  @inlinable public func contains(_ dot: Int) -> Bool {
    dot >= 1 && dot <= DotSequence.capacity && bitmask & (1 << UInt64(dot - 1)) != 0
  }

  /// The joined dots as a bit set: bit `n - 1` for dot `n`.
  public var bitmask: UInt64 { members }

  @inlinable public var isEmpty: Bool { count == 0 }

  /// The last dot joined, if any.
  @inlinable public var last: Int? { count == 0 ? nil : element(at: count - 1) }

  /// Joins a dot unless it is already in the sequence.
  ///
  /// - Returns: whether the dot was added.
  @discardableResult
  public mutating func append(_ dot: Int) -> Bool {
    precondition(dot >= 1 && dot <= DotSequence.capacity, "dot number out of range")
    let bit: UInt64 = 1 << UInt64(dot - 1)
    guard members & bit == 0 else { return false }
    members |= bit
    storage[count] = UInt8(dot)
    count += 1
    return true
  }

  /// Removes the last dot (keyboard entry's Backspace).
  public mutating func removeLast() {
    guard let dot = last else { return }
    members &= ~(1 << UInt64(dot - 1))
    count -= 1
    storage[count] = 0
  }

  /// Empties the sequence.
  /// Empties the sequence and overwrites the dots with zeros, so that a pattern that was
  /// drawn does not stay readable in this value's memory after it was judged.
  public mutating func removeAll() {
    for i in 0..<count { storage[i] = 0 }
    members = 0
    count = 0
  }

  /// The dots as a JSON array, `[1,2,3,6]`.
  public var jsonArray: String {
    var text = "["
    for i in 0..<count {
      if i > 0 { text += "," }
      text += "\(element(at: i))"
    }
    return text + "]"
  }

  /// The dots joined by dashes, `1-2-3-6`: how patterns are written on command lines.
  public var dashed: String {
    var text = ""
    for i in 0..<count {
      if i > 0 { text += "-" }
      text += "\(element(at: i))"
    }
    return text
  }
}

extension DotSequence: Equatable {
  public static func == (a: DotSequence, b: DotSequence) -> Bool {
    guard a.count == b.count, a.members == b.members else { return false }
    for i in 0..<a.count where a.element(at: i) != b.element(at: i) { return false }
    return true
  }
}
