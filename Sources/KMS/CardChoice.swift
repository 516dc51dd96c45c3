/// What discovery saw of one DRM card: enough to choose the display among several
/// cards (a Raspberry Pi 5 has three, numbered differently from boot to boot).
public struct CardProbe: Equatable, Sendable {
  /// The card's node, such as `/dev/dri/card1`.
  public var path: String
  /// The kernel driver (`vc4`, `drm-rp1-dsi`, `v3d`, `virtio_gpu`); empty when unknown.
  public var driver: String
  /// Its connectors in the kernel's order; none on a render-only card (v3d, vgem).
  public var outputs: [OutputProbe]
  /// Why the card could not be looked at, when it could not (nil when it could).
  public var failure: KMSError?

  public init(path: String, driver: String, outputs: [OutputProbe], failure: KMSError? = nil) {
    self.path = path
    self.driver = driver
    self.outputs = outputs
    self.failure = failure
  }
}

/// One connector as discovery saw it.
public struct OutputProbe: Equatable, Sendable {
  public var name: ConnectorName
  public var isConnected: Bool
  /// How many modes it offers.
  public var modeCount: Int

  public init(name: ConnectorName, isConnected: Bool, modeCount: Int) {
    self.name = name
    self.isConnected = isConnected
    self.modeCount = modeCount
  }

  /// A display: connected and offering a mode. A connector reported connected with no
  /// mode is not one (a Pi's firmware has reported HDMI so with only an SPI panel fitted).
  public var isDisplay: Bool { isConnected && modeCount > 0 }
  /// A panel built into the device (DSI, DPI, eDP, LVDS, SPI), rather than a socket
  /// for a monitor (HDMI, DP, DVI, VGA, composite) or a virtual output.
  public var isBuiltIn: Bool { name.isBuiltInPanel }
}

/// The display the lock takes when there are several cards and outputs: one rule,
/// each step with its reason (docs/raspberry-pi.md, "Several displays").
///
/// 1. A card that cannot be opened or has no connectors is not a display card (v3d
///    and vgem are render-only; a card whose driver has not bound yet is looked at
///    again when it does).
/// 2. A connector is a display only when it is connected and offers a mode.
/// 3. `output = NAME` is looked for on every card, in card order: names repeat across
///    cards (each card counts its own HDMI-A-1), so `device =` (a `/dev/dri/by-path/`
///    link is stable across boots) narrows the search to one card.
/// 4. Otherwise a built-in panel is preferred over a monitor's socket: the panel is
///    the device's own screen, the monitor an extra (and HDMI has been reported
///    connected with nothing there).
/// 5. Otherwise the first display in card order, then connector order.
public struct CardChoice: Equatable, Sendable {
  /// The chosen card's index in the probes.
  public var card: Int
  /// The chosen connector.
  public var output: ConnectorName
  /// One line for the journal: the choice, why, and the alternatives.
  public var summary: String

  /// Chooses among `cards` (in card order) by the rule above.
  ///
  /// - Parameters:
  ///   - name: `output =`, or nil for the rule's own choice.
  ///   - directory: where the cards were found, for the errors.
  /// - Throws: `unknownOutput` when no card has `name` connected; else, with no
  ///   display at all, the most useful error: no connected output on a card that has
  ///   connectors, else a card's own failure (a render-only card's `notModesetting`),
  ///   else `noDevice`.
  public static func choose(among cards: [CardProbe], output name: String?, directory: String) throws(KMSError) -> CardChoice {
    var displays: [(card: Int, output: OutputProbe)] = []
    for (index, card) in cards.enumerated() where card.failure == nil {
      for output in card.outputs where output.isDisplay { displays.append((index, output)) }
    }
    let chosen: (card: Int, output: OutputProbe)
    let reason: String
    if let name {
      guard let match = displays.first(where: { $0.output.name.matches(name) }) else {
        throw .unknownOutput(path: cards.count == 1 ? cards[0].path : directory, name: name, outputs: list(displays, cards))
      }
      chosen = match
      reason = "named by output"
    } else if let panel = displays.first(where: { $0.output.isBuiltIn }) {
      chosen = panel
      reason = displays.count == 1 ? "the only display" : "a built-in panel, preferred over other outputs"
    } else if let first = displays.first {
      chosen = first
      reason = displays.count == 1 ? "the only display" : "the first display in card order"
    } else {
      throw noDisplay(cards, directory: directory)
    }
    return CardChoice(card: chosen.card, output: chosen.output.name, summary: summary(chosen, reason: reason, displays, cards))
  }

