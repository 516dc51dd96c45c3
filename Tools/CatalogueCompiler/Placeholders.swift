/// The printf subset the catalogue's texts use, as the lock screen reads it
/// (`MessageFormat` in Scene): `%d`, `%02d` (zero-padded to a width), `%1$d` (the
/// first number, wherever it stands) and `%%`.
enum Placeholders {
  /// The numbers a text refers to, counting from 1, in the order they appear.
  static func arguments(of text: String) throws(CatalogueError) -> [Int] {
    var arguments: [Int] = []
    var sequential = 0
    let chars = Array(text)
    var i = 0
    while i < chars.count {
      guard chars[i] == "%" else { i += 1; continue }
      i += 1
      guard i < chars.count else { throw CatalogueError(path: "text", "'\(text)' ends in '%'") }
      if chars[i] == "%" { i += 1; continue }
      var digits = ""
      while i < chars.count && chars[i].isNumber { digits.append(chars[i]); i += 1 }
      var position: Int?
      if i < chars.count && chars[i] == "$" {
        guard let n = Int(digits), n > 0 else { throw CatalogueError(path: "text", "bad position in '\(text)'") }
        position = n
        i += 1
        digits = ""
        while i < chars.count && chars[i].isNumber { digits.append(chars[i]); i += 1 }
      }
      guard i < chars.count, chars[i] == "d" else {
        throw CatalogueError(path: "text", "'\(text)': only %d, %0Nd, %N$d and %% are understood")
      }
      i += 1
      if let position {
        arguments.append(position)
      } else {
        sequential += 1
        arguments.append(sequential)
      }
    }
    return arguments
  }
}
