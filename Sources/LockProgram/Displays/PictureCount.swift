import PNGImage
import PatternCore
import Raster
import Screen

/// A display that only counts the frames shown: `replay`'s first play, which judges
/// and counts the pictures before any file is written (the contact sheet's layout
/// needs the count, and too many pictures are refused before anything is written).
package struct PictureCount<Pixel: PixelStorage>: Display {
  package typealias Failure = PNGError
  package let width: Int
  package let height: Int
  private(set) var shown = 0

  package var pollDescriptor: Int32 { -1 }
  package var hotplugDescriptor: Int32 { -1 }
  package var isFlipPending: Bool { false }
  package var isOutputOff: Bool { false }
  package var canSwitchOff: Bool { false }

  package mutating func show(_ frame: [UInt8], damage: Rect) throws(PNGError) -> Bool {
    shown += 1
    return true
  }

  package mutating func completeFlip() throws(PNGError) -> UInt64? { nil }
  package mutating func hotplug() throws(PNGError) -> Bool { false }
  // Never called: `canSwitchOff` is false.
  package mutating func switchOff() throws(PNGError) {}
  package mutating func switchOn(showing frame: [UInt8]) throws(PNGError) {}
}
