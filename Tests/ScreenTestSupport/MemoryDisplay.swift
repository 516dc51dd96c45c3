import PatternCore
import Raster
import Screen

/// The in-memory display back-end: what a screen would hold, copied damage-only like
/// KMS copies into its buffers, with every present completing at once.
///
/// It cannot switch off unless made with `canSwitchOff` (the seam the idle-blanking
/// tests use in place of a DRM driver); when it cannot, switching off is refused as a
/// driver without DPMS refuses it, and the lock blanks with black frames.
public struct MemoryDisplay<Pixel: PixelStorage>: PanelDisplay {
  public struct Refused: DescribedError {
    public var message: String { "the memory display has no power to switch off" }
  }
  public typealias Failure = Refused

  public let width: Int
  public let height: Int
  /// What the screen's memory holds (shown unless `isOutputOff`).
  public private(set) var frame: [UInt8]
  /// How many frames were presented.
  public private(set) var presented = 0
  /// How many times the output was switched off and on again.
  public private(set) var switchedOff = 0, switchedOn = 0
  /// How many times switching off was refused.
  public private(set) var refusedSwitchOffs = 0
  public private(set) var isOutputOff = false
  private let powered: Bool
  public var isFlipPending: Bool { false }
  public var pollDescriptor: Int32 { -1 }
  public var canSwitchOff: Bool { true }

  /// - Parameter canSwitchOff: whether `switchOff` works, as on a driver with DPMS;
  ///   false refuses it, as a driver without.
  public init(width: Int, height: Int, canSwitchOff: Bool = false) {
    self.width = width
    self.height = height
    powered = canSwitchOff
    frame = [UInt8](repeating: 0, count: width * height * Pixel.bytesPerPixel)
  }

  public mutating func switchOff() throws(Refused) {
    precondition(!isOutputOff, "switchOff while the output is already off")
    guard powered else {
      refusedSwitchOffs += 1
      throw Refused()
    }
    isOutputOff = true
    switchedOff += 1
  }

  public mutating func switchOn(showing frame: [UInt8]) throws(Refused) {
    precondition(isOutputOff, "switchOn while the output is on")
    // The whole frame, and no present counted: KMS queues no flip either.
    copy(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
    isOutputOff = false
    switchedOn += 1
  }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(Refused) -> Bool {
    precondition(!isOutputOff, "show while the output is switched off")
    copy(frame, damage: damage)
    presented += 1
    return true
  }

  /// The same damage copy KMS and fbdev make into their buffers.
  private mutating func copy(_ source: [UInt8], damage: Rect) {
    let (width, height, stride) = (width, height, width * Pixel.bytesPerPixel)
    source.withUnsafeBytes { from in
      frame.withUnsafeMutableBytes { to in
        DamageCopy.copy(
          from: from, sourceStride: stride, to: to, destinationStride: stride, width: width, height: height,
          bytesPerPixel: Pixel.bytesPerPixel, damage: damage)
      }
    }
  }

  public mutating func completeFlip() throws(Refused) -> UInt64? { nil }
}
