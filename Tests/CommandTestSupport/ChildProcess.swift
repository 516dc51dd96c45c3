import Dispatch
import Foundation

/// Runs a program to its end with a given standard input and collects what it printed.
///
/// The three pipes are served at once (stdin written and stderr read on other threads
/// while stdout is read here), so a child that prints a lot before reading its input,
/// or fills stderr while the test waits on stdout, cannot block the test.
public enum ChildProcess {
  /// Runs `executable arguments` and waits for it to exit.
  ///
  /// - Parameters:
  ///   - executable: the program's path.
  ///   - arguments: its arguments, without the program name.
  ///   - stdin: the whole of its standard input; it then reads end-of-file (never the
  ///     test runner's own standard input).
  ///   - environment: variables set or replaced on top of the test process's own.
  /// - Throws: the program cannot be started (missing, not executable).
  public static func run(
    _ executable: URL, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
  ) throws -> CommandResult {
    _ = ignoreBrokenPipes
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ConfigRoot.isolatedEnvironment(environment)
    let input = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()

    let errors = Collected()
    let helpers = DispatchGroup()
    DispatchQueue.global().async(group: helpers) {
      // A child that exits without reading its input makes this write fail (EPIPE);
      // what it did print is still collected and judged by the test.
      try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
      try? input.fileHandleForWriting.close()
    }
    DispatchQueue.global().async(group: helpers) { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    helpers.wait()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors.data, as: UTF8.self))
  }

  /// Bytes read on a helper thread, handed over after `DispatchGroup.wait`.
  private final class Collected: @unchecked Sendable {
    var data = Data()
  }

  /// Writing to a child that has exited raises SIGPIPE, whose default action would
  /// end the whole test run; ignored once, the write fails with EPIPE instead.
  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
