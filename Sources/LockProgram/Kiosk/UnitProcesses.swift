import SystemCalls

/// Whether a system unit may have any process, read from the cgroup v2 file system
/// instead of asked of systemd.
///
/// The lock asks this of the kiosk's unit before its first picture, at every start. A
/// `systemctl is-active` there is a process start and a round trip to PID 1, which on
/// a small board while the rest of the boot competes for the CPU costs seconds of the
/// time to the lock; at boot the kiosk has not started, and its unit has no cgroup.
/// So only a definite "no process" is taken from the file system: the kiosk then has
/// nothing that could draw or be frozen. A unit with `PAMName=` (the guide's kiosk) runs
/// its processes in a logind session's scope in `user.slice`, not in its own cgroup, so
/// "no process" also needs `user.slice` empty: no session of anyone's, as at boot. Anything else (a populated cgroup, a
/// hierarchy that is not cgroup v2, a file that cannot be read) is `unknown`, and the
/// caller asks systemd as before, so that a running kiosk is never missed.
package enum UnitProcesses {
  package enum Answer: Equatable {
    /// No cgroup of that name holds a process, and no login session runs: the unit
    /// runs nothing.
    case none
    /// One of that name holds a process, or it could not be told: ask systemd.
    case unknown
  }

  /// The most directories looked at before giving up (`unknown`): a system has a few
  /// dozen slices; a tree far larger than that is not worth walking at start-up.
  static let directoryLimit = 4096

  /// Looks for `unit`'s cgroup in every slice under `root` (a system unit's cgroup
  /// is a slice's child: `system.slice/NAME`, or under the slice its `Slice=` names)
  /// and reads its `cgroup.events`.
  ///
  /// - Parameters:
  ///   - unit: a unit's full name, such as `patternlock-kiosk.service`.
  ///   - root: where the unified cgroup hierarchy is mounted.
  package static func of(_ unit: String, root: String = "/sys/fs/cgroup") -> Answer {
    // cgroup.controllers exists only at the root of a cgroup v2 hierarchy.
    let controllers = try? FileStatus(ofPath: root + "/cgroup.controllers", followingSymlinks: false)
    guard controllers != nil else { return .unknown }
    // Every login session's scope, the kiosk's among them when it has one.
    guard isEmpty(root + "/user.slice") else { return .unknown }
    var waiting = [root]
    var visited = 0
    while let directory = waiting.popLast() {
      visited += 1
      guard visited <= directoryLimit else { return .unknown }
      let names: [String]
      do throws(Directory.ListingFailure) {
        names = try Directory.names(in: directory) { $0 == unit || $0.hasSuffix(".slice") }
      } catch {
        // A slice removed while it was walked held nothing of the unit's any more.
        if error == .cannotOpen(.noEntry) { continue }
        return .unknown
      }
      for name in names {
        if name == unit {
          guard isEmpty(directory + "/" + name) else { return .unknown }
        } else {
          waiting.append(directory + "/" + name)
        }
      }
    }
    return .none
  }

  /// Whether the cgroup at `path` says it holds no process, in it or below it
  /// (`populated 0` in `cgroup.events`). False whenever that cannot be read.
  private static func isEmpty(_ path: String) -> Bool {
    let bytes: [UInt8]
    do throws(Errno) {
      let file = try FileDescriptor.open(path + "/cgroup.events", .readOnly)
      bytes = try file.readToEnd(limit: 4096).bytes
    } catch {
      // A cgroup removed meanwhile (the unit stopped) holds nothing.
      return error == .noEntry
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(separator: "\n").contains("populated 0")
  }
}
