import CommandKit
import Configuration
import PatternCore
import Scene
import Screen
import SystemCalls
import Systemd
import TPM
import Vault

/// `patternlock password-agent`: a systemd password agent that answers requests for a
/// PIN (a LUKS2 volume bound to the TPM with a PIN, at boot or later) with the pattern
/// drawn on the lock screen, the request's message under the prompt.
///
/// It answers every PIN request pending, one after another, each on its own lock screen
/// (`PasswordRequestJudge` reads the verdict from the asker), and ends when no request
/// is left, as the agents a `.path` unit starts on `DirectoryNotEmpty=` do. A request for
/// a passphrase or a recovery key is never answered with a pattern: while only such
/// requests wait, the display is left to the console, whose agent asks for them from a
/// keyboard, and this waits for them to go.
package enum PasswordAgentCommand {
  /// How often the wait for the console's requests looks at the directory anyway: a
  /// request past its `NotAfter` goes without a sound.
  static let idleLookMilliseconds: Int32 = 1000

  package static func run(_ arguments: [String]) throws(CommandFailure) -> ExitStatus {
    let settings = try lifting(CommandFailure.usage) { () throws(UsageError) in
      try RunSettings(arguments, command: .passwordAgent)
    }
    // The answer goes to root's asker over a socket only root may write to; a request
    // read by anyone else could not be answered, and is not theirs to see.
    guard CurrentProcess.realUser == .root else {
      Console.error("password-agent: only root answers systemd's password requests (run it from patternlock-password-agent.service, or as root)")
      return .failure
    }
    // The PIN is held in memory from the drawing on.
    VaultCommandSupport.protectSecretsInMemory()
    var shown = 0
    // Requests cancelled with Escape: their askers may take a moment to take them away.
    var cancelled: [String] = []
    while true {
      let listed: [PendingRequest]
      do throws(Directory.ListingFailure) {
        let found = try PasswordRequestDirectory.pending(now: MonotonicClock.microseconds())
        for refused in found.refused { Console.error("password-agent: " + refused.message) }
        listed = found.waiting
      } catch {
        Console.error("password-agent: cannot list \(PasswordRequestDirectory.path) (\(error.errno.text)); is /run mounted?")
        return .failure
      }
      let pending = listed.filter { !cancelled.contains($0.file) }
      if let request = pending.first(where: { $0.request.asksForPIN }) {
        shown += 1
        switch try answer(request, settings, cancelled: &cancelled) {
        case .exit(let status): if status != .success { return status }
        case .power(let action): return PowerCommand.carryOut(action)
        }
        continue
      }
      // No PIN left to ask for: what waits for this agent (the console's agent in the
      // initramfs, which asks for passphrases on tty1) may start now, and not before,
      // or it would answer the PIN request itself, from the terminal behind the lock.
      ServiceManager.notify("READY=1")
      if pending.isEmpty {
        Console.out(shown == 0 ? "password-agent: no request for a PIN is pending" : "password-agent: no request is left")
        return .success
      }
      // Only passphrases wait: the console's agent asks for them; this waits for them to go.
      waitForAChange()
    }
  }

  /// The lock screen for `pending`, until its asker takes a PIN, asks for a passphrase,
  /// or the request goes.
  private static func answer(
    _ pending: PendingRequest, _ settings: RunSettings, cancelled: inout [String]
  ) throws(CommandFailure) -> RunCommand.Ending {
    var settings = settings
    // A token's PIN request names no disk: its asker's command line does.
    let volume = pending.request.pid.flatMap { AskedVolume.of(pid: $0) }
    settings.screen.message = shownMessage(pending.request.message + (volume.map { " " + $0.description } ?? ""))
    Console.out("password-agent: asking for the pattern: \(settings.screen.message)")
    var judge: RunJudge
    do throws(Errno) {
      var requestJudge = try PasswordRequestJudge(
        pending, directory: PasswordRequestDirectory.path, gridSize: settings.screen.layout.gridSize,
        minimumDots: settings.all.minimumDots)
      let tcti = settings.all.tpmTCTI
      requestJudge.triesLeft = { tpmTriesLeft(tcti) }
      judge = .passwordRequest(requestJudge)
    } catch {
      Console.error("password-agent: cannot watch \(PasswordRequestDirectory.path) (\(error.text)); the request is left to another agent")
      return .exit(.failure)
    }
    let actions = try LockStartKit.makeActions(settings.all)
    let door = try lifting(CommandFailure.door) { () throws(DoorWatchError) in try DoorWatch(settings.all, actions: actions) }
    var console = LockConsole(terminal: nil)
    var plan = RunCommand.Plan(
      settings: settings, minimumDots: settings.all.minimumDots, started: nil, enrolling: false, enrollsFirst: false,
      kiosk: nil, door: door, actions: actions)
    plan.answersPasswordRequest = true
    let ending = try RunCommand.lockOnDisplay(settings, plan, console: &console, judge: &judge)
    if case .passwordRequest(let answered) = judge {
      switch answered.ending {
      case .answered:
        Console.out("password-agent: the PIN was taken")
        // Whatever ended the screen after that (in the initramfs, the switch to the root
        // file system stops this service during the verdict's time), the request is done.
        return .exit(.success)
      case .passphraseAsked: Console.out("password-agent: the TPM refused; a passphrase is asked from the keyboard")
      case .withdrawn: Console.out("password-agent: the request went unanswered here")
      case .cancelled:
        cancelled.append(answered.current.file)
        Console.out("password-agent: cancelled with Escape; the asker was told no answer will come")
      case nil: break
      }
    }
    return ending
  }

  /// The wrong PINs the TPM at `tcti` takes before its lockout; nil when it cannot be
  /// asked (another TPM, none reachable), and then nothing is said of it.
  static func tpmTriesLeft(_ tcti: String) -> Int? {
    do throws(TPMProblem) {
      return try TrustedPlatformModule(tcti: tcti).dictionaryAttack().triesLeft
    } catch {
      Console.error("password-agent: the TPM's count of wrong PINs cannot be read: " + error.message)
      return nil
    }
  }

  /// The request's message as the lock's message: its first lines, cut to what the
  /// screen lays out (whole characters, never half of one).
  static func shownMessage(_ message: String) -> String {
    var shown = ""
    var bytes = 0
    for character in message {
      let size = character.utf8.count
      guard bytes + size <= Setting.maximumMessageBytes else { break }
      shown.append(character)
      bytes += size
    }
    return shown
  }

  /// Waits until a file in the request directory comes or goes, or a second passes.
  private static func waitForAChange() {
    do throws(Errno) {
      var slot = try DescriptorSlot()
      var watch = try PasswordRequestWatch(directory: PasswordRequestDirectory.path, asker: nil, behind: &slot)
      var set = PollSet(capacity: 1)
      _ = set.add("ask-password", descriptor: slot.rawValue)
      _ = try set.wait(milliseconds: idleLookMilliseconds)
      watch.drain()
    } catch {
      // Without a watch the directory is looked at again after the same pause.
      sleep(milliseconds: Int(idleLookMilliseconds))
    }
  }
}
