import CommandKit
import SystemCalls

/// The boot splash (plymouth) handing the display to the lock with no frame between:
/// the lock makes its first frame while the splash shows, then the splash stops drawing
/// and lets go of the display (`plymouth deactivate`), the lock takes it at once with
/// that frame over the splash's last one, and only then does plymouth end, leaving the
/// screen as it is (`plymouth quit --retain-splash`). A display manager does the same
/// (gdm); plymouth-quit.service, which would clear the screen first, is left out by the
/// unit's `Conflicts=`. The frame is made first so that nobody holds DRM master for
/// only a few system calls: without a master, anything that wakes the kernel's console
/// (a message written to it, a hotplug) puts its black framebuffer back on screen.
///
/// plymouthd's own protocol is spoken on its socket rather than through the `plymouth`
/// program: a process start costs seconds of a small board's boot, and the lock makes
/// this call at every start (mostly to find nobody listening, one connect).
///
/// The socket is abstract, so no file's owner says who listens: anyone may bind the
/// name once plymouth has quit. Only a peer running as root is spoken to, and every
/// answer is waited for a bounded time, so the name's squatter can neither delay the
/// lock's picture nor learn anything from it.
package enum BootSplash {
  /// plymouthd's socket (`PLY_BOOT_PROTOCOL_TRIMMED_ABSTRACT_SOCKET_PATH`).
  package static let socketName = "/org/freedesktop/plymouthd"
  /// How long an answer is waited for. plymouthd answers at once; a deactivation
  /// that takes longer is left to finish while the lock goes on.
  package static let answerMicroseconds: Int64 = 2_000_000

  /// What a request came to.
  package enum Outcome: Equatable {
    /// plymouthd did it (its ACK).
    case done
    /// Nothing listens: no splash runs (the usual case, and every start after boot).
    case noSplash
    /// Something else: said in the journal; the lock goes on as without a splash.
    case failed(String)
  }

  /// Asks whether a splash runs (plymouthd's ping), without changing anything: the lock
  /// then makes its first picture while the splash still shows, and asks it to let go
  /// only to show that picture (`deactivate`).
  package static func ping(socket name: String = socketName) -> Outcome {
    ask([UInt8(ascii: "P"), 0], socket: name)
  }

  /// Asks the splash to stop drawing and let go of the display and the terminal,
  /// right before the lock takes them.
  package static func deactivate(socket name: String = socketName) -> Outcome {
    ask([UInt8(ascii: "D"), 0], socket: name)
  }

  /// Asks the splash to end, leaving the picture on screen (the lock's by then).
  package static func quitRetainingSplash(socket name: String = socketName) -> Outcome {
    // "Q", then an argument: \002, its length with the NUL, the flag 1 (retain), NUL.
    ask([UInt8(ascii: "Q"), 2, 2, 1, 0], socket: name)
  }

  /// One request on a connection of its own, and its one-byte answer.
  private static func ask(_ request: [UInt8], socket name: String) -> Outcome {
    let connection: FileDescriptor
    do throws(Errno) {
      connection = try FileDescriptor.connectingAbstractUnixStream(to: name)
    } catch {
      if error == .connectionRefused { return .noSplash }
      return .failed("cannot connect to plymouth (@\(name)): \(error.text)")
    }
    do throws(Errno) {
      let peer = try connection.peerCredentials()
      guard peer.user.rawValue == 0 else {
        return .failed("@\(name) is held by uid \(peer.user.rawValue), not by root's plymouthd: not spoken to")
      }
      try connection.setReceiveTimeout(microseconds: answerMicroseconds)
      try connection.writeAll(request[...])
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
      defer { buffer.deallocate() }
      guard try connection.read(into: buffer) == 1 else { return .failed("plymouth hung up without an answer") }
      let answer = buffer[0]
      // ACK is \006, NAK \025.
      return answer == 6 ? .done : .failed("plymouth refused (answer \(answer))")
    } catch {
      if error == .wouldBlock {
        return .failed("plymouth did not answer within \(answerMicroseconds / 1_000_000) s")
      }
      return .failed("plymouth's socket: \(error.text)")
    }
  }
}
