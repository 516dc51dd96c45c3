import Configuration
import PatternCore
import Scene
import Screen
import XCTest

@testable import LockProgram

/// The one screen configuration every lock screen is made from: every setting the
/// table marks as a screen setting reaches it, and its defaults are the settings'.
final class ScreenConfigurationTests: XCTestCase {
  /// A value other than the default for each screen setting.
  private static let samples: [Setting: String] = [
    .grid: "4", .hitRadius: "700", .dpi: "200", .rotate: "90", .size: "1024x600", .font: "/usr/share/fonts/a.ttf",
    .language: "de", .input: "tap", .stealth: "yes", .showWrong: "yes", .fadeTrail: "yes", .feedbackMilliseconds: "900",
    .idleBlankSeconds: "30", .dimAfterSeconds: "20", .message: "Call 555", .timeoutSeconds: "60", .timeoutAction: "reboot", .powerButton: "yes",
    .theme: "light", .colourBackgroundTop: "#123456", .colourBackgroundBottom: "#123456", .colourRing: "#123456",
    .colourDot: "#123456", .colourLine: "#123456", .colourWrong: "#123456", .colourSuccess: "#123456",
    .colourText: "#123456", .colourMessage: "#123456", .lineOpacity: "30", .gridMotion: "turn",
  ]

  /// The defaults, in English whatever the test's locale.
  private func defaults() throws -> Settings {
    var settings = Settings()
    try settings.set(.language, to: "en", from: .commandLine)
    return settings
  }

  func testEveryScreenSettingReachesTheScreenConfiguration() throws {
    let plain = ScreenConfiguration(try defaults())
    let marked = Setting.allCases.filter { $0.row.isScreenSetting }
    XCTAssertGreaterThan(marked.count, 10)
    for setting in marked {
      let sample = try XCTUnwrap(Self.samples[setting], "\(setting.name) is a screen setting: give it a sample here")
      var settings = try defaults()
      try settings.set(setting, to: sample, from: .commandLine)
      XCTAssertNotEqual(ScreenConfiguration(settings), plain, "\(setting.name) = \(sample) does not reach the screen")
    }
  }

  func testTheDefaultsAreTheSettingsDefaults() throws {
    XCTAssertEqual(ScreenConfiguration(try defaults()), ScreenConfiguration())
  }
}
