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
/// file is an error. `ROOT` is `/` unless `PATTERNLOCK_CONFIG_ROOT` names another
/// directory (for tests and for checking a package's files before installing them).
///
/// Every problem is an error, never a warning: a lock screen must not start with a
/// setting silently dropped (a stealth mode the administrator asked for, a throttle).
///
/// The throttle (`throttle`, `permanent-after`) is the administrator's alone: it is
/// read only from layers 1 to 3 under the real root `/`, from files owned by root and
/// writable by nobody else. In `--config`, under `PATTERNLOCK_CONFIG_ROOT`, or in a file
/// another user could have written, it is an error, so whoever runs `check` or `run`
/// can never loosen it. (Debug builds, which tests use, also take it from a
/// `PATTERNLOCK_CONFIG_ROOT` tree; release builds never.)
public enum ConfigurationFiles {
  /// The environment variable that moves the layers' root.
  public static let rootVariable = "PATTERNLOCK_CONFIG_ROOT"
  /// A configuration larger than this is surely the wrong file.
  public static let maximumBytes: Int64 = 1 << 20

  /// The files of layers 1 to 3 that exist under `root`, in reading order.
  ///
  /// - Throws: `ConfigurationError.cannotRead` when `conf.d` exists but cannot be listed.
  public static func layerPaths(root: String) throws(ConfigurationError) -> [String] {
    let base = root.hasSuffix("/") ? String(root.dropLast()) : root
    var paths: [String] = []
    for path in [base + "/usr/share/patternlock/patternlock.conf", base + "/etc/patternlock.conf"] where exists(path) {
      paths.append(path)
    }
    let directory = base + "/etc/patternlock.conf.d"
    for name in try confDNames(directory) { paths.append(directory + "/" + name) }
    return paths
  }

  /// Reads every layer and `extra` (the `--config` file) into settings.
  ///
  /// - Parameters:
  ///   - root: the root of layers 1 to 3, normally `/`.
  ///   - extra: the `--config` file, or nil.
  /// - Throws: the first `ConfigurationError` of any file, in reading order.
  public static func load(root: String, extra: String?) throws(ConfigurationError) -> Settings {
    var settings = Settings()
    for path in try layerPaths(root: root) {
      try apply(path, to: &settings, throttleRefusal: throttleRefusal(forSystemFile: path, root: root, trustingTestRoots: isDebugBuild))
    }
    if let extra {
      guard exists(extra) else { throw .missing(path: extra) }
      try apply(extra, to: &settings, throttleRefusal: "this is a --config file")
    }
    return settings
  }

  /// Whether this is a debug build, whose tests may set the throttle from a
  /// `PATTERNLOCK_CONFIG_ROOT` tree.
  static var isDebugBuild: Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
  }

  /// Why the system-layer file at `path` (under `root`) may not set the throttle, or
  /// nil when it may: under `/`, a file owned by root that nobody else may write.
  ///
  /// - Parameter trustingTestRoots: whether a root other than `/` is trusted (debug builds).
  public static func throttleRefusal(forSystemFile path: String, root: String, trustingTestRoots: Bool) -> String? {
    if root != "/" {
      return trustingTestRoots ? nil : "this file is under \(rootVariable)=\(root), not /"
    }
    let status: FileStatus
    do throws(Errno) {
      status = try FileStatus(ofPath: path, followingSymlinks: false)
    } catch {
      return "it cannot be examined"
    }
    guard status.owner == 0 else { return "this file is owned by user \(status.owner), not root (chown root:root \(path))" }
    guard status.permissions & 0o022 == 0 else { return "group or others may write this file (chmod go-w \(path))" }
    return nil
  }

  /// The root for layers 1 to 3: `PATTERNLOCK_CONFIG_ROOT`, or `/`.
  public static func rootFromEnvironment() -> String {
    guard let value = pl_getenv(rootVariable) else { return "/" }
    let root = String(cString: value)
    return root.isEmpty ? "/" : root
  }

  /// Reads one file and sets each of its keys, checking sections, keys and values.
  ///
  /// - Parameter throttleRefusal: nil when the file may set the throttle keys (a
  ///   trusted system layer); otherwise why it may not, for the error.
  /// - Throws: `ConfigurationError` naming the file and line.
  public static func apply(
    _ path: String, to settings: inout Settings, throttleRefusal: String? = "it is not a system configuration file"
  ) throws(ConfigurationError) {
    try apply(contentsOf: try contents(of: path), path: path, to: &settings, throttleRefusal: throttleRefusal)
  }

  /// Sets each key of a file's contents already in memory, with the checks of
  /// `apply(_:to:throttleRefusal:)` (the fuzz harness feeds it bytes without a file).
  ///
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - path: the file's name, for messages.
  ///   - settings: the settings to change.
  ///   - throttleRefusal: as for `apply(_:to:throttleRefusal:)`.
  /// - Throws: `ConfigurationError` naming `path` and the line.
  public static func apply(
    contentsOf bytes: [UInt8], path: String, to settings: inout Settings,
    throttleRefusal: String? = "it is not a system configuration file"
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
      if key.isSystemOnly, let why = throttleRefusal { throw .systemOnlyKey(path: path, line: entry.line, key: key, why: why) }
      firstLine[key] = entry.line
      try settings.set(key, to: entry.value, from: .file(path: path, line: entry.line))
    }
  }

  /// Whether something is at `path` (a dangling symlink or a denied stat counts as
  /// there: reading it then gives the real error).
  private static func exists(_ path: String) -> Bool {
    do throws(Errno) {
      _ = try FileStatus(ofPath: path, followingSymlinks: false)
      return true
    } catch {
      return error != .noEntry
    }
  }

  /// The `*.conf` names in `directory`, sorted bytewise; none when it is absent.
  private static func confDNames(_ directory: String) throws(ConfigurationError) -> [String] {
    do throws(Directory.ListingFailure) {
      return try Directory.names(in: directory) { $0.hasSuffix(".conf") && !$0.hasPrefix(".") }
    } catch {
      if error == .cannotOpen(.noEntry) { return [] }  // no conf.d
      throw .cannotRead(path: directory, call: error.call, errno: error.errno)
    }
  }

  /// The whole file, refusing non-files and huge files before reading.
  private static func contents(of path: String) throws(ConfigurationError) -> [UInt8] {
    do throws(RegularFile.ReadFailure) {
      return try RegularFile.read(atPath: path, limit: maximumBytes)
    } catch {
      switch error {
      case .cannotExamine(let errno): throw .cannotRead(path: path, call: "stat", errno: errno)
      case .notARegularFile(let kind): throw .notARegularFile(path: path, kind: kind.phrase)
      case .tooLarge(let bytes): throw .tooLarge(path: path, bytes: bytes)
      case .cannotOpen(let errno): throw .cannotRead(path: path, call: "open", errno: errno)
      case .cannotRead(let errno): throw .cannotRead(path: path, call: "read", errno: errno)
      }
    }
  }
}
