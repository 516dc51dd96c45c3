import CShim
import SystemCalls

/// What happens after an unlock when a command is configured: patternlock replaces
/// itself with it (`execv`), so the unlocked session is that command's, with no
/// patternlock process left behind to attack.
enum HandOff {
  /// Replaces the process with the command (an absolute path: the settings table
  /// refuses any other, as no PATH search is done on purpose).
  ///
  /// - Returns: only when it failed: why.
  static func exec(_ command: [String]) -> Errno {
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
    for copy in copies { copy?.deallocate() }
    return errno
  }
}
