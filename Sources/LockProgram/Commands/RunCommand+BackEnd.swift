import Backlight
import CommandKit
import Configuration
import FBDev
import Input
import KMS
import PatternCore
import Raster
import Scene
import Screen
import SystemCalls
import Terminal
import Typeface
import Vault

/// The back-end choice of `run` and `enroll`: which display the lock is drawn on (an
/// fbdev device when one is named, else KMS, else /dev/fb0), in the pixel format it
/// takes, each choice specialising the lock for its display type.
extension RunCommand {
  /// Chooses the display back-end and runs the lock on it.
  static func lockOnDisplay(
    _ settings: RunSettings, _ plan: Plan, console: inout LockConsole, judge: inout RunJudge
  ) throws(CommandFailure) -> Ending {
    // The display back-end is chosen here, and only here (docs/architecture.md,
    // "Adding a back-end"): each choice specialises the lock for its display type and
    // pixel format. An fbdev device when one is named, else KMS in the format it chose
    // (waiting display-wait-s for it to appear), else (no DRM display at all) /dev/fb0
    // when there is one.
    if let size = settings.all.headlessSize {
      return try lockHeadless(size, plan, console: &console, judge: &judge)
    }
    if let path = settings.kms.devicePath, FBDevLayout.isFramebufferPath(path) {
      return try lockOnFBDev(path, plan, console: &console, judge: &judge)
    }
    var kms: KMSDisplay
    var options = settings.kms
    // A splash keeps DRM master while the lock opens the card and makes its first
    // picture; it is asked to let go only then, so the console never shows between.
    options.masterMayBeHeld = plan.handsOverFromSplash
    do throws(KMSError) {
      kms = try DisplayArrival.open(options, waitingUpTo: settings.all.displayWaitSeconds)
    } catch {
      if settings.kms.devicePath == nil, settings.kms.outputName == nil, DisplayArrival.isNotThereYet(error),
        FBDevLayout.exists(defaultFBDev)
      {
        Console.error(error.message + "; using \(defaultFBDev) instead")
        return try lockOnFBDev(defaultFBDev, plan, console: &console, judge: &judge)
      }
      throw .display(error)
    }
    Console.out("patternlock: " + kms.choice)
    if plan.handsOverFromSplash {
      let terminal = console.lent?.control
      kms.beforeFirstPicture = { letSplashGo(terminal: terminal) }
    }
    let light = backlight(settings.all.backlightName, card: kms.path, connector: kms.outputName)
    if kms.format == .rgb565 {
      var display = BacklitPanel(panel: KMSPanel<RGB565, UdevMonitor>(kms: kms, watch: try udevMonitor()), light: light, dimPercent: settings.all.dimLevel)
      return try lock(on: &display, plan, console: &console, judge: &judge)
    }
    var display = BacklitPanel(panel: KMSPanel<XRGB8888, UdevMonitor>(kms: kms, watch: try udevMonitor()), light: light, dimPercent: settings.all.dimLevel)
    return try lock(on: &display, plan, console: &console, judge: &judge)
  }

  /// The backlight blanking switches off (`backlight =`), said in the journal; none
  /// when there is none, when it is `none`, or when it cannot be read (said once:
  /// the lock then blanks by switching the display off).
  static func backlight(_ name: String?, card path: String, connector: String) -> Backlight? {
    if name == "none" { return nil }
    // sysfs knows the card by its node's name; a /dev/dri/by-path/ link is followed.
    let node = (try? FileLink.target(of: path)) ?? path
    let card = String(node.split(separator: "/").last ?? "")
    do throws(BacklightError) {
      guard let light = try Backlight.find(card: card, connector: connector, named: name) else {
        Console.out("patternlock: no backlight for \(connector): blanking switches the display off")
        return nil
      }
      Console.out("patternlock: backlight \(light.name) (0-\(light.maximum), lit at \(light.initial)): switched off when the lock blanks")
      return light
    } catch {
      Console.error(error.message)
      return nil
    }
  }

