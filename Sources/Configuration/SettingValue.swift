import GPIO
import PatternCore
import Raster
import Scene

/// A setting's value once its grammar has read it (`ValueGrammar.parse`), before
/// `Settings` stores it in its field.
public enum SettingValue: Equatable, Sendable {
  case number(Int)
  /// A number, or nil for the word meaning "choose automatically".
  case optionalNumber(Int?)
  case rotation(Rotation)
  case size(width: Int, height: Int)
  /// A path or name, or nil for the word meaning "choose automatically".
  case optionalText(String?)
  case mode(ModeRequest?)
  case calibration([Float]?)
  case flag(Bool)
  /// A program and its arguments; empty for none.
  case words([String])
  /// Lockout waits in seconds after failure 1, 2, 3...
  case waits([Int64])
  case dots(DotSequence)
  /// A pixel format, or nil for `auto` (the display's choice).
  case pixelFormat(PixelFormat?)
  case recordedDevice(DeviceInRecording)
  case doorStrike(DoorStrikeLine?)
  case gpioInput(GPIOLineSetting?)
  case timeoutAction(TimeoutAction)
  case inputMode(InputMode)
  case gridMotion(GridMotion)
  case tpmUse(TPMUse)
  case themePreset(ThemePreset)
  case language(LanguageChoice)
  /// A colour, or nil for `theme` (the preset's).
  case colour(Color?)
}
