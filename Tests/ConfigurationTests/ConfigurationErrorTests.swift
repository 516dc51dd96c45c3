import CommandTestSupport
import Configuration
import Foundation
import Raster
import SystemCalls
import XCTest

/// Every kind of bad file, each named with its file and line (the executable's one-line
/// message with exit status 2 is in CommandLineTests).
final class ConfigurationErrorTests: XCTestCase {
  var root: ConfigRoot!

  override func setUpWithError() throws { root = try ConfigRoot() }
  override func tearDown() { root.remove() }

  /// Applies `text` as one file and returns the error it raised.
  func error(for text: String, file: String = "test.conf") throws -> (ConfigurationError, String) {
    let path = try root.write(file, text)
    var settings = Settings()
    do {
      try ConfigurationFiles.apply(path, to: &settings)
    } catch {
      return (error, path)
    }
    XCTFail("no error for \(text.debugDescription)")
    throw CancellationError()
  }

  func testLineWithoutEqualsIsASyntaxErrorOnItsLine() throws {
    let (e, path) = try error(for: "[layout]\n# fine\ngrid 3\n")
    XCTAssertEqual(e, .syntax(path: path, line: 3))
    XCTAssertTrue(e.message.hasPrefix("\(path):3: cannot parse this line"), e.message)
  }

  func testUnclosedSectionIsASyntaxError() throws {
    let (e, path) = try error(for: "[layout]\ngrid = 3\n[lock\n")
    XCTAssertEqual(e, .syntax(path: path, line: 3))
  }

  func testUnknownSectionIsNamedEvenWithoutKeys() throws {
    let (e, path) = try error(for: "[layout]\ngrid = 3\n\n[colours]\n")
    XCTAssertEqual(e, .unknownSection(path: path, line: 4, section: "colours"))
    XCTAssertEqual(e.message, "\(path):4: unknown section [colours] (sections are [layout], [display], [input], [lock], [theme], [actions], [vault], [mqtt]; see patternlock.conf(5))")
  }

  func testKeyBeforeAnySectionSaysWhichSectionItBelongsIn() throws {
    let (e, path) = try error(for: "grid = 3\n")
    XCTAssertEqual(e, .keyOutsideSection(path: path, line: 1, key: "grid"))
    XCTAssertEqual(e.message, "\(path):1: key 'grid' is outside any section (put it under [layout])")
  }

  func testUnknownKeyListsTheKeysOfItsSection() throws {
    let (e, path) = try error(for: "[input]\nseat = seat0\ntouchscreen = yes\n")
    XCTAssertEqual(e, .unknownKey(path: path, line: 3, section: "input", key: "touchscreen"))
    XCTAssertEqual(e.message, "\(path):3: unknown key 'touchscreen' in [input] (keys there: seat, calibration, input; see patternlock.conf(5))")
  }

  func testKeyInTheWrongSectionSaysWhereItBelongs() throws {
    let (e, path) = try error(for: "[lock]\ngrid = 3\n")
    XCTAssertEqual(e, .wrongSection(path: path, line: 2, section: "lock", key: .grid))
    XCTAssertEqual(e.message, "\(path):2: key 'grid' belongs in [layout], not [lock] (move it)")
  }

  func testKeyTwiceInOneFileNamesBothLines() throws {
    let (e, path) = try error(for: "[layout]\ngrid = 3\n[lock]\n[layout]\ngrid = 4\n")
    XCTAssertEqual(e, .duplicateKey(path: path, line: 5, key: .grid, firstLine: 2))
  }

  func testIndentedLineIsReportedAsAContinuationOfTheKeyAbove() throws {
    let (e, path) = try error(for: "[layout]\ngrid = 3\n  hit-radius = 600\n")
    XCTAssertEqual(e, .duplicateKey(path: path, line: 3, key: .grid, firstLine: 2))
    XCTAssertTrue(e.message.contains("an indented line continues the key above it"), e.message)
  }

  func testBadValueNamesFileLineKeyAndValue() throws {
    let (e, path) = try error(for: "[lock]\n; a comment\nstealth = maybe ; inline comment\n")
    XCTAssertEqual(e, .badValue(origin: .file(path: path, line: 3), key: .stealth, value: "maybe"))
    XCTAssertEqual(e.message, "\(path):3: stealth cannot be 'maybe': it takes yes or no (also true/false, on/off, 1/0)")
  }

