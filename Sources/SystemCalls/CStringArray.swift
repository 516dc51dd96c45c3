/// A NULL-terminated array of C strings (an `argv` or `envp`) for the duration of a
/// call, freed afterwards. Embedded Swift has no Foundation helper for it.
enum CStringArray {
  static func with<R>(_ words: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var copies: [UnsafeMutablePointer<CChar>?] = words.map { word in
      var word = word
      return word.withUTF8 { bytes in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
      }
    }
    copies.append(nil)
    defer { for copy in copies { copy?.deallocate() } }
    return copies.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress!) }
    }
  }
}
