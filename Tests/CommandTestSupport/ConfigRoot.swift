import Foundation

/// A throw-away configuration root (`PATTERNLOCK_CONFIG_ROOT`, read by debug builds)
/// with a helper to write its layers.
///
/// The root and everything `write` makes are the test user's, directories 0755 and
/// files 0644 whatever the umask, so the tree passes the trust rule's checks (owner
/// root or, in debug builds, the effective user; nobody else may write) until a test
/// loosens a part of it on purpose.
public struct ConfigRoot {
  private let directory: TemporaryDirectory

  public init() throws { directory = try TemporaryDirectory(prefix: "patternlock-conf", permissions: 0o755) }

  public var url: URL { directory.url }
  public var path: String { directory.path }

  /// Writes `text` at `relative` under the root, creating directories; returns the path.
  @discardableResult
  public func write(_ relative: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(relative)
    var missing: [URL] = []
    var parent = file.deletingLastPathComponent()
    while parent.path.count > url.path.count, !FileManager.default.fileExists(atPath: parent.path) {
      missing.append(parent)
      parent = parent.deletingLastPathComponent()
    }
    for directory in missing.reversed() {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    }
    try Data(text.utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    return file.path
  }

  public func remove() { directory.remove() }
}

extension ConfigRoot {
  /// The configuration root a child process gets when its test names none: one empty
  /// root for the whole test run, never written. A test never reads the machine's own
  /// /etc (a `tpm = required` that another program left in /etc/patternlock.conf.d once
  /// bound ten tests' patterns to that program's TPM).
  public static let emptyForThisRun: String = {
    let root = try! ConfigRoot()
    return root.path
  }()

  /// The test process's environment with `extra` on top, and the empty root when
  /// neither names a root of its own.
  public static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.merging(extra) { _, given in given }
    if environment[variable] == nil { environment[variable] = emptyForThisRun }
    return environment
  }

  /// `PATTERNLOCK_CONFIG_ROOT`, which debug builds read.
  public static let variable = "PATTERNLOCK_CONFIG_ROOT"
}