  private static func noDisplay(_ cards: [CardProbe], directory: String) -> KMSError {
    if let withOutputs = cards.first(where: { $0.failure == nil && !$0.outputs.isEmpty }) {
      var outputs: [String] = []
      for card in cards where card.failure == nil {
        for output in card.outputs { outputs.append(describe(output, on: card, among: cards)) }
      }
      return .noConnectedOutput(path: cards.count == 1 ? withOutputs.path : directory, outputs: outputs.joined(separator: ", "))
    }
    // Only render-only cards or cards that failed: a failure that says more (permission,
    // a DRM master held) beats a render-only card's.
    if let telling = cards.first(where: { card in
      if case .notModesetting = card.failure { return false }
      return card.failure != nil
    }) {
      return telling.failure!
    }
    if let first = cards.first { return first.failure ?? .notModesetting(path: first.path) }
    return .noDevice(directory: directory)
  }

  /// `DSI-1 on card1 (vc4)`, the card named only as much as needed.
  private static func describe(_ output: OutputProbe, on card: CardProbe, among cards: [CardProbe]) -> String {
    var text = output.name.text
    if cards.count > 1 { text += " on " + card.path }
    if output.isConnected && output.modeCount == 0 { text += " (connected, no modes)" }
    else if !output.isConnected { text += " (disconnected)" }
    return text
  }

  private static func list(_ displays: [(card: Int, output: OutputProbe)], _ cards: [CardProbe]) -> String {
    displays.map { display in
      cards.count > 1 ? display.output.name.text + " on " + cards[display.card].path : display.output.name.text
    }.joined(separator: ", ")
  }

  private static func summary(
    _ chosen: (card: Int, output: OutputProbe), reason: String, _ displays: [(card: Int, output: OutputProbe)],
    _ cards: [CardProbe]
  ) -> String {
    let card = cards[chosen.card]
    var line = "display: \(chosen.output.name.text) on \(card.path)"
    if !card.driver.isEmpty { line += " (\(card.driver))" }
    line += ": \(reason)"
    let others = displays.filter { $0.card != chosen.card || $0.output.name != chosen.output.name }
    if !others.isEmpty { line += "; also connected: " + list(others, cards) }
    var phantoms: [String] = []
    for card in cards where card.failure == nil {
      for output in card.outputs where output.isConnected && output.modeCount == 0 {
        phantoms.append(describe(output, on: card, among: cards))
      }
    }
    if !phantoms.isEmpty { line += "; not displays: " + phantoms.joined(separator: ", ") }
    var skipped: [String] = []
    for card in cards {
      if case .notModesetting = card.failure {
        skipped.append(card.driver.isEmpty ? card.path : "\(card.path) (\(card.driver))")
      } else if card.failure == nil && card.outputs.isEmpty {
        skipped.append(card.driver.isEmpty ? card.path : "\(card.path) (\(card.driver))")
      }
    }
    if !skipped.isEmpty { line += "; render-only: " + skipped.joined(separator: ", ") }
    var failed: [String] = []
    for card in cards {
      guard let failure = card.failure else { continue }
      if case .notModesetting = failure { continue }
      failed.append(card.path)
    }
    if !failed.isEmpty { line += "; could not be read: " + failed.joined(separator: ", ") }
    return line
  }
}

extension ConnectorName {
  /// The connector types of panels built into a device: LVDS, eDP, DSI, DPI, SPI.
  static let builtInPanelTypes: Set<UInt32> = [7, 14, 16, 17, 19]

  /// Whether this is a built-in panel's connector rather than a socket for a monitor.
  public var isBuiltInPanel: Bool { ConnectorName.builtInPanelTypes.contains(type) }
}
