import CShim
import SystemCalls

/// What happens after an unlock when a command is configured: patternlock replaces
/// itself with it (`execv`), so the unlocked session is that command's, with no
/// patternlock process left behind to attack.
enum HandOff {
  /// Refuses a command that is not an absolute path: a relative one would depend on
  /// the working directory, and no PATH search is done on purpose.
  static func validate(_ command: [String]) {
    guard let program = command.first else {
      Console.fail("--exec needs a command after it, such as --exec /usr/bin/weston")
    }
    guard program.hasPrefix("/") else {
      Console.fail("--exec takes an absolute path, not '\(program)' (no PATH search is done; try /usr/bin/\(program))")
    }
  }

  /// Replaces the process with the command; returns only to exit on failure.
  static func exec(_ command: [String]) -> Never {
    validate(command)
    var copies: [UnsafeMutablePointer<CChar>?] = command.map { word in
      var word = word
      return word.withUTF8 { bytes in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
      }
    }
    copies.append(nil)
    let errno = copies.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { argv in
        _ = pl_execv(argv.baseAddress)
        return Errno.current
      }
    }
    Console.error("unlocked, but cannot run \(command[0]): \(errno.text) (check the exec setting)")
    pl_exit(ExitStatus.failure.rawValue)
  }
}
