/// A position in pixels, in 16.16 fixed point.
public struct Point: Hashable, Sendable {
  public var x: Fixed16
  public var y: Fixed16

  @inlinable public init(x: Fixed16, y: Fixed16) {
    self.x = x
    self.y = y
  }

  /// A point at whole pixels.
  @inlinable public init(x: Int, y: Int) {
    self.x = Fixed16(x)
    self.y = Fixed16(y)
  }

  /// The squared distance to `other`, in raw units squared (2^32 per pixel²).
  @inlinable public func squaredDistance(to other: Point) -> Int64 {
    let dx = Int64(x.raw) - Int64(other.x.raw)
    let dy = Int64(y.raw) - Int64(other.y.raw)
    return dx * dx + dy * dy
  }
}
