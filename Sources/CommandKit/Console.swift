import SystemCalls

/// Output for people and for tools: one line at a time, unbuffered, never through
/// `print` (which Embedded Swift limits to one argument and which buffers).
package enum Console {
  /// Lines kept back instead of written (`holdOutput`), so that a command that may
  /// still fail prints all of its output or none.
  nonisolated(unsafe) private static var held: [String]?

  /// Keeps standard output lines back until `releaseOutput` (or drops them on exit).
  package static func holdOutput() { held = held ?? [] }

  /// Writes the lines kept back, and writes directly again from now on.
  package static func releaseOutput() {
    guard let lines = held else { return }
    held = nil
    for line in lines { out(line) }
  }

  /// Writes a line to standard output.
  package static func out(_ line: String) {
    if held != nil {
      held!.append(line)
      return
    }
    var line = line
    // A failed write has nowhere to be reported; the program goes on.
    line.withUTF8 { bytes in
      _ = try? FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer(bytes))
    }
    withUnsafeBytes(of: UInt8(ascii: "\n")) { newline in
      _ = try? FileDescriptor.standardOutput.writeAll(newline)
    }
  }

  /// Writes `patternlock: <message>` to standard error.
  package static func error(_ message: String) {
    var line = "patternlock: " + message + "\n"
    line.withUTF8 { bytes in
      _ = try? FileDescriptor.standardError.writeAll(UnsafeRawBufferPointer(bytes))
    }
  }
}