  /// `--headless`: the lock drawn into a frame buffer in memory, XRGB8888, through the
  /// fbdev back-end (`FBDevLayout.inMemory`: no display type of its own, so no other copy
  /// of the lock's generic code in the binary); the loop asks the lock to stop once the
  /// first frame is shown (`Plan.stopsAfterFirstFrame`). Never an unlock.
  static func lockHeadless(
    _ size: ModeRequest, _ plan: Plan, console: inout LockConsole, judge: inout RunJudge
  ) throws(CommandFailure) -> Ending {
    guard size.refresh == nil, size.width <= 8192, size.height <= 8192 else {
      throw .usage(UsageError("run: --headless takes WIDTHxHEIGHT up to 8192x8192 without a refresh rate, such as 800x480, not \(size.text)"))
    }
    if plan.settings.all.frameFormat == .rgb565 {
      throw .usage(UsageError("run: --headless draws XRGB8888 only; leave out --format rgb565"))
    }
    let opened: FBDevLayout.Opened
    opened = try lifting(CommandFailure.framebuffer) { () throws(FBDevError) in
      try FBDevLayout.inMemory(width: size.width, height: size.height)
    }
    var display = try fbdev(XRGB8888.self, opened)
    var plan = plan
    plan.stopsAfterFirstFrame = true
    return try lock(on: &display, plan, console: &console, judge: &judge)
  }

  /// The fbdev device used when there is no DRM display.
  package static let defaultFBDev = "/dev/fb0"

  /// The lock on an fbdev device, in its own format (RGB565 or XRGB8888).
  static func lockOnFBDev(
    _ path: String, _ plan: Plan, console: inout LockConsole, judge: inout RunJudge
  ) throws(CommandFailure) -> Ending {
    // fbdev has no master to hand over: the splash lets go before the device is opened.
    if plan.handsOverFromSplash { letSplashGo(terminal: console.lent?.control) }
    let opened: FBDevLayout.Opened
    opened = try lifting(CommandFailure.framebuffer) { () throws(FBDevError) in try FBDevLayout.open(path) }
    guard let format = opened.format else {
      throw .framebuffer(.unsupportedLayout(path: path, layout: FBDevLayout.describe(opened.info)))
    }
    if let requested = plan.settings.all.frameFormat, requested != format {
      throw .framebuffer(.formatMismatch(path: path, device: format.name, requested: requested.name))
    }
    if plan.settings.all.dimAfterSeconds > 0 {
      Console.error("dim-after-s: \(path) is an fbdev device, whose backlight the lock does not set, so it does not dim; use the DRM card (device = auto) or set dim-after-s = 0")
    }
    if format == .rgb565 {
      var display = try fbdev(RGB565.self, opened)
      return try lock(on: &display, plan, console: &console, judge: &judge)
    }
    var display = try fbdev(XRGB8888.self, opened)
    return try lock(on: &display, plan, console: &console, judge: &judge)
  }

  static func fbdev<Pixel: PixelStorage>(
    _: Pixel.Type, _ opened: consuming FBDevLayout.Opened
  ) throws(CommandFailure) -> FBDevDisplay<Pixel> {
    // A consumed argument cannot be captured by a closure: lifted by hand.
    do throws(FBDevError) {
      return try FBDevDisplay<Pixel>(opened)
    } catch {
      throw .framebuffer(error)
    }
  }

  /// The udev monitor that reports the KMS display's hotplugs.
  package static func udevMonitor() throws(CommandFailure) -> UdevMonitor {
    return try lifting(CommandFailure.input) { () throws(InputError) in try UdevMonitor(subsystem: "drm") }
  }

  /// The panel's mounting and the user's turn, added.
  package static func combine(_ a: Rotation, _ b: Rotation) -> Rotation {
    Rotation(degrees: (a.degrees + b.degrees) % 360) ?? .none
  }
}
