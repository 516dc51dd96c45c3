import PatternCore
/// What the user chose on the command line; nil fields mean "pick for me".
public struct KMSOptions: Sendable {
  /// `--device /dev/dri/cardN`: skip discovery.
  public var devicePath: String?
  /// `--output NAME` (`HDMI-A-1`, `DSI-1`), looked for on every card; nil for
  /// `CardChoice`'s rule.
  public var outputName: String?
  /// `--mode WxH[@Hz]`: skip the preferred mode.
  public var mode: ModeRequest?
  /// `format =`: the pixel format of the scan-out buffers; nil to choose from what the
  /// primary plane offers and the driver prefers (`ScanoutFormat.choose`).
  public var format: FourCC?
  /// Where card nodes are looked for (tests point it elsewhere).
  public var directory: String
  /// Skip atomic modesetting even where the driver offers it (`PATTERNLOCK_KMS_LEGACY=1`),
  /// so the legacy SetCrtc + PageFlip path can be tested on atomic drivers.
  public var forceLegacy = false
  /// Another client (a boot splash) may hold DRM master until just before the first
  /// picture: the display is then set up without it, and master is taken by the first
  /// `present`, after `KMSDisplay.beforeFirstPicture` has asked the holder to let go.
  public var masterMayBeHeld = false

  public init(
    devicePath: String? = nil, outputName: String? = nil, mode: ModeRequest? = nil,
    format: FourCC? = nil, directory: String = "/dev/dri"
  ) {
    self.devicePath = devicePath
    self.outputName = outputName
    self.mode = mode
    self.format = format
    self.directory = directory
  }
}
