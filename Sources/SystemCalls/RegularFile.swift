/// Reading a whole file the user named (a configuration, a recording), refusing
/// anything that is not a regular file of at most a given size before reading a byte.
public enum RegularFile {
  /// Which step of `read(atPath:limit:)` failed; the caller words the message.
  public enum ReadFailure: Error, Equatable {
    /// stat(2) failed (`.noEntry` when there is nothing at the path).
    case cannotExamine(Errno)
    /// It is a directory, device, pipe or socket (`kind` is never `.regular`).
    case notARegularFile(FileStatus.Kind)
    /// It is larger than the limit.
    case tooLarge(bytes: Int64)
    /// open(2) failed.
    case cannotOpen(Errno)
    /// read(2) failed.
    case cannotRead(Errno)
  }

  /// Reads the whole file at `path`, following symbolic links.
  ///
  /// The size and type checks come first (`FileStatus`, stat(2)) so that a huge or
  /// endless file is refused at once, and a FIFO never blocks the open. The file may
  /// shrink or grow after that; at most the size stat gave is read
  /// (`FileDescriptor.readToEnd`).
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - limit: the most bytes it may have.
  /// - Returns: its bytes.
  /// - Throws: the failed step as a `ReadFailure`.
  public static func read(atPath path: String, limit: Int64) throws(ReadFailure) -> [UInt8] {
    let status: FileStatus
    do throws(Errno) {
      status = try FileStatus(ofPath: path, followingSymlinks: true)
    } catch {
      throw .cannotExamine(error)
    }
    guard status.kind == .regular else { throw .notARegularFile(status.kind) }
    guard status.size <= limit else { throw .tooLarge(bytes: status.size) }
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, .readOnly)
    } catch {
      throw .cannotOpen(error)
    }
    do throws(Errno) {
      return try file.readToEnd(limit: Int(status.size), expectedBytes: Int(status.size)).bytes
    } catch {
      throw .cannotRead(error)
    }
  }
}
