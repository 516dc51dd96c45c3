import CShim
import SystemCalls

/// The configuration layers, read in order into one `Settings`, like unl0kr's:
///
/// 1. `ROOT/usr/share/patternlock/patternlock.conf`: the package's defaults;
/// 2. `ROOT/etc/patternlock.conf`: the administrator's file (a dpkg conffile);
/// 3. `ROOT/etc/patternlock.conf.d/*.conf`, in byte order of their names (other
///    names and hidden files are ignored, so an editor's `x.conf~` never counts);
/// 4. the file given with `--config`;
///
/// then the command line (the executable's part). A later layer overrides a key an
/// earlier one set; a missing file in layers 1 to 3 is skipped, a missing `--config`
/// file is an error. `ROOT` is `/`; debug builds (which tests use) take another from
/// `PATTERNLOCK_CONFIG_ROOT`, release builds never.
///
/// Every problem is an error, never a warning: a lock screen must not start with a
/// setting silently dropped (a stealth mode the administrator asked for, a throttle).
///
/// The trust rule (docs/security.md): layers 1 to 3 are the trusted system
/// configuration when they and every directory above them are root's and writable by
/// nobody else (`SystemLayers` checks them on the descriptors it reads). The throttle
/// (`systemOnly` keys) comes only from there; so, when running as root, do the
/// privileged keys (hooks, the hook user, exec, the kiosk, the door strike, the
/// unattended timeout and the power button), for every command but replay and layout.
/// Anywhere else such a key is an error naming the file and line, or the option.
public enum ConfigurationFiles {
  /// The environment variable that moves the layers' root (debug builds only).
  public static let rootVariable = "PATTERNLOCK_CONFIG_ROOT"
  /// A configuration larger than this is surely the wrong file.
  public static let maximumBytes: Int64 = 1 << 20
  /// The most `*.conf` files `conf.d` may hold. Every command reads them all, so a
  /// directory grown by a script gone wrong would slow every judgement; a few dozen is
  /// already a lot for one device.
  public static let maximumDropIns = 256
  /// What a `--config` file is, in the message refusing a key from it.
  static let configFileDistrust = "this is a --config file"

  /// The files of layers 1 to 3 that exist under `root`, in reading order.
  ///
  /// - Throws: `ConfigurationError` for a layer that exists but cannot be read.
  public static func layerPaths(root: String) throws(ConfigurationError) -> [String] {
    var paths: [String] = []
    try SystemLayers.read(root: root, trust: .throttleOnly(root: root)) { (source) throws(ConfigurationError) in paths.append(source.path) }
    return paths
  }

  /// Reads every layer and `extra` (the `--config` file) into settings.
  ///
  /// - Parameters:
  ///   - root: the root of layers 1 to 3, normally `/`.
  ///   - extra: the `--config` file, or nil.
  ///   - trust: the rule for this reading; by default only the throttle is guarded.
  /// - Throws: the first `ConfigurationError` of any file, in reading order.
  public static func load(root: String, extra: String?, trust: ConfigurationTrust? = nil) throws(ConfigurationError) -> Settings {
    let trust = trust ?? .throttleOnly(root: root)
    var settings = Settings()
    // Each file is applied as it is read and then let go, so memory holds one file's
    // bytes at a time however many drop-ins there are.
    try SystemLayers.read(root: root, trust: trust) { (source) throws(ConfigurationError) in
      try apply(
        contentsOf: source.bytes, path: source.path, to: &settings, distrust: source.distrust,
        guardingPrivilegedKeys: trust.guardsPrivilegedKeys)
    }
    if let extra {
      try apply(
        contentsOf: try contents(ofUntrusted: extra, missingIsError: true), path: extra, to: &settings,
        distrust: configFileDistrust, guardingPrivilegedKeys: trust.guardsPrivilegedKeys)
    }
    return settings
  }

