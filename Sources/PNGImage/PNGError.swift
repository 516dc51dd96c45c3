import PatternCore
import SystemCalls

/// Why a PNG could not be written or read.
///
/// Every case keeps the path, so the one line the user sees names the file.
public enum PNGError: DescribedError, Equatable, Sendable {
  /// What was being done to the file.
  public enum Operation: Sendable {
    case read
    case write
  }

  /// A system call failed (open, write, close), with the errno it set; `reason` is
  /// its text.
  case system(Operation, path: String, errno: Errno, reason: String)
  /// libpng refused the data: not a PNG, corrupt or truncated.
  case invalidFile(path: String, reason: String)
  /// The image is larger than `PNGFile.maximumSide`, or memory ran out.
  case tooLarge(Operation, path: String, reason: String)

  /// One line for the user: what failed, on which file, why, and the likely fix.
  ///
  /// `cannot write out/00001.png: No such file or directory (does the directory out exist?)`
  public var message: String {
    switch self {
    case .system(let operation, let path, let errno, let reason):
      let verb = operation == .read ? "read" : "write"
      return "cannot \(verb) \(path): \(reason)" + PNGError.hint(operation, path: path, errno: errno)
    case .invalidFile(let path, let reason):
      return "cannot read \(path): \(reason) (is it a PNG file?)"
    case .tooLarge(let operation, let path, let reason):
      let verb = operation == .read ? "read" : "write"
      return "cannot \(verb) \(path): \(reason) (images are limited to \(PNGFile.maximumSide) pixels a side)"
    }
  }

  /// The likely fix for an errno, in brackets, or nothing when there is no good guess.
  private static func hint(_ operation: Operation, path: String, errno: Errno) -> String {
    switch errno {
    case .noEntry:
      if operation == .read { return " (is the path right?)" }
      return " (does the directory \(directory(of: path)) exist?)"
    case .permissionDenied:
      return operation == .read ? " (is it readable by this user?)" : " (is the directory writable by this user?)"
    case .noSpace:
      return " (is the disk full?)"
    case .readOnlyFileSystem:
      return " (is the file system mounted read-only?)"
    default:
      return ""
    }
  }

  /// The directory part of a path, `.` when there is none.
  private static func directory(of path: String) -> String {
    var utf8 = Array(path.utf8)
    while let last = utf8.last, last != UInt8(ascii: "/") { utf8.removeLast() }
    if utf8.count > 1 { utf8.removeLast() }
    return utf8.isEmpty ? "." : String(decoding: utf8, as: UTF8.self)
  }
}
