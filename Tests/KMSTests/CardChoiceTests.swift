import CommandTestSupport
import Foundation
import KMS
import XCTest

/// The rule that chooses the lock's display among several cards, over the probes in
/// Tests/CardProbes: a Raspberry Pi 5's three cards in two boot orders, a Pi 4's DSI
/// panel beside HDMI, an SPI panel with a phantom HDMI, and the cases with no display.
final class CardChoiceTests: XCTestCase {
  /// The cards a probe file describes.
  static func probes(_ name: String) throws -> [CardProbe] {
    let text = try String(contentsOfFile: PackageRoot.path("Tests/CardProbes/\(name).txt"), encoding: .utf8)
    var cards: [CardProbe] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let words = line.split(separator: " ").map(String.init)
      if words.first == "card" {
        var card = CardProbe(path: words[1], driver: words[2], outputs: [])
        if words.count > 3 {
          switch words[3] {
          case "render-only": card.failure = .notModesetting(path: words[1])
          case "failed": card.failure = .permissionDenied(path: words[1])
          default: XCTFail("unknown card state \(words[3]) in \(name)")
          }
        }
        cards.append(card)
      } else if words.first == "output" {
        cards[cards.count - 1].outputs.append(
          OutputProbe(name: try connector(words[1]), isConnected: words[2] == "connected", modeCount: Int(words[3]) ?? -1))
      }
    }
    return cards
  }

  /// `HDMI-A-1` as the kernel's type and index.
  static func connector(_ text: String) throws -> ConnectorName {
    for type in 0..<32 {
      for index in 1...4 {
        let name = ConnectorName(type: UInt32(type), typeIndex: UInt32(index))
        if name.text == text { return name }
      }
    }
    throw NSError(domain: "CardChoiceTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no connector type for \(text)"])
  }

  private func choose(_ name: String, output: String? = nil) throws -> (CardChoice, [CardProbe]) {
    let cards = try Self.probes(name)
    return (try CardChoice.choose(among: cards, output: output, directory: "/dev/dri"), cards)
  }

  private func failure(_ name: String, output: String? = nil) throws -> KMSError? {
    let cards = try Self.probes(name)
    do throws(KMSError) {
      _ = try CardChoice.choose(among: cards, output: output, directory: "/dev/dri")
      return nil
    } catch {
      return error
    }
  }

  func testAPi5PrefersItsTouchDisplayWhateverTheCardOrder() throws {
    for probe in ["pi5-touch-display-2-and-hdmi", "pi5-another-boot"] {
      let (choice, cards) = try choose(probe)
      XCTAssertEqual(choice.output.text, "DSI-2", probe)
      XCTAssertEqual(cards[choice.card].driver, "drm-rp1-dsi", probe)
      XCTAssertTrue(choice.summary.contains("built-in panel"), choice.summary)
      XCTAssertTrue(choice.summary.contains("also connected: HDMI-A-1 on "), choice.summary)
      XCTAssertTrue(choice.summary.contains("render-only: /dev/dri/card"), choice.summary)
      XCTAssertFalse(choice.summary.contains("\n"), "one line for the journal")
    }
  }

  func testAPanelOnTheSameCardAsHDMIIsPreferred() throws {
    let (choice, cards) = try choose("pi4-dsi-and-hdmi")
    XCTAssertEqual(choice.output.text, "DSI-1")
    XCTAssertEqual(cards[choice.card].path, "/dev/dri/card1")
  }

  func testAConnectedOutputWithoutModesIsNoDisplay() throws {
    let (choice, cards) = try choose("spi-panel-phantom-hdmi")
    XCTAssertEqual(choice.output.text, "SPI-1")
    XCTAssertEqual(cards[choice.card].path, "/dev/dri/card1")
    XCTAssertTrue(choice.summary.contains("not displays: HDMI-A-1 on /dev/dri/card0 (connected, no modes)"), choice.summary)
    XCTAssertTrue(choice.summary.contains("the only display"), choice.summary)
  }

  func testAMonitorAloneIsTaken() throws {
    let (choice, cards) = try choose("hdmi-only")
    XCTAssertEqual(choice.output.text, "HDMI-A-1")
    XCTAssertEqual(cards[choice.card].path, "/dev/dri/card1", "the render-only card0 is skipped")
  }

  func testTheFirstOfSeveralMonitorsInCardOrder() throws {
    let (choice, cards) = try choose("emulated-two-cards")
    XCTAssertEqual(cards[choice.card].path, "/dev/dri/card0")
    XCTAssertTrue(choice.summary.contains("the first display in card order"), choice.summary)
  }

  func testANamedOutputIsLookedForOnEveryCard() throws {
    let (monitor, cards) = try choose("pi5-touch-display-2-and-hdmi", output: "hdmi-a-1")
    XCTAssertEqual(monitor.output.text, "HDMI-A-1")
    XCTAssertEqual(cards[monitor.card].driver, "vc4")
    XCTAssertTrue(monitor.summary.contains("named by output"), monitor.summary)
    let (panel, _) = try choose("pi5-another-boot", output: "DSI-2")
    XCTAssertEqual(panel.card, 0)
  }

  func testANamedOutputThatIsNotConnectedListsTheDisplaysOfEveryCard() throws {
    XCTAssertEqual(
      try failure("pi5-touch-display-2-and-hdmi", output: "HDMI-A-2"),
      .unknownOutput(path: "/dev/dri", name: "HDMI-A-2", outputs: "HDMI-A-1 on /dev/dri/card1, DSI-2 on /dev/dri/card2"))
  }

  func testWithoutADisplayTheErrorSaysWhyAndWaitingMayMendIt() throws {
    XCTAssertEqual(try failure("before-the-display-binds"), .notModesetting(path: "/dev/dri/card0"))
    let none = try XCTUnwrap(try failure("nothing-connected"))
    XCTAssertEqual(
      none,
      .noConnectedOutput(path: "/dev/dri", outputs: "HDMI-A-1 on /dev/dri/card0 (disconnected), HDMI-A-2 on /dev/dri/card0 (disconnected)"))
    XCTAssertEqual(try failure("empty"), .noDevice(directory: "/dev/dri"))
  }

  func testACardThatCannotBeOpenedSaysSoWhenNoOtherHasADisplay() throws {
    let cards = [
      CardProbe(path: "/dev/dri/card0", driver: "v3d", outputs: [], failure: .notModesetting(path: "/dev/dri/card0")),
      CardProbe(path: "/dev/dri/card1", driver: "", outputs: [], failure: .permissionDenied(path: "/dev/dri/card1")),
    ]
    XCTAssertThrowsError(try CardChoice.choose(among: cards, output: nil, directory: "/dev/dri")) { error in
      XCTAssertEqual(error as? KMSError, .permissionDenied(path: "/dev/dri/card1"))
    }
  }

  func testBuiltInPanelsAreTheKernelsPanelConnectorTypes() throws {
    for text in ["DSI-1", "DSI-2", "DPI-1", "eDP-1", "LVDS-1", "SPI-1"] {
      XCTAssertTrue(try Self.connector(text).isBuiltInPanel, text)
    }
    for text in ["HDMI-A-1", "DP-1", "DVI-D-1", "VGA-1", "Composite-1", "Virtual-1", "USB-1"] {
      XCTAssertFalse(try Self.connector(text).isBuiltInPanel, text)
    }
  }
}
