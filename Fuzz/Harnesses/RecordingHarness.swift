// FuzzHarnesses: what each libFuzzer harness does with one input, as plain functions.
//
// The libFuzzer entry points (Fuzz/Entry/<harness>, built only by scripts/fuzz with
// `-sanitize=fuzzer,address`) and FuzzRegressionTests (the normal XCTest suite, which
// replays Fuzz/Regressions/<harness>/*) both call these, so a committed crash input
// goes through exactly the code the fuzzer ran it on.
//
// A harness must never crash on any input: every error a parser throws is expected
// (bad input is the point), and only a trap, a sanitizer report, a leak or a hang is
// a finding. Test support only: never a product dependency, never built as Embedded
// Swift.
import PatternCore
import Recording

/// `patternlock replay` without the file read: parse a `libinput record` capture,
/// convert it to touch events for several panels, and track the gestures.
public enum RecordingHarness {
  /// Layouts at the edges of what `LayoutOptions.validate` allows (every rotation,
  /// the smallest and largest sides, every grid size), so the conversion's
  /// scaling and the tracker's hit tests see extreme panels, not only 800x480.
  static let layouts: [GridLayout] = [
    LayoutOptions(),
    LayoutOptions(panelWidth: 240, panelHeight: 3840, rotation: .clockwise90, gridSize: 7, hitRadiusPerMille: 100),
    LayoutOptions(panelWidth: 3840, panelHeight: 240, rotation: .upsideDown, gridSize: 4, hitRadiusPerMille: 1000),
    LayoutOptions(panelWidth: 480, panelHeight: 800, rotation: .clockwise270, gridSize: 5, dotsPerInch: 50),
  ].map { try! GridLayout($0) }

  /// Runs one input. An error's message is made too: `replay` prints it, quoting
  /// parts of the file.
  ///
  /// - Parameter bytes: the capture's text (any bytes).
  public static func run(_ bytes: [UInt8]) {
    let recording: Recording
    do throws(RecordingError) {
      recording = try Recording(parsing: bytes, path: "fuzz.yaml")
    } catch {
      _ = error.message
      return
    }
    for layout in layouts {
      do throws(RecordingError) {
        let events = try recording.touchEvents(transform: layout.transform)
        var tracker = GestureTracker(layout: layout)
        for event in events { _ = tracker.handle(event) }
      } catch {
        _ = error.message
      }
    }
  }
}
