import Input
import KMS
import PatternCore
import Raster
import Screen

/// The device's display back-end: a KMS display (atomic or legacy scan-out, chosen
/// when it is opened) and the udev monitor that says when its output comes and goes.
/// Frames are in `Pixel`'s format, the one the buffers were made in (`KMSDisplay.format`:
/// XRGB8888, or RGB565 where the driver prefers 16 bits).
struct KMSOutput<Pixel: PixelStorage>: LockDisplay, ~Copyable {
  typealias Failure = KMSError
  var kms: KMSDisplay
  let monitor: UdevMonitor

  /// - Precondition: `kms` scans out `Pixel`'s format.
  init(kms: consuming KMSDisplay, monitor: consuming UdevMonitor) {
    precondition(kms.format.rawValue == Pixel.format.fourCC, "KMSOutput's pixel type differs from the buffers' format")
    self.kms = kms
    self.monitor = monitor
  }

  var width: Int { kms.width }
  var height: Int { kms.height }
  var pollDescriptor: Int32 { kms.pollDescriptor }
  var hotplugDescriptor: Int32 { monitor.pollDescriptor }
  var isFlipPending: Bool { kms.isFlipPending }
  var isOutputOff: Bool { kms.isOutputOff }
  var canSwitchOff: Bool { true }
  var canHandOver: Bool { true }
  var panelRotation: Rotation { kms.panelOrientation.rotation }
  var widthMillimetres: Int { kms.millimetres.width }
  var summary: String {
    let scanout = kms.usesAtomic ? (kms.updatesInPlace ? "atomic, damage in place" : "atomic") : "legacy"
    return "\(kms.outputName) (\(kms.mode.text), \(Pixel.format.name)) of \(kms.path) (\(scanout))"
  }
  static func commandFailure(_ error: KMSError) -> CommandFailure { .display(error) }

  mutating func show(_ frame: [UInt8], damage: Rect) throws(KMSError) -> Bool {
    try kms.present(shadow: frame, damage: damage)
  }

  mutating func completeFlip() throws(KMSError) -> UInt64? { try kms.handleEvents() }

  mutating func handOver() { kms.handOver() }

  mutating func hotplug() throws(KMSError) -> Bool {
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

  mutating func switchOff() throws(KMSError) { try kms.switchOutputOff() }
  mutating func switchOn(showing frame: [UInt8]) throws(KMSError) { try kms.switchOutputOn(showing: frame) }
}
