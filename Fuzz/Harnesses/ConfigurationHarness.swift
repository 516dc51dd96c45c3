import Configuration

/// One configuration file's bytes through what `ConfigurationFiles.apply` does (libinih,
/// then `Settings.set` for each key), then the cross-key checks of `Settings.validate`.
public enum ConfigurationHarness {
  /// Runs one input. An error's message is made too: every command prints it,
  /// quoting the key and value.
  ///
  /// - Parameter bytes: the file's contents (any bytes).
  public static func run(_ bytes: [UInt8]) {
    var settings = Settings()
    do throws(ConfigurationError) {
      try ConfigurationFiles.apply(contentsOf: bytes, path: "fuzz.conf", to: &settings)
      try settings.validate()
    } catch {
      _ = error.message
    }
    for key in settings.origins.keys { _ = settings.blame(key, "fuzz") }
  }
}
