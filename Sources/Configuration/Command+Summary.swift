extension Command {
  /// What follows the command's name in its usage line (`FILE` for replay), if anything.
  public var operand: String? {
    switch self {
    case .replay, .inject: return "FILE"
    case .credential: return "add NAME|list|remove NAME"
    case .disk: return "enroll|status|remove DEVICE"
    default: return nil
    }
  }

  /// What the command does, as `--help` says it: one or more lines of at most 80
  /// characters.
  public var summary: [String] {
    switch self {
    case .layout: return ["print the grid layout for a panel as one JSON object"]
    case .replay: return ["replay a 'libinput record' capture: one JSON line per gesture"]
    case .run: return ["show the lock on the display (DRM/KMS) with live touch, mouse and keyboard"]
    case .inject: return ["replay a 'libinput record' capture through a uinput device (root)"]
    case .enroll: return ["set the pattern on the display: draw it, then again to confirm"]
    case .setPattern:
      return ["store the hash of the pattern read from standard input", "(such as: echo 1-2-3-6-9 | patternlock set-pattern)"]
    case .check:
      return [
        "judge the pattern on standard input against the stored one, throttled;",
        "prints one JSON line; exit 0 unlocked, 3 wrong, 4 too short,",
        "5 locked out, 6 no pattern set, 8 not judged (the attempt could not",
        "be counted first) (1 failure, 2 bad input, 7 not root)",
      ]
    case .judge:
      return [
        "judge one pattern line read from the connection systemd hands over",
        "(patternlock-judge.socket) as check does; answer one JSON line",
      ]
    case .resetAttempts: return ["clear the failure counter and any lockout (root only)"]
    case .status: return ["print the state as one JSON object: pattern set, failures, lockout left (exit 0)"]
    case .log:
      return ["print the audit log, oldest first: attempts, verdicts, lockouts, changes", "(with --json as stored; --since TIME in UTC)"]
    case .credential:
      return [
        "add (pattern on standard input), list or remove a credential besides owner:",
        "its role (admin, user, guest, duress), expiry and hours",
      ]
    case .sessionLock:
      return [
        "lock the Wayland session (ext-session-lock-v1, as swaylock) with the pattern;",
        "judged by patternlock-judge.socket; exit 0 once unlocked",
      ]
    case .lock: return ["show the lock again now over the kiosk an unlock opened (kiosk-unit; root)"]
    case .disk:
      return [
        "bind a LUKS2 volume's key slot to the TPM with the pattern as its PIN (enroll:",
        "the pattern and the volume's passphrase on standard input), show or remove it (root)",
      ]
    case .passwordAgent:
      return [
        "answer systemd's requests for a TPM PIN (a disk at boot) with the pattern",
        "drawn on the display; a passphrase is left to the keyboard (root)",
      ]
    case .mqtt:
      return [
        "report the lock's events to an MQTT broker, with Home Assistant discovery,",
        "and pass LOCK (and, with remote-unlock, UNLOCK) on (its own user; not root)",
      ]
    }
  }
}
