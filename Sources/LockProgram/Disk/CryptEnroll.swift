import CShim
import PatternCore
import SystemCalls
import Systemd
import Vault

/// systemd-cryptenroll, run for `patternlock disk` as a root command runs a program:
/// only root's own copy, with an environment of its own (nothing of the caller's), and
/// every secret on a pipe or through the password agent protocol, never on its command
/// line, where every user could read it.
package struct CryptEnroll {
  package static let defaultPath = "/usr/bin/systemd-cryptenroll"
  /// The tool's whole environment.
  static let environment = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", "SYSTEMD_COLORS=0"]
  /// How long an enrolment may take: the unlock key's key derivation (Argon2id, up to a
  /// few seconds on a Pi), the TPM's sealing, writing the header.
  static let enrolmentLimitSeconds = 120

  let path: String

  /// The tool at `path`, once it is known to be root's: a regular file owned by root
  /// that no one else may write.
  package init(path: String = CryptEnroll.defaultPath) throws(DiskError) {
    let status: FileStatus
    do throws(Errno) {
      status = try FileStatus(ofPath: path, followingSymlinks: true)
    } catch {
      throw .toolMissing(path: path)
    }
    guard status.kind == .regular, status.owner == 0, status.permissions & 0o022 == 0 else { throw .toolNotTrusted(path: path) }
    self.path = path
  }

  /// The volume's key slots.
  package func slots(of device: String) throws(DiskError) -> KeySlots {
    let text: [UInt8]
    let status: TerminationStatus
    do throws(Errno) {
      var listing = try PipeEnds()
      let child = try ChildProcess.spawnTool([path, device], environment: Self.environment, output: listing.writingNumber, error: 2)
      listing.closeWriting()
      text = try listing.reading.readToEnd(limit: 64 * 1024).bytes
      status = try child.waitForExit()
    } catch {
      throw .cannotRun(reason: error.text)
    }
    guard status.isSuccess, let slots = KeySlots(listing: String(decoding: text, as: UTF8.self)) else {
      throw .notAListing(device: device)
    }
    return slots
  }

  /// Binds a new key slot of `device` to the TPM at `tpmDevice` with `pin` as its PIN,
  /// replacing the TPM slot it had (`--wipe-slot=tpm2`, after the new one is written).
  /// The volume is opened with `unlockKey` (a passphrase or the recovery key), handed
  /// over in a file in memory as `/dev/fd/3` (the tool seeks in it, so not a pipe); the PIN is the tool's to ask for, and this process
  /// answers its requests (the password agent protocol) and no one else's: a request
  /// for anything but a PIN is cancelled, never answered with the pattern.
  package func enroll(
    _ device: String, pin: borrowing SecretBytes, unlockKey: borrowing SecretBytes, tpmDevice: String
  ) throws(DiskError) {
    var passphraseAsked = false
    var timedOut = false
    let status: TerminationStatus
    do throws(Errno) {
      let key = try MemoryFile(named: "unlock-key")
      try unlockKey.withBytes { bytes throws(Errno) in try key.file.writeAll(bytes) }
      // The tool refuses a key file anyone may read; this one is only ever its own.
      try key.file.setPermissions(0o400)
      // The tool asks its questions in this directory: it must be there to be watched.
      try Directory.make(PasswordRequestDirectory.path, permissions: 0o755)
      var slot = try DescriptorSlot()
      let arguments = [
        path, "--tpm2-device=" + tpmDevice, "--tpm2-with-pin=yes", "--wipe-slot=tpm2", "--unlock-key-file=/dev/fd/3", device,
      ]
      let child = try ChildProcess.spawnTool(arguments, environment: Self.environment, output: 2, error: 2, secret: key.file.rawValue)
      _ = consume key
      let asker = child.id.rawValue
      var watch = try PasswordRequestWatch(directory: PasswordRequestDirectory.path, asker: asker, behind: &slot)
      let deadline = MonotonicClock.microseconds() + UInt64(Self.enrolmentLimitSeconds) * 1_000_000
      var taken: [String] = []
      var set = PollSet(capacity: 1)
      _ = set.add("cryptenroll", descriptor: slot.rawValue)
      while !watch.askerEnded {
        let now = MonotonicClock.microseconds()
        for pending in (try? PasswordRequestDirectory.pending(now: now).waiting) ?? []
        where pending.request.pid == asker && !taken.contains(pending.file) {
          taken.append(pending.file)
          if pending.request.asksForPIN {
            try? pin.withBytes { bytes throws(Errno) in try pending.request.answer(with: bytes) }
          } else {
            passphraseAsked = true
            try? pending.request.cancel()
          }
        }
        if now >= deadline {
          _ = pl_terminate_child(asker)
          timedOut = true
          break
        }
        _ = try set.wait(milliseconds: 500)
        watch.drain()
      }
      status = try child.waitForExit()
    } catch {
      throw .cannotRun(reason: error.text)
    }
    if timedOut { throw .tookTooLong(seconds: Self.enrolmentLimitSeconds) }
    if passphraseAsked { throw .unlockKeyRefused(device: device) }
    guard status.isSuccess else { throw .toolFailed(action: "bind \(device) to the TPM", status: status) }
  }

  /// Removes `device`'s TPM slots.
  package func wipeTPM(_ device: String) throws(DiskError) {
    let status: TerminationStatus
    do throws(Errno) {
      let child = try ChildProcess.spawnTool([path, "--wipe-slot=tpm2", device], environment: Self.environment, output: 2, error: 2)
      status = try child.waitForExit()
    } catch {
      throw .cannotRun(reason: error.text)
    }
    guard status.isSuccess else { throw .toolFailed(action: "remove \(device)'s TPM slot", status: status) }
  }
}
