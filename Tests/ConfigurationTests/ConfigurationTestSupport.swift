import Foundation
import XCTest

/// A throw-away configuration root (`PATTERNLOCK_CONFIG_ROOT`) with helpers to write
/// its layers, and the paths of the repository's shipped files.
struct ConfigRoot {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("patternlock-conf-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var path: String { url.path }

  /// Writes `text` at `relative` under the root, creating directories; returns the path.
  @discardableResult
  func write(_ relative: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  func remove() { try? FileManager.default.removeItem(at: url) }

  /// The repository's top directory (this file is Tests/ConfigurationTests/...).
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Runs the built patternlock binary.
enum BuiltBinary {
  static var url: URL {
    let bundle = Bundle(for: LayeringTests.self).bundleURL
    let inside = bundle.appendingPathComponent("patternlock")
    return FileManager.default.isExecutableFile(atPath: inside.path) ? inside : bundle.deletingLastPathComponent().appendingPathComponent("patternlock")
  }

  struct MissingBinary: Error, CustomStringConvertible {
    var description: String { "patternlock is not built at \(BuiltBinary.url.path); build with --build-tests" }
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "") throws -> Run {
    guard FileManager.default.isExecutableFile(atPath: url.path) else { throw MissingBinary() }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let input = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
  }
}
