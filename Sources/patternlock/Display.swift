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
struct HeadlessDisplay: Display {
  let width: Int
  let height: Int
  /// What the screen shows.
  private(set) var frame: [UInt32]
  /// How many frames were presented.
  private(set) var presented = 0
  var isFlipPending: Bool { false }
  var pollDescriptor: Int32 { -1 }

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    frame = [UInt32](repeating: 0, count: width * height)
  }

  mutating func show(_ shadow: [UInt32], damage: Rect) throws(DisplayFailure) -> Bool {
    let (w, h) = (width, height)
    _ = shadow.withUnsafeBytes { source in
      frame.withUnsafeMutableBytes { destination in
        DamageCopy.copy(
          from: source, sourceStride: w * 4, to: destination, destinationStride: w * 4,
          width: w, height: h, bytesPerPixel: 4, damage: damage)
      }
    }
    presented += 1
    return true
  }

  mutating func completeFlip() throws(DisplayFailure) -> UInt64? { nil }
  mutating func hotplug() throws(DisplayFailure) -> Bool { false }
}
