import CommandKit
import Configuration
import Input
import KMS
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import Terminal
import Vault

/// What `run` and `enroll` make of what they were told (patternlock.conf and the command
/// line): the values built from one or more settings, checked, in the types of the
/// modules that use them. Every other value is read from `all`, the settings as given.
///
/// `run` takes min-dots from the stored pattern (set with it); `enroll` (and `run`
/// with enroll-first, when it enrols) stores it, with the Argon2 costs.
package struct RunSettings {
  /// How the lock screen looks and behaves: every lock of the run is made from it.
  package var screen: ScreenConfiguration
  package var kms: KMSOptions
  package var seat: String
  package var calibration: CalibrationMatrix?
  package var hashCost: HashCost
  /// The kiosk an unlock switches to (`kiosk-unit`); nil for none.
  package var kiosk: KioskPlan?
  /// The settings as given: the one place every value not built here is read from.
  package let all: Settings

  /// Reads the command line of `run` or `enroll` over patternlock.conf.
  package init(_ arguments: [String], enrolling: Bool) throws(UsageError) {
    try self.init(arguments, command: enrolling ? .enroll : .run)
  }

  /// Reads the command line of `command` (`run`, `enroll` or `password-agent`, which
  /// show the lock on the display) over patternlock.conf.
  package init(_ arguments: [String], command: Command) throws(UsageError) {
    let parsed = try CommandLineSettings(reading: arguments, for: command)
    try parsed.refuseOperands(command)
    let settings = parsed.settings
    all = settings
    screen = ScreenConfiguration(settings)
    kms = KMSOptions(devicePath: settings.devicePath, outputName: settings.outputName)
    kms.format = settings.frameFormat.map { $0 == .rgb565 ? FourCC.rgb565 : FourCC.xrgb8888 }
    kms.mode = settings.mode
    // For testing the fallback on atomic drivers (documented in patternlock(1)).
    kms.forceLegacy = CurrentProcess.environmentVariable("PATTERNLOCK_KMS_LEGACY") == "1"
    seat = settings.seat ?? "seat0"
    calibration = settings.calibration.flatMap { CalibrationMatrix(values: $0) }
    if let unit = settings.kioskUnit {
      // The settings table takes 2 to 63 only; this says so should that ever change.
      guard let terminal = TerminalNumber(rawValue: Int32(settings.kioskVT)) else {
        throw UsageError(settings.blame(.kioskVT, "takes a virtual terminal's number, 2 to 63"))
      }
      kiosk = KioskPlan(
        unit: unit, terminal: terminal,
        relockIdleMicroseconds: settings.relockIdleSeconds > 0 ? UInt64(settings.relockIdleSeconds) * 1_000_000 : nil)
    }
    // A pattern chosen on the command line must never open what the administrator set
    // up for the enrolled one: whoever may start `run` could otherwise unlock it.
    if settings.pattern != nil && (!settings.exec.isEmpty || kiosk != nil) {
      throw UsageError(settings.blame(
        settings.exec.isEmpty ? .kioskUnit : .exec,
        "--pattern is for development and never opens this; leave out --pattern to unlock with the enrolled pattern"))
    }
    let passes = settings.argonPasses ?? HashCost.standard.passes
    let memoryMiB = settings.argonMemoryMiB ?? (HashCost.standard.memoryBytes >> 20)
    do throws(VaultError) {
      hashCost = try HashCost(passes: passes, memoryBytes: memoryMiB << 20)
    } catch {
      // Within the table's ranges, but outside what this libsodium allows.
      throw UsageError(settings.blame(.argonPasses, error.message))
    }
  }
}
