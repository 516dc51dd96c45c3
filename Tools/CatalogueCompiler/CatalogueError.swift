/// What is wrong with the catalogue, as one line naming the file and line.
public struct CatalogueError: Error, Equatable, CustomStringConvertible {
  public let message: String

  public init(path: String, line: Int? = nil, _ what: String) {
    message = line.map { "\(path):\($0): \(what)" } ?? "\(path): \(what)"
  }

  public var description: String { message }
}
