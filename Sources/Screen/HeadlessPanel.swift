import PatternCore
import Raster
import Scene

/// A panel in memory, for `run --headless`: the lock's start measured without a
/// display. Its frames are composed as on a device and their damage copied into memory
/// standing for the mapped buffer; after the first, `afterFirstFrame` runs once (the
/// lock asks itself to stop there), so everything from exec to the first frame runs as
/// it does on a device and nothing after it needs to.
public struct HeadlessPanel<Pixel: PixelStorage>: PanelDisplay {
  // Not nested: a failure type nested in the generic panel crashes the Embedded Swift
  // optimiser (function signature specialisation).
  public typealias Failure = HeadlessSwitchOffRefused

  public let width: Int
  public let height: Int
  private var memory: [UInt8]
  private var afterFirstFrame: (() -> Void)?
  public var isFlipPending: Bool { false }
  public var pollDescriptor: Int32 { -1 }
  public var isOutputOff: Bool { false }
  public var canSwitchOff: Bool { false }
  public var summary: String { "memory (headless, \(width)x\(height), \(Pixel.format.name)): the lock stops after its first frame" }

  public init(width: Int, height: Int, afterFirstFrame: @escaping () -> Void) {
    self.width = width
    self.height = height
    self.afterFirstFrame = afterFirstFrame
    memory = [UInt8](repeating: 0, count: width * height * Pixel.bytesPerPixel)
  }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
    copy(frame, damage: damage)
    if let after = afterFirstFrame {
      afterFirstFrame = nil
      after()
    }
    return true
  }

  private mutating func copy(_ frame: [UInt8], damage: Rect) {
    let (width, height, stride) = (width, height, width * Pixel.bytesPerPixel)
    frame.withUnsafeBytes { from in
      memory.withUnsafeMutableBytes { to in
        DamageCopy.copy(
          from: from, sourceStride: stride, to: to, destinationStride: stride, width: width, height: height,
          bytesPerPixel: Pixel.bytesPerPixel, damage: damage)
      }
    }
  }

  public mutating func switchOff() throws(Failure) { throw HeadlessSwitchOffRefused() }
  public mutating func switchOn(showing frame: [UInt8]) throws(Failure) {
    copy(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
  }
  public mutating func completeFlip() throws(Failure) -> UInt64? { nil }
}

/// The headless panel is never switched off (`canSwitchOff` is false).
public struct HeadlessSwitchOffRefused: DescribedError {
  public var message: String { "the headless display has no power to switch off" }
}
