import CommandTestSupport
import Foundation
import XCTest

/// The display back-ends are peers, as docs/architecture.md's "Adding a back-end"
/// says: each conforms to Screen's `Display` in its own module, the programs add no
/// conformance of their own, and there is one way of presenting.
final class DisplayPeersTests: XCTestCase {
  /// Every Swift file under `folder`, with its text.
  private func sources(under folder: String) throws -> [(path: String, text: String)] {
    let root = PackageRoot.url.appendingPathComponent(folder)
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    var files: [(String, String)] = []
    for case let url as URL in walk where url.pathExtension == "swift" {
      files.append((url.path, try String(contentsOf: url, encoding: .utf8)))
    }
    return files
  }

  private func declares(_ pattern: String, under folder: String) throws -> Bool {
    let expression = try NSRegularExpression(pattern: pattern)
    return try sources(under: folder).contains { file in
      expression.firstMatch(in: file.text, range: NSRange(location: 0, length: (file.text as NSString).length)) != nil
    }
  }

  func testEachBackEndConformsInItsOwnModule() throws {
    XCTAssertTrue(try declares(#"struct KMSPanel<[^>]*>:\s*PanelDisplay"#, under: "Sources/KMS"))
    XCTAssertTrue(try declares(#"struct FBDevDisplay<[^>]*>:\s*PanelDisplay"#, under: "Sources/FBDev"))
    XCTAssertTrue(try declares(#"struct SessionLockDisplay<[^>]*>:\s*Display"#, under: "Sources/Wayland"))
    let page = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    for name in ["KMSPanel", "FBDevDisplay", "SessionLockDisplay"] {
      XCTAssertTrue(page.contains("`\(name)`"), "docs/architecture.md's back-ends do not name \(name)")
    }
  }

  func testTheProgramsAddNoDisplayConformance() throws {
    for folder in ["Sources/LockProgram", "Sources/patternlock", "Sources/patternlock-session-lock", "Sources/patternlock-recording"] {
      for file in try sources(under: folder) {
        let conforms = try NSRegularExpression(pattern: #"(extension|struct|class)\s+\w+[^{]*:\s*[^{]*\b(Display|PanelDisplay)\b\s*[,{]"#)
        let replayDisplays = file.path.hasSuffix("PNGDumpDisplay.swift") || file.path.hasSuffix("PictureCount.swift")
        let found = conforms.firstMatch(in: file.text, range: NSRange(location: 0, length: (file.text as NSString).length)) != nil
        if replayDisplays {
          XCTAssertTrue(found, "\(file.path): replay's PNG and counting panels are panels of their own")
        } else {
          XCTAssertFalse(found, "\(file.path) makes a display conform outside its back-end's module")
        }
      }
    }
  }

  func testThereIsOneWayOfPresenting() throws {
    for file in try sources(under: "Sources") {
      XCTAssertFalse(file.text.contains("drawsStateItself"), "\(file.path) has a second way of presenting")
      XCTAssertFalse(file.text.contains("redrawAtNewSize"), "\(file.path) ends the loop for a new size")
    }
  }
}