  func testBadColourNamesFileLineKeyAndWhatAColourIs() throws {
    let (e, path) = try error(for: "[theme]\ntheme = light\n# a typo:\ncolour-line = #0A6ED\n")
    XCTAssertEqual(e, .badValue(origin: .file(path: path, line: 4), key: .colourLine, value: "#0A6ED"))
    XCTAssertEqual(
      e.message,
      "\(path):4: colour-line cannot be '#0A6ED': it takes 'theme' (the theme's colour) or #RRGGBB, or #RRGGBBAA with an opacity, in hexadecimal, such as #20D2FE")
  }

  func testColourValuesKeepTheirHashAndAnInlineCommentIsNotPartOfThem() throws {
    let path = try root.write("colours.conf", "[theme]\ncolour-text = #FFFFFF ; white\ncolour-wrong = #ff7a7a\n")
    var settings = Settings()
    try ConfigurationFiles.apply(path, to: &settings)
    XCTAssertEqual(settings.themeOverrides.text, Color(255, 255, 255))
    XCTAssertEqual(settings.themeOverrides.wrong, Color(255, 122, 122))
  }

  func testLineLongerThanLibinihsBufferIsRefusedNotSplit() throws {
    let long = "# " + String(repeating: "x", count: 300)
    let (e, path) = try error(for: "[layout]\n\(long)\ngrid = 3\n")
    // libinih's 200-byte buffer holds 198 characters, the newline and the NUL.
    XCTAssertEqual(e, .lineTooLong(path: path, line: 2, limit: 198))
  }

  func testNulByteIsNotText() throws {
    let (e, path) = try error(for: "[layout]\ngrid = 3\u{0}\n")
    XCTAssertEqual(e, .notText(path: path, line: 2))
  }

  func testDirectoryGivenAsConfigIsRefused() throws {
    let directory = root.path + "/adir"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: directory)) { error in
      XCTAssertEqual(error as? ConfigurationError, .notARegularFile(path: directory, kind: "a directory"))
    }
  }

  func testHugeFileIsRefusedBeforeReading() throws {
    let path = try root.write("huge.conf", String(repeating: "#\n", count: 600_000))
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: path)) { error in
      XCTAssertEqual(error as? ConfigurationError, .tooLarge(path: path, bytes: 1_200_000))
    }
  }

  func testConfDThatIsNotADirectoryCannotBeRead() throws {
    let path = try root.write("etc/patternlock.conf.d", "not a directory\n")
    XCTAssertThrowsError(try ConfigurationFiles.layerPaths(root: root.path)) { error in
      XCTAssertEqual(error as? ConfigurationError, .cannotRead(path: path, call: "open", errno: .notADirectory))
    }
  }

  /// Writes `count` drop-ins, each setting `grid` to 3 but the last, which sets 5.
  func writeDropIns(_ count: Int) throws {
    for index in 1...count {
      try root.write(String(format: "etc/patternlock.conf.d/%04d.conf", index), "[layout]\ngrid = \(index == count ? 5 : 3)\n")
    }
  }

  func testMoreDropInsThanTheBoundIsOneClearError() throws {
    try writeDropIns(ConfigurationFiles.maximumDropIns + 1)
    let directory = root.path + "/etc/patternlock.conf.d"
    XCTAssertThrowsError(try ConfigurationFiles.load(root: root.path, extra: nil)) { error in
      XCTAssertEqual(error as? ConfigurationError, .tooManyDropIns(path: directory, count: 257, maximum: 256))
      XCTAssertEqual(
        (error as? ConfigurationError)?.message,
        "configuration directory \(directory) holds 257 .conf files, more than the 256 patternlock reads (merge them into fewer files)")
    }
  }

  func testDropInsUpToTheBoundAreAllReadInOrder() throws {
    try writeDropIns(ConfigurationFiles.maximumDropIns)
    try root.write("etc/patternlock.conf.d/notes.txt", "not a drop-in, not counted\n")
    let paths = try ConfigurationFiles.layerPaths(root: root.path)
    XCTAssertEqual(paths.count, 256)
    XCTAssertEqual(paths.last, root.path + "/etc/patternlock.conf.d/0256.conf")
    XCTAssertEqual(try ConfigurationFiles.load(root: root.path, extra: nil).layout.gridSize, 5, "the last file wins")
  }

  func testCommentsBlankLinesAndByteOrderMarkAreFine() throws {
    let path = try root.write("ok.conf", "\u{FEFF}# comment\n; comment\n\n[layout]\n  # indented comment\ngrid=4\n[lock]\nstealth = yes ; inline\n")
    var settings = Settings()
    try ConfigurationFiles.apply(path, to: &settings)
    XCTAssertEqual(settings.layout.gridSize, 4)
    XCTAssertTrue(settings.stealth)
    XCTAssertEqual(settings.origins[.stealth], .file(path: path, line: 8))
  }
}
