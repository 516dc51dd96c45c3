import SystemCalls

/// Why `patternlock disk` did nothing: each says what was wrong and what to do.
package enum DiskError: Error, Equatable {
  case notRoot
  case toolMissing(path: String)
  case toolNotTrusted(path: String)
  case toolFailed(action: String, status: TerminationStatus)
  case toolUnreadable(reason: String)
  case notAListing(device: String)
  case noKeyboardWayIn(device: String)
  case noTPMSlot(device: String)
  case onlyTheTPMSlot(device: String)
  case noUnlockKey
  case unlockKeyRefused(device: String)
  case tookTooLong(seconds: Int)
  case cannotRun(reason: String)

  package var message: String {
    switch self {
    case .notRoot: return "disk: only root changes a disk's key slots (run it as root, such as with sudo)"
    case .toolMissing(let path):
      return "disk: \(path) is not installed; install systemd (Debian's systemd-cryptsetup package on trixie), which binds key slots to the TPM"
    case .toolNotTrusted(let path):
      return "disk: \(path) is not root's own program (owned by root, written by no one else); reinstall systemd before binding a disk to it"
    case .toolFailed(let action, let status):
      return "disk: systemd-cryptenroll could not \(action) (exit status \(status.shellStatus)); its own message is above"
    case .toolUnreadable(let reason): return "disk: cannot read what systemd-cryptenroll said (\(reason))"
    case .notAListing(let device):
      return "disk: \(device) is not a LUKS2 volume systemd-cryptenroll can list; give the encrypted partition, such as /dev/mmcblk0p2"
    case .noKeyboardWayIn(let device):
      return "disk: \(device) has no passphrase or recovery key slot; add one first (systemd-cryptenroll --recovery-key \(device)) and keep it: it stays the keyboard's way in when the TPM refuses"
    case .noTPMSlot(let device): return "disk remove: \(device) has no TPM slot to remove"
    case .onlyTheTPMSlot(let device):
      return "disk remove: the TPM slot is \(device)'s only way in; add a passphrase or recovery key first (systemd-cryptenroll --recovery-key \(device))"
    case .noUnlockKey:
      return "disk enroll: give the pattern on standard input's first line and the volume's passphrase or recovery key on its second (printf '2-5-9-4-3\\n%s\\n' \"$KEY\" | patternlock disk enroll DEVICE)"
    case .unlockKeyRefused(let device):
      return "disk enroll: \(device) did not open with the passphrase or recovery key given on the second line; nothing was changed"
    case .tookTooLong(let seconds): return "disk: systemd-cryptenroll did not finish within \(seconds) s; it was stopped and nothing is known to be changed (check with 'patternlock disk status')"
    case .cannotRun(let reason): return "disk: cannot run systemd-cryptenroll (\(reason))"
    }
  }
}
