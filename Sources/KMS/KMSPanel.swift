import PatternCore
import Raster
import Screen

/// The KMS display as the lock screen's panel: a `KMSDisplay` (atomic or legacy
/// scan-out, chosen when it is opened) and the watch that says when its output comes
/// and goes (udev's events, handed in by the program). Frames are in `Pixel`'s
/// format, the one the buffers were made in (`KMSDisplay.format`: XRGB8888, or RGB565
/// where the driver prefers 16 bits).
public struct KMSPanel<Pixel: PixelStorage, Watch: OutputWatch & ~Copyable>: PanelDisplay, ~Copyable {
  public typealias Failure = KMSError
  public var kms: KMSDisplay
  public let watch: Watch

  /// - Precondition: `kms` scans out `Pixel`'s format.
  public init(kms: consuming KMSDisplay, watch: consuming Watch) {
    precondition(kms.format.rawValue == Pixel.format.fourCC, "KMSPanel's pixel type differs from the buffers' format")
    self.kms = kms
    self.watch = watch
  }

  public var width: Int { kms.width }
  public var height: Int { kms.height }
  public var pollDescriptor: Int32 { kms.pollDescriptor }
  public var hotplugDescriptor: Int32 { watch.pollDescriptor }
  public var isFlipPending: Bool { kms.isFlipPending }
  public var isOutputOff: Bool { kms.isOutputOff }
  public var canSwitchOff: Bool { true }
  public var canHandOver: Bool { true }
  public var panelRotation: Rotation { kms.panelOrientation.rotation }
  public var widthMillimetres: Int { kms.millimetres.width }
  public var summary: String {
    let scanout = kms.usesAtomic ? (kms.updatesInPlace ? "atomic, damage in place" : "atomic") : "legacy"
    return "\(kms.outputName) (\(kms.mode.text), \(Pixel.format.name)) of \(kms.path) (\(scanout))"
  }

  public mutating func show(_ frame: [UInt8], damage: Rect) throws(KMSError) -> Bool {
    try kms.present(shadow: frame, damage: damage)
  }

  public mutating func completeFlip() throws(KMSError) -> UInt64? { try kms.handleEvents() }

  public mutating func handOver() { kms.handOver() }

  public mutating func hotplug() throws(KMSError) -> OutputChange {
    guard watch.drain() else { return .unchanged }
    // The kiosk owns the output meanwhile; taking it back sets the CRTC anyway.
    guard !kms.isHandedOver else { return .unchanged }
    switch try kms.reprobe() {
    case .disconnected:
      return .lost(reason: "output \(kms.outputName) on \(kms.path) was disconnected; waiting for it to come back")
    case .reconnected: return .redrawAll
    case .unchanged: return .unchanged
    }
  }

  public mutating func switchOff() throws(KMSError) { try kms.switchOutputOff() }
  public mutating func switchOn(showing frame: [UInt8]) throws(KMSError) { try kms.switchOutputOn(showing: frame) }
}
