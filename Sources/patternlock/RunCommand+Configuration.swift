import Configuration
import Input
import KMS
import PatternCore
import Scene
import Vault

extension RunCommand {
  /// Seeds `run`'s option values from patternlock.conf (and `--config`), before the
  /// command line is parsed and overrides them. Values that passed the file's form
  /// check but that KMS or Input still refuse are blamed on their file and line.
  ///
  /// `run` takes min-dots from the stored pattern (set with it); `enroll` (and `run`
  /// with enroll-first, when it enrols) stores it, with the Argon2 costs.
  static func applyConfiguration(
    _ arguments: inout Arguments, layout: inout LayoutArguments, kms: inout KMSOptions, seat: inout String,
    calibration: inout CalibrationMatrix?, rotation: inout Rotation, dpi: inout Int?, fontPath: inout String, theme: inout Theme,
    feedbackMilliseconds: inout Int, stateDirectory: inout String?, throttle: inout ThrottleTable,
    exec: inout [String], idleBlankSeconds: inout Int, minimumDots: inout Int, hashCost: inout HashCost,
    enrollFirst: inout Bool
  ) {
    let settings = ConfiguredSettings.load(&arguments)
    layout.options = settings.layout
    kms.devicePath = settings.devicePath
    kms.outputName = settings.outputName
    if let text = settings.mode {
      guard let mode = ModeRequest(parsing: text) else {
        ConfiguredSettings.fail(settings, .mode, "'\(text)' is not a display mode (use WIDTHxHEIGHT or WIDTHxHEIGHT@HZ)")
      }
      kms.mode = mode
    }
    if let name = settings.seat { seat = name }
    if let text = settings.calibration {
      do throws(InputError) {
        calibration = try CalibrationMatrix(parsing: text)
      } catch {
        ConfiguredSettings.fail(settings, .calibration, error.message)
      }
    }
    rotation = settings.layout.rotation
    dpi = settings.layout.dotsPerInch
    if let path = settings.fontPath { fontPath = path }
    theme.stealth = settings.stealth
    feedbackMilliseconds = settings.feedbackMilliseconds
    stateDirectory = settings.stateDirectory
    enrollFirst = settings.enrollFirst
    throttle = settings.throttle
    exec = settings.exec
    idleBlankSeconds = settings.idleBlankSeconds
    minimumDots = settings.minimumDots
    let passes = settings.argonPasses ?? HashCost.standard.passes
    let memoryMiB = settings.argonMemoryMiB ?? (HashCost.standard.memoryBytes >> 20)
    do throws(VaultError) {
      hashCost = try HashCost(passes: passes, memoryBytes: memoryMiB << 20)
    } catch {
      ConfiguredSettings.fail(settings, .argonPasses, error.message)
    }
  }
}
