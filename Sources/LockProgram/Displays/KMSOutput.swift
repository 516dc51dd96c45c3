import CommandKit
import Input
import KMS
import PatternCore
import Raster
import Screen

/// The device's display back-end: a KMS display (atomic or legacy scan-out, chosen
/// when it is opened) and the udev monitor that says when its output comes and goes.
/// Frames are in `Pixel`'s format, the one the buffers were made in (`KMSDisplay.format`:
/// XRGB8888, or RGB565 where the driver prefers 16 bits).
package struct KMSOutput<Pixel: PixelStorage>: LockDisplay, ~Copyable {
  package typealias Failure = KMSError
  package var kms: KMSDisplay
  package let monitor: UdevMonitor

  /// - Precondition: `kms` scans out `Pixel`'s format.
  package init(kms: consuming KMSDisplay, monitor: consuming UdevMonitor) {
    precondition(kms.format.rawValue == Pixel.format.fourCC, "KMSOutput's pixel type differs from the buffers' format")
    self.kms = kms
    self.monitor = monitor
  }

  package var width: Int { kms.width }
  package var height: Int { kms.height }
  package var pollDescriptor: Int32 { kms.pollDescriptor }
  package var hotplugDescriptor: Int32 { monitor.pollDescriptor }
  package var isFlipPending: Bool { kms.isFlipPending }
  package var isOutputOff: Bool { kms.isOutputOff }
  package var canSwitchOff: Bool { true }
  package var canHandOver: Bool { true }
  package var panelRotation: Rotation { kms.panelOrientation.rotation }
  package var widthMillimetres: Int { kms.millimetres.width }
  package var summary: String {
    let scanout = kms.usesAtomic ? (kms.updatesInPlace ? "atomic, damage in place" : "atomic") : "legacy"
    return "\(kms.outputName) (\(kms.mode.text), \(Pixel.format.name)) of \(kms.path) (\(scanout))"
  }
  package static func commandFailure(_ error: KMSError) -> CommandFailure { .display(error) }

  package mutating func show(_ frame: [UInt8], damage: Rect) throws(KMSError) -> Bool {
    try kms.present(shadow: frame, damage: damage)
  }

  package mutating func completeFlip() throws(KMSError) -> UInt64? { try kms.handleEvents() }

  package mutating func handOver() { kms.handOver() }

  package mutating func hotplug() throws(KMSError) -> Bool {
    guard monitor.drain() else { return false }
    // The kiosk owns the output meanwhile; taking it back sets the CRTC anyway.
    guard !kms.isHandedOver else { return false }
    switch try kms.reprobe() {
    case .disconnected:
      Console.error("output \(kms.outputName) on \(kms.path) was disconnected; waiting for it to come back")
      return false
    case .reconnected: return true
    case .unchanged: return false
    }
  }

  package mutating func switchOff() throws(KMSError) { try kms.switchOutputOff() }
  package mutating func switchOn(showing frame: [UInt8]) throws(KMSError) { try kms.switchOutputOn(showing: frame) }
}
