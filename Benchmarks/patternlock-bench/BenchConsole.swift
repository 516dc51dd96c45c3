import CShim
import SystemCalls

/// Output for the benchmark: whole lines, unbuffered, so the table and the JSON
/// lines interleave correctly with the script's own messages.
enum BenchConsole {
  /// Writes a line to standard output.
  static func out(_ line: String) {
    write(line + "\n", to: FileDescriptor.standardOutput)
  }

  /// Reports a problem as `patternlock: bench: <message>` and exits: status 2 for
  /// bad input, 1 for a failed check.
  static func fail(_ message: String, status: Int32 = 2) -> Never {
    write("patternlock: bench: " + message + "\n", to: FileDescriptor.standardError)
    pl_exit(status)
  }

  private static func write(_ text: String, to stream: borrowing FileDescriptor) {
    var text = text
    text.withUTF8 { bytes in
      _ = try? stream.writeAll(UnsafeRawBufferPointer(bytes))
    }
  }
}
