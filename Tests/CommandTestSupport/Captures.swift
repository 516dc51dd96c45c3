import Foundation

/// The shipped `libinput record` captures in Tests/Captures, their expected replay
/// output (`<name>.expected.jsonl`) and the replay options they were made for
/// (`<name>.args`).
public enum Captures {
  /// Tests/Captures.
  public static let directory = PackageRoot.url("Tests/Captures")

  /// The capture names (without `.yaml`), sorted.
  ///
  /// - Throws: the directory cannot be listed.
  public static func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".yaml") }
      .map { String($0.dropLast(5)) }
      .sorted()
  }

  /// The path of a capture's file.
  ///
  /// - Parameters:
  ///   - name: the capture's name, such as `l-shape-1236`.
  ///   - suffix: which of its files: `.yaml` (the capture), `.expected.jsonl`, `.args`.
  public static func path(_ name: String, _ suffix: String = ".yaml") -> String {
    directory.appendingPathComponent(name + suffix).path
  }

  /// Tests/Captures/real: recordings of real hardware, `NAME.yml`, each opening with
  /// `# source:` lines that say where it came from.
  public static let realDirectory = PackageRoot.url("Tests/Captures/real")

  /// The real recordings' names (without `.yml`), sorted.
  ///
  /// - Throws: the directory cannot be listed.
  public static func realNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: realDirectory.path)
      .filter { $0.hasSuffix(".yml") }
      .map { String($0.dropLast(4)) }
      .sorted()
  }

  /// The path of a real recording.
  ///
  /// - Parameters:
  ///   - name: its name, such as `atmel-mxt-drag-up-down`.
  public static func realPath(_ name: String) -> String {
    realDirectory.appendingPathComponent(name + ".yml").path
  }

  /// The replay options a capture was made for (`<name>.args`, words split on spaces
  /// and newlines), or none when it has no such file.
  ///
  /// - Parameters:
  ///   - name: the capture's name.
  public static func arguments(_ name: String) -> [String] {
    guard let text = try? String(contentsOfFile: path(name, ".args"), encoding: .utf8) else { return [] }
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
  }
}
