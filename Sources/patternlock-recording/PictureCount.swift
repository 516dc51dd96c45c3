import PNGImage
import PatternCore
import Raster
import Screen

/// A display that only counts the frames shown: `replay`'s first play, which judges
/// and counts the pictures before any file is written (the contact sheet's layout
/// needs the count, and too many pictures are refused before anything is written).
struct PictureCount<Pixel: PixelStorage>: PanelDisplay {
  typealias Failure = PNGError
  let width: Int
  let height: Int
  private(set) var shown = 0

  var pollDescriptor: Int32 { -1 }
  var isFlipPending: Bool { false }
  var isOutputOff: Bool { false }
  var canSwitchOff: Bool { false }

  mutating func show(_ frame: [UInt8], damage: Rect) throws(PNGError) -> Bool {
    shown += 1
    return true
  }

  mutating func completeFlip() throws(PNGError) -> UInt64? { nil }
  // Never called: `canSwitchOff` is false.
  mutating func switchOff() throws(PNGError) {}
  mutating func switchOn(showing frame: [UInt8]) throws(PNGError) {}
}
