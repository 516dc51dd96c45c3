import Foundation
import PatternCore
import Vault
import XCTest

/// Shared helpers: private temporary state directories, a cheap hash cost, clock
/// values, and running the built binary.
enum VaultTestSupport {
  /// The cheapest cost libsodium accepts, so hashing tests take milliseconds.
  static let cheapCost = try! HashCost(passes: 1, memoryBytes: 8192)

  /// A new empty directory (mode 0700) under the system temporary directory; the
  /// state directory is `<it>/state` and does not exist yet.
  static func makeSandbox() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vault-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    return url
  }

  static func instant(seconds: Int64, extraMicroseconds: UInt64 = 0) -> UnlockInstant {
    UnlockInstant(monotonicMicroseconds: UInt64(seconds) * 1_000_000 + extraMicroseconds, wallSeconds: 1_700_000_000 + seconds)
  }

  /// Enrols `pattern` (cheap cost) in `path`, creating the directory.
  static func enrol(_ pattern: [Int], in path: String, grid: Int = 3, minimumDots: Int = 4) throws {
    let directory = try StateDirectory(opening: path, creating: true)
    let enrolled = try EnrolledPattern(dots: DotSequence(pattern), gridSize: grid, minimumDots: minimumDots, cost: cheapCost)
    try enrolled.save(to: directory)
  }

  /// The error `body` throws, or nil (XCTAssertThrowsError cannot hold ~Copyable values).
  static func error(_ body: () throws(VaultError) -> Void) -> VaultError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The built `patternlock` in the products directory: the .xctest bundle's directory
  /// or its parent, depending on how the platform reports the bundle.
  static var binary: URL {
    let bundle = Bundle(for: VaultCLITests.self).bundleURL
    let inside = bundle.appendingPathComponent("patternlock")
    return FileManager.default.isExecutableFile(atPath: inside.path) ? inside : bundle.deletingLastPathComponent().appendingPathComponent("patternlock")
  }

  struct MissingBinary: Error, CustomStringConvertible {
    var description: String { "patternlock is not built at \(VaultTestSupport.binary.path); build with --build-tests" }
  }

  /// Runs `patternlock arguments` with `stdin` as standard input; `prefix` runs it
  /// through another program (such as setpriv).
  static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], prefix: [String] = []) throws -> Run {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw MissingBinary()
    }
    let process = Process()
    if prefix.isEmpty {
      process.executableURL = binary
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: prefix[0])
      process.arguments = Array(prefix.dropFirst()) + [binary.path] + arguments
    }
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

  /// POSIX permission bits of a path (lstat).
  static func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as! NSNumber).intValue
  }
}