  /// Whether this is a debug build, which reads `PATTERNLOCK_CONFIG_ROOT` and trusts a
  /// test root owned by the effective user.
  public static var isDebugBuild: Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
  }

  /// The root for layers 1 to 3: `/`, or in a debug build `PATTERNLOCK_CONFIG_ROOT`
  /// when set.
  public static func rootFromEnvironment() -> String {
    #if DEBUG
    return root(testRoot: CurrentProcess.environmentVariable(rootVariable), isDebugBuild: true)
    #else
    return "/"
    #endif
  }

  /// The root for layers 1 to 3 given `PATTERNLOCK_CONFIG_ROOT`'s value: `/` in a
  /// release build whatever it says, so an administrator's stricter table is always read.
  public static func root(testRoot: String?, isDebugBuild: Bool) -> String {
    guard isDebugBuild, let testRoot, !testRoot.isEmpty else { return "/" }
    return testRoot
  }

  /// Reads one file and sets each of its keys, checking sections, keys and values.
  ///
  /// - Parameters:
  ///   - distrust: nil when the file may set every key (trusted system configuration);
  ///     otherwise why it may not, for the error.
  ///   - guardingPrivilegedKeys: whether a privileged key is refused from a distrusted
  ///     file (running as root).
  /// - Throws: `ConfigurationError` naming the file and line.
  public static func apply(
    _ path: String, to settings: inout Settings, distrust: String? = "it is not a system configuration file",
    guardingPrivilegedKeys: Bool = false
  ) throws(ConfigurationError) {
    try apply(
      contentsOf: try contents(ofUntrusted: path, missingIsError: false), path: path, to: &settings, distrust: distrust,
      guardingPrivilegedKeys: guardingPrivilegedKeys)
  }

  /// Sets each key of a file's contents already in memory, with the checks of
  /// `apply(_:to:distrust:guardingPrivilegedKeys:)` (the fuzz harness feeds it bytes
  /// without a file).
  ///
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - path: the file's name, for messages.
  ///   - settings: the settings to change.
  ///   - distrust: as for `apply(_:to:distrust:guardingPrivilegedKeys:)`.
  ///   - guardingPrivilegedKeys: as there.
  /// - Throws: `ConfigurationError` naming `path` and the line.
  public static func apply(
    contentsOf bytes: [UInt8], path: String, to settings: inout Settings,
    distrust: String? = "it is not a system configuration file", guardingPrivilegedKeys: Bool = false
  ) throws(ConfigurationError) {
    let entries = try INIFile.entries(of: bytes, path: path)
    var firstLine: [Setting: Int] = [:]
    for entry in entries {
      guard !entry.section.isEmpty else { throw .keyOutsideSection(path: path, line: entry.line, key: entry.key) }
      guard let key = Setting(name: entry.key) else {
        throw .unknownKey(path: path, line: entry.line, section: entry.section, key: entry.key)
      }
      guard key.section == entry.section else { throw .wrongSection(path: path, line: entry.line, section: entry.section, key: key) }
      if let first = firstLine[key] { throw .duplicateKey(path: path, line: entry.line, key: key, firstLine: first) }
      if let why = distrust {
        switch key.trust {
        case .systemOnly: throw .systemOnlyKey(path: path, line: entry.line, key: key, why: why)
        case .privileged where guardingPrivilegedKeys: throw .privilegedKey(path: path, line: entry.line, key: key, why: why)
        case .privileged, .anySource: break
        }
      }
      firstLine[key] = entry.line
      try settings.set(key, to: entry.value, from: .file(path: path, line: entry.line))
    }
  }

  /// The whole file at `path`, which is not trusted (`--config`, or a file given by
  /// name): opened once following symbolic links but never blocking on a FIFO, then
  /// checked and read on that descriptor.
  ///
  /// - Parameter missingIsError: whether nothing at `path` is `.missing` (`--config`)
  ///   rather than a read error.
  private static func contents(ofUntrusted path: String, missingIsError: Bool) throws(ConfigurationError) -> [UInt8] {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.openForReading(path)
    } catch {
      if missingIsError && error == .noEntry { throw .missing(path: path) }
      throw .cannotRead(path: path, call: "open", errno: error)
    }
    return try contents(of: file, path: path).bytes
  }

  /// The whole of an open file and what `fstat` said of it, refusing non-files and huge
  /// files before reading a byte.
  static func contents(of file: borrowing FileDescriptor, path: String) throws(ConfigurationError) -> (bytes: [UInt8], status: FileStatus) {
    let status: FileStatus
    do throws(Errno) {
      status = try file.status()
    } catch {
      throw .cannotRead(path: path, call: "fstat", errno: error)
    }
    guard status.kind == .regular else { throw .notARegularFile(path: path, kind: status.kind.phrase) }
    guard status.size <= maximumBytes else { throw .tooLarge(path: path, bytes: status.size) }
    let contents: (bytes: [UInt8], isComplete: Bool)
    do throws(Errno) {
      contents = try file.readToEnd(limit: Int(maximumBytes), expectedBytes: Int(status.size))
    } catch {
      throw .cannotRead(path: path, call: "read", errno: error)
    }
    guard contents.isComplete else { throw .tooLarge(path: path, bytes: maximumBytes + 1) }
    return (contents.bytes, status)
  }
}
