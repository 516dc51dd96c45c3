import CommandTestSupport
import Foundation
import PNGImage
import XCTest

/// `patternlock replay --dump`: the frames a person would see, written as PNG files.
final class ReplayDumpTests: XCTestCase {
  private let runner = ReplayCommandTests.self

  private func frames(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }.sorted()
  }

  private func read(_ directory: URL, _ name: String) throws -> RGBAImage {
    do { return try PNGFile.read(from: directory.appendingPathComponent(name).path) } catch {
      XCTFail("cannot read \(name): \(error.message)")
      throw CocoaError(.fileReadCorruptFile)
    }
  }

  private func rgb(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixel(x: x, y: y)
    return [p.red, p.green, p.blue]
  }

  private let accent: [UInt8] = [32, 210, 254]
  private let success: [UInt8] = [72, 220, 120]
  private let idleDot: [UInt8] = [225, 230, 238]

  func testDumpShowsTheGestureFrameByFrameAndEndsIdle() throws {
    let out = try makeTemporaryDirectory()
    let run = try runner.replay([Captures.path("l-shape-1236"), "--dump", out.path, "--pattern", "1-2-3-6"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stdout, "{\"dots\":[1,2,3,6],\"result\":\"complete\",\"match\":true}\n")
    let names = try frames(in: out)
    XCTAssertGreaterThan(names.count, 20, "one frame per input frame that changes the picture")
    XCTAssertEqual(names.first, "00000.png")
    XCTAssertEqual(names.last, String(format: "%05d.png", names.count - 1), "frames are numbered without gaps")

    let first = try read(out, names[0])
    XCTAssertEqual(first.width, 800)
    XCTAssertEqual(first.height, 480)
    // Idle: every dot centre is the plain dot colour. Dot 1 is at (416, 96), dot 6 at (704, 240).
    XCTAssertEqual(rgb(first, 416, 96), idleDot)
    XCTAssertEqual(rgb(first, 704, 240), idleDot)

    // The accepted frame: the four dots in the success colour, the others plain.
    var sawSuccess = false
    for name in names {
      let frame = try read(out, name)
      if rgb(frame, 704, 240) == success {
        sawSuccess = true
        XCTAssertEqual(rgb(frame, 416, 96), success, name)
        XCTAssertEqual(rgb(frame, 416, 240), idleDot, name)
      }
    }
    XCTAssertTrue(sawSuccess, "no frame shows the accepted pattern")
    // After the verdict's half second the screen is idle again, exactly as it started.
    XCTAssertEqual(try read(out, names.last!), first)
  }

  func testThemeAndColourOptionsShowInTheDump() throws {
    let contrast = try makeTemporaryDirectory()
    let run = try runner.replay([Captures.path("too-short-12"), "--theme", "high-contrast", "--dump", contrast.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let first = try read(contrast, try frames(in: contrast)[0])
    XCTAssertEqual(rgb(first, 416, 96), [255, 255, 255], "high-contrast dots are white")
    XCTAssertEqual(rgb(first, 0, 0), [0, 0, 0], "on black")

    let light = try makeTemporaryDirectory()
    let lit = try runner.replay([
      Captures.path("too-short-12"), "--theme", "light", "--colour-dot", "#112233", "--colour-background-top", "#FFFFFF",
      "--dump", light.path,
    ])
    XCTAssertEqual(lit.status, 0, lit.stderr)
    let picture = try read(light, try frames(in: light)[0])
    XCTAssertEqual(rgb(picture, 416, 96), [0x11, 0x22, 0x33])
    XCTAssertEqual(rgb(picture, 0, 0), [255, 255, 255])
    XCTAssertEqual(rgb(picture, 0, 479), [227, 232, 239], "the light preset's bottom stays")

    let bad = try runner.replay([Captures.path("too-short-12"), "--colour-line", "cyan"])
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.stderr.contains("command line: --colour-line cannot be 'cyan': it takes 'theme'"), bad.stderr)
  }

  func testDumpOfARotatedViewIsInPanelOrientation() throws {
    let out = try makeTemporaryDirectory()
    let run = try runner.replay([Captures.path("rotated-90-1478"), "--rotate", "90", "--dump", out.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let names = try frames(in: out)
    let first = try read(out, names[0])
    XCTAssertEqual([first.width, first.height], [800, 480], "frames are what the panel scans out")
    // View dot 1 is at (96, 276) in the 480x800 view: on the panel, (800 - 276, 96).
    XCTAssertEqual(rgb(first, 800 - 276, 96), idleDot)
    let joinedFirstDot = try names.contains { try rgb(read(out, $0), 800 - 276, 96) == accent }
    XCTAssertTrue(joinedFirstDot, "dot 1 should light up where the panel shows it")
  }

  func testRGB565DumpMatchesXRGBWithinQuantisation() throws {
    let a = try makeTemporaryDirectory(), b = try makeTemporaryDirectory()
    XCTAssertEqual(try runner.replay([Captures.path("too-short-12"), "--dump", a.path]).status, 0)
    XCTAssertEqual(try runner.replay([Captures.path("too-short-12"), "--dump", b.path, "--format", "rgb565"]).status, 0)
    let names = try frames(in: a)
    XCTAssertEqual(names, try frames(in: b))
    let x = try read(a, names[names.count / 2]), y = try read(b, names[names.count / 2])
    var worst = 0
    for i in stride(from: 0, to: x.pixels.count, by: 4) {
      for c in 0..<3 { worst = max(worst, abs(Int(x.pixels[i + c]) - Int(y.pixels[i + c]))) }
    }
    XCTAssertLessThanOrEqual(worst, 12, "RGB565 keeps 5-6 bits a channel and blends in them")
    XCTAssertNotEqual(x, y, "the RGB565 dump should really be RGB565")
  }

  func testContactSheetHoldsEveryFrame() throws {
    let out = try makeTemporaryDirectory()
    let sheet = out.appendingPathComponent("sheet.png")
    let run = try runner.replay([Captures.path("two-gestures"), "--contact-sheet", sheet.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let image = try PNGFile.read(from: sheet.path)
    // 800x480 frames shrunk by 3 to 266x160, six to a row with 2-pixel separators.
    XCTAssertEqual(image.width, 6 * 266 + 7 * 2)
    XCTAssertGreaterThan(image.height, 5 * 160)
  }

  func testBadFrameOptionsAreUsageErrors() throws {
    let run = try runner.replay([Captures.path("too-short-12"), "--dump", "/proc/no-such-dir/x"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.hasPrefix("patternlock: replay: cannot create --dump directory /proc/no-such-dir/x"), run.stderr)
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1)
    let format = try runner.replay([Captures.path("too-short-12"), "--dump", "/tmp", "--format", "bgr233"])
    XCTAssertEqual(format.status, 2)
    XCTAssertEqual(format.stderr, "patternlock: command line: --format cannot be 'bgr233': it takes 'auto', xrgb8888 or rgb565\n")
  }

  func testMissingFontIsReportedOnceAndFramesHaveNoText() throws {
    let out = try makeTemporaryDirectory()
    let run = try runner.replay([Captures.path("too-short-12"), "--dump", out.path, "--font", "/nonexistent/font.ttf"])
    XCTAssertEqual(run.status, 0)
    XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("/nonexistent/font.ttf"), run.stderr)
    XCTAssertGreaterThan(try frames(in: out).count, 3)
  }
}
