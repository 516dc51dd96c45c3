import CShim
import Configuration

/// The configuration layers plus `--config FILE`, for the commands that read
/// patternlock.conf (`run`, `replay`, `set-pattern`, `check`, `reset-attempts`).
///
/// `--config` is taken out of the arguments before the command parses them, so it may
/// stand anywhere among the options; the command's own options are applied after the
/// files and so override them (the option for key `K` is `--K`, see SettingKey).
enum ConfiguredSettings {
  /// `--config FILE` in the help text.
  static let help = "  --config FILE     read FILE after /usr/share/patternlock/patternlock.conf, /etc/patternlock.conf and /etc/patternlock.conf.d/*.conf"

  /// Loads the layers and the `--config` file, or ends the process with status 2.
  static func load(_ arguments: inout Arguments) -> Settings {
    let extra = arguments.extract(option: "--config")
    do throws(ConfigurationError) {
      let settings = try ConfigurationFiles.load(root: ConfigurationFiles.rootFromEnvironment(), extra: extra)
      try settings.validate()
      return settings
    } catch {
      Console.fail(error.message)
    }
  }

  /// Ends the process with status 2 for a value a module refused after the form check,
  /// naming where it was set.
  static func fail(_ settings: Settings, _ key: SettingKey, _ problem: String) -> Never {
    Console.fail(settings.blame(key, problem))
  }
}
