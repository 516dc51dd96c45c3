import KMS
import PatternCore

/// A screen the event loop shows frames on: the real one (`KMSDisplay`) or memory
/// (`HeadlessDisplay`, for tests and frame dumps).
///
/// Used only as a generic constraint (`some Display`), never as an existential, so
/// the loop is specialised per back-end (Embedded Swift has no non-class
/// existentials).
protocol Display: ~Copyable {
  /// Panel width in pixels.
  var width: Int { get }
  /// Panel height in pixels.
  var height: Int { get }
  /// The descriptor to poll for the display's events, or -1 for none.
  var pollDescriptor: Int32 { get }
  /// Whether a presented frame is still waiting for vblank.
  var isFlipPending: Bool { get }
  /// Shows the frame in `shadow` (XRGB8888, `width` pixels per row); `damage` says
  /// what changed since the last call. Returns false when nothing could be shown.
  mutating func show(_ shadow: [UInt32], damage: Rect) throws(DisplayFailure) -> Bool
  /// Handles the display's events when its descriptor is readable; returns the time a
  /// flip completed (CLOCK_MONOTONIC microseconds), if one did.
  mutating func completeFlip() throws(DisplayFailure) -> UInt64?
  /// Looks at the output again after a hotplug event; true when everything must be
  /// shown again (the output came back).
  mutating func hotplug() throws(DisplayFailure) -> Bool
  /// Whether the output is switched off (idle blanking); nothing is shown until
  /// `switchOn`.
  var isOutputOff: Bool { get }
  /// Switches the output off (DPMS off). Throws when the display cannot, changing
  /// nothing: the caller then blanks by showing black frames.
  mutating func switchOff() throws(DisplayFailure)
  /// Switches the output on again, showing the whole of `shadow` at once.
  mutating func switchOn(showing shadow: [UInt32]) throws(DisplayFailure)
}

/// A display error, already worded for the user.
struct DisplayFailure: Error {
  let message: String
}

extension KMSDisplay: Display {
  mutating func show(_ shadow: [UInt32], damage: Rect) throws(DisplayFailure) -> Bool {
    do throws(KMSError) {
      return try present(shadow: shadow, damage: damage)
    } catch {
      throw DisplayFailure(message: error.message)
    }
  }

  mutating func completeFlip() throws(DisplayFailure) -> UInt64? {
    do throws(KMSError) {
      return try handleEvents()
    } catch {
      throw DisplayFailure(message: error.message)
    }
  }

  mutating func switchOff() throws(DisplayFailure) {
    do throws(KMSError) {
      try switchOutputOff()
    } catch {
      throw DisplayFailure(message: error.message)
    }
  }

  mutating func switchOn(showing shadow: [UInt32]) throws(DisplayFailure) {
    do throws(KMSError) {
      try switchOutputOn(showing: shadow)
    } catch {
      throw DisplayFailure(message: error.message)
    }
  }

  mutating func hotplug() throws(DisplayFailure) -> Bool {
    do throws(KMSError) {
      switch try reprobe() {
      case .disconnected:
        Console.error("output \(outputName) on \(path) was disconnected; waiting for it to come back")
        return false
      case .reconnected: return true
      case .unchanged: return false
      }
    } catch {
      throw DisplayFailure(message: error.message)
    }
  }
}

/// A display in memory: frames are copied (damage only, like KMS) into `frame`, and
/// every present completes at once.
///
/// It cannot switch off unless made with `canSwitchOff` (the seam the idle-blanking
/// tests use in place of a DRM driver): by default blanking paints it black, so
/// headless frames look as they always did.
struct HeadlessDisplay: Display {
  let width: Int
  let height: Int
  /// What the screen's memory holds (shown unless `isOutputOff`).
  private(set) var frame: [UInt32]
  /// How many frames were presented.
  private(set) var presented = 0
  /// How many times the output was switched off and on again.
  private(set) var switchedOff = 0, switchedOn = 0
  /// How many times switching off was refused (`canSwitchOff` false).
  private(set) var refusedSwitchOffs = 0
  private(set) var isOutputOff = false
  private let canSwitchOff: Bool
  var isFlipPending: Bool { false }
  var pollDescriptor: Int32 { -1 }

  /// - Parameter canSwitchOff: whether `switchOff` works, as on a driver with DPMS;
  ///   false refuses it, as a driver without.
  init(width: Int, height: Int, canSwitchOff: Bool = false) {
    self.width = width
    self.height = height
    self.canSwitchOff = canSwitchOff
    frame = [UInt32](repeating: 0, count: width * height)
  }

  mutating func switchOff() throws(DisplayFailure) {
    precondition(!isOutputOff, "switchOff while the output is already off")
    guard canSwitchOff else {
      refusedSwitchOffs += 1
      throw DisplayFailure(message: "the headless display has no power to switch off")
    }
    isOutputOff = true
    switchedOff += 1
  }

  mutating func switchOn(showing shadow: [UInt32]) throws(DisplayFailure) {
    precondition(isOutputOff, "switchOn while the output is on")
    // The whole frame, and no present counted: KMS queues no flip either.
    copy(shadow, damage: Rect(x: 0, y: 0, width: width, height: height))
    isOutputOff = false
    switchedOn += 1
  }

  mutating func show(_ shadow: [UInt32], damage: Rect) throws(DisplayFailure) -> Bool {
    precondition(!isOutputOff, "show while the output is switched off")
    copy(shadow, damage: damage)
    presented += 1
    return true
  }

  private mutating func copy(_ shadow: [UInt32], damage: Rect) {
    let (w, h) = (width, height)
    _ = shadow.withUnsafeBytes { source in
      frame.withUnsafeMutableBytes { destination in
        DamageCopy.copy(
          from: source, sourceStride: w * 4, to: destination, destinationStride: w * 4,
          width: w, height: h, bytesPerPixel: 4, damage: damage)
      }
    }
  }

  mutating func completeFlip() throws(DisplayFailure) -> UInt64? { nil }
  mutating func hotplug() throws(DisplayFailure) -> Bool { false }
}
