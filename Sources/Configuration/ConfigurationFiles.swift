import CShim

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
    for path in try layerPaths(root: root) { try apply(path, to: &settings) }
    if let extra {
      guard exists(extra) else { throw .missing(path: extra) }
      try apply(extra, to: &settings)
    }
    return settings
  }

  /// The root for layers 1 to 3: `PATTERNLOCK_CONFIG_ROOT`, or `/`.
  public static func rootFromEnvironment() -> String {
    guard let value = pl_getenv(rootVariable) else { return "/" }
    let root = String(cString: value)
    return root.isEmpty ? "/" : root
  }

  /// Reads one file and sets each of its keys, checking sections, keys and values.
  ///
  /// - Throws: `ConfigurationError` naming the file and line.
  public static func apply(_ path: String, to settings: inout Settings) throws(ConfigurationError) {
    try apply(contentsOf: try contents(of: path), path: path, to: &settings)
  }

  /// Sets each key of a file's contents already in memory, with the checks of
  /// `apply(_:to:)` (the fuzz harness feeds it bytes without a file).
  ///
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - path: the file's name, for messages.
  ///   - settings: the settings to change.
  /// - Throws: `ConfigurationError` naming `path` and the line.
  public static func apply(contentsOf bytes: [UInt8], path: String, to settings: inout Settings) throws(ConfigurationError) {
    let entries = try INIFile.entries(of: bytes, path: path)
    var firstLine: [SettingKey: Int] = [:]
    for entry in entries {
      guard !entry.section.isEmpty else { throw .keyOutsideSection(path: path, line: entry.line, key: entry.key) }
      guard let key = SettingKey(name: entry.key) else {
        throw .unknownKey(path: path, line: entry.line, section: entry.section, key: entry.key)
      }
      guard key.section == entry.section else { throw .wrongSection(path: path, line: entry.line, section: entry.section, key: key) }
      if let first = firstLine[key] { throw .duplicateKey(path: path, line: entry.line, key: key, firstLine: first) }
      firstLine[key] = entry.line
      try settings.set(key, to: entry.value, from: .file(path: path, line: entry.line))
    }
  }

  /// Whether something is at `path` (a dangling symlink or a denied stat counts as
  /// there: reading it then gives the real error).
  private static func exists(_ path: String) -> Bool {
    var status = pl_file_status()
    if path.withCString({ pl_lstat($0, &status) }) == 0 { return true }
    return pl_errno() != 2  // ENOENT
  }

  /// The `*.conf` names in `directory`, sorted bytewise; none when it is absent.
  private static func confDNames(_ directory: String) throws(ConfigurationError) -> [String] {
    guard let handle = directory.withCString({ pl_opendir($0) }) else {
      let error = pl_errno()
      if error == 2 { return [] }  // ENOENT: no conf.d
      throw .cannotRead(path: directory, call: "opendir", errno: error)
    }
    defer { pl_closedir(handle) }
    var names: [String] = []
    while let entry = pl_readdir_name(handle) {
      let name = String(cString: entry)
      if name.hasSuffix(".conf") && !name.hasPrefix(".") { names.append(name) }
    }
    if pl_errno() != 0 { throw .cannotRead(path: directory, call: "readdir", errno: pl_errno()) }
    return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The whole file, refusing non-files and huge files before reading.
  private static func contents(of path: String) throws(ConfigurationError) -> [UInt8] {
    var info = pl_file_info()
    guard path.withCString({ pl_stat($0, &info) }) == 0 else { throw .cannotRead(path: path, call: "stat", errno: pl_errno()) }
    if info.is_directory != 0 { throw .notARegularFile(path: path, kind: "a directory") }
    if info.is_regular == 0 { throw .notARegularFile(path: path, kind: "a device, pipe or socket") }
    guard info.size <= maximumBytes else { throw .tooLarge(path: path, bytes: info.size) }
    let fd = path.withCString { pl_open($0, Int32(PL_O_RDONLY), 0) }
    guard fd >= 0 else { throw .cannotRead(path: path, call: "open", errno: pl_errno()) }
    defer { _ = pl_close(fd) }
    var bytes = [UInt8](repeating: 0, count: Int(info.size))
    var filled = 0
    while filled < bytes.count {
      let n = bytes.withUnsafeMutableBytes { pl_read(fd, $0.baseAddress! + filled, $0.count - filled) }
      if n < 0 { throw .cannotRead(path: path, call: "read", errno: pl_errno()) }
      if n == 0 { break }
      filled += n
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }
}
