import PatternCore
import Raster
import Screen
import SystemCalls

/// `run --headless WxH`: the lock's start measured without a display. Its first frame
/// is composed as on a panel and its damage copied into memory standing for the mapped
/// buffer, then the lock is asked to stop (SIGTERM to itself), so everything from exec
/// to the first frame runs as it does on a device (settings, judge, layout, input,
/// fonts, the first picture) and nothing after it does. Never an unlock: the lock ends
/// as it does when stopped.
struct HeadlessFirstFrame<Pixel: PixelStorage>: PanelDisplay {
  // Not nested: a failure type nested in the generic display crashes the Embedded
  // Swift optimiser (function signature specialisation).
  typealias Failure = HeadlessSwitchOffRefused

  let width: Int
  let height: Int
  private var memory: [UInt8]
  private var shown = false
  var isFlipPending: Bool { false }
  var pollDescriptor: Int32 { -1 }
  var isOutputOff: Bool { false }
  var canSwitchOff: Bool { false }
  var summary: String { "memory (headless, \(width)x\(height), \(Pixel.format.name)): the lock stops after its first frame" }

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    memory = [UInt8](repeating: 0, count: width * height * Pixel.bytesPerPixel)
  }

  mutating func show(_ frame: [UInt8], damage: Rect) throws(Failure) -> Bool {
    copy(frame, damage: damage)
    if !shown { CurrentProcess.askToStop() }
    shown = true
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

  mutating func switchOff() throws(Failure) { throw HeadlessSwitchOffRefused() }
  mutating func switchOn(showing frame: [UInt8]) throws(Failure) {
    copy(frame, damage: Rect(x: 0, y: 0, width: width, height: height))
  }
  mutating func completeFlip() throws(Failure) -> UInt64? { nil }
}

/// The headless display is never switched off (`canSwitchOff` is false).
struct HeadlessSwitchOffRefused: DescribedError {
  var message: String { "the headless display has no power to switch off" }
}
