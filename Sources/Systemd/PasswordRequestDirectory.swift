import SystemCalls

/// Where password requests wait for an agent, and how one is read from there.
public enum PasswordRequestDirectory {
  /// systemd's directory of `ask.*` files (a `.path` unit watches it).
  public static let path = "/run/systemd/ask-password"

  /// The `ask.*` files in `directory`, by name; none when there is no directory yet
  /// (nothing has asked since boot).
  ///
  /// - Throws: the listing's failure for anything but a missing directory.
  public static func askFiles(in directory: String = path) throws(Directory.ListingFailure) -> [String] {
    do throws(Directory.ListingFailure) {
      return try Directory.names(in: directory) { $0.hasPrefix("ask.") }.map { directory + "/" + $0 }
    } catch {
      if error.errno == .noEntry { return [] }
      throw error
    }
  }

  /// The requests in `directory` still waited for at `now` (CLOCK_MONOTONIC
  /// microseconds), by file name, and the files that are no request a root agent may
  /// answer. A request past its `NotAfter`, or whose asking process is gone, is stale:
  /// neither, as systemd's own agents skip it (its file goes with its asker).
  ///
  /// - Parameter processExists: whether a process runs (tests give their own).
  /// - Throws: the listing's failure for anything but a missing directory.
  public static func pending(
    in directory: String = path, now: UInt64, processExists: (Int32) -> Bool = processExists
  ) throws(Directory.ListingFailure) -> (waiting: [PendingRequest], refused: [PasswordRequestError]) {
    var waiting: [PendingRequest] = []
    var refused: [PasswordRequestError] = []
    for file in try askFiles(in: directory) {
      do throws(PasswordRequestError) {
        let request = try request(in: file)
        if request.hasExpired(at: now) { continue }
        if let pid = request.pid, !processExists(pid) { continue }
        waiting.append(PendingRequest(file: file, request: request))
      } catch {
        refused.append(error)
      }
    }
    return (waiting, refused)
  }

  /// Whether process `pid` runs: its `/proc` directory is there (the initramfs mounts
  /// /proc too).
  public static func processExists(_ pid: Int32) -> Bool {
    (try? FileStatus(ofPath: "/proc/" + String(pid), followingSymlinks: false)) != nil
  }

  /// The request in `file`, which must be a regular file of root's: a question written
  /// by anyone else is never answered (it could name any socket to send the secret to).
  ///
  /// - Throws: `PasswordRequestError` naming the file and what to do.
  public static func request(in file: String) throws(PasswordRequestError) -> PasswordRequest {
    let read: (status: FileStatus, bytes: [UInt8])?
    do throws(Errno) {
      read = try readIfRoots(file)
    } catch {
      throw .unreadable(path: file, reason: error.text)
    }
    guard let read else { throw .notRoots(path: file) }
    guard read.status.size <= PasswordRequest.largestFile else { throw .unreadable(path: file, reason: "larger than a request") }
    return try PasswordRequest.parse(read.bytes, path: file)
  }

  /// The file's status and bytes; nil when it is not a regular file of root's. lstat
  /// first (a FIFO would block the open, a symbolic link could point anywhere), then the
  /// owner checked on the open descriptor, so no file swapped in between is believed.
  private static func readIfRoots(_ file: String) throws(Errno) -> (status: FileStatus, bytes: [UInt8])? {
    guard try FileStatus(ofPath: file, followingSymlinks: false).kind == .regular else { return nil }
    let opened = try FileDescriptor.open(file, .readOnly)
    let status = try opened.status()
    guard status.kind == .regular, status.owner == 0 else { return nil }
    guard status.size <= PasswordRequest.largestFile else { return (status, []) }
    return (status, try opened.readToEnd(limit: Int(PasswordRequest.largestFile)).bytes)
  }
}

/// A request waiting for an answer, with the file it came from.
public struct PendingRequest: Equatable, Sendable {
  public let file: String
  public let request: PasswordRequest
}
