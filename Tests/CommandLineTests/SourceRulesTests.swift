import CommandTestSupport
import Foundation
import XCTest

/// The rules docs/architecture.md writes down about the modules, checked against
/// Package.swift and the sources: every target is named there, modules import along
/// the layering rule (its sideways edges listed with their reasons), and only
/// SystemCalls calls the C shim functions it wraps.
final class SourceRulesTests: XCTestCase {
  struct Target {
    let name: String
    let dependencies: [String]
    /// A test, a test's support, a tool or a benchmark: never a product module.
    let isProduct: Bool
  }

  static let pure: [String: Set<String>] = [
    "PatternCore": [],
    "PatternChoice": ["PatternCore"],
    "LockEvents": ["PatternCore"],
    "Raster": ["PatternCore"],
    "Scene": ["PatternCore", "Raster"],
    "Screen": ["PatternCore", "Raster", "Scene"],
  ]

  /// The programs and what only they share, above every other module: the start-up
  /// kit, the lock's commands and loop, and the four executables.
  static let executables: Set<String> = ["patternlock", "patternlock-session-lock", "patternlock-recording", "patternlock-mqtt"]
  static let programLayer = executables.union(["CommandKit", "LockProgram"])

  static func text(_ path: String) throws -> String {
    try String(contentsOf: PackageRoot.url.appendingPathComponent(path), encoding: .utf8)
  }

  /// Every target Package.swift declares, with its dependencies.
  static func targets() throws -> [Target] {
    let manifest = try text("Package.swift")
    let start = try NSRegularExpression(pattern: #"\.(target|systemLibrary|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#)
    let dependencyList = try NSRegularExpression(pattern: #"dependencies:\s*\[([^\]]*)\]"#)
    let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
    let whole = manifest as NSString
    let matches = start.matches(in: manifest, range: NSRange(location: 0, length: whole.length))
    var targets: [Target] = []
    for (i, match) in matches.enumerated() {
      let name = whole.substring(with: match.range(at: 2))
      // The fuzz harnesses' names are made in a loop: not a name to look for.
      if name.contains("\\(") { continue }
      let end = i + 1 < matches.count ? matches[i + 1].range.location : whole.length
      let chunk = whole.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
      var dependencies: [String] = []
      if let list = dependencyList.firstMatch(in: chunk, range: NSRange(location: 0, length: (chunk as NSString).length)) {
        let inner = (chunk as NSString).substring(with: list.range(at: 1))
        dependencies = quoted.matches(in: inner, range: NSRange(location: 0, length: (inner as NSString).length))
          .map { (inner as NSString).substring(with: $0.range(at: 1)) }
      }
      let kind = whole.substring(with: match.range(at: 1))
      let elsewhere = ["path: \"Tests/", "path: \"Tools/", "path: \"Benchmarks/", "path: \"Fuzz/"].contains { chunk.contains($0) }
      targets.append(Target(name: name, dependencies: dependencies, isProduct: kind != "testTarget" && !elsewhere))
    }
    return targets
  }

  static func isCTarget(_ name: String) -> Bool {
    name.count > 1 && name.hasPrefix("C") && name.dropFirst().first!.isUppercase
  }

  func testEveryTargetIsNamedInTheArchitecture() throws {
    let architecture = try Self.text("docs/architecture.md")
    let targets = try Self.targets()
    XCTAssertGreaterThan(targets.count, 40, "Package.swift was read")
    for target in targets where !target.name.hasSuffix("Tests") {
      let pattern = "(^|[^A-Za-z0-9-])" + NSRegularExpression.escapedPattern(for: target.name) + "($|[^A-Za-z0-9-])"
      XCTAssertNotNil(
        architecture.range(of: pattern, options: .regularExpression),
        "\(target.name) is a target of Package.swift but docs/architecture.md does not name it")
    }
  }

  /// The sideways edges docs/architecture.md allows: lines "  - A -> B: why".
  static func allowedSidewaysEdges() throws -> Set<String> {
    var edges: Set<String> = []
    for line in try text("docs/architecture.md").split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("- "), let arrow = trimmed.range(of: " -> "), let colon = trimmed.range(of: ":") else { continue }
      let from = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<arrow.lowerBound]
      let to = trimmed[arrow.upperBound..<colon.lowerBound]
      edges.insert("\(from) -> \(to)")
    }
    return edges
  }

  func testModulesImportAlongTheLayeringRule() throws {
    let allowed = try Self.allowedSidewaysEdges()
    XCTAssertEqual(allowed.count, 3, "\(allowed)")
    var used: Set<String> = []
    for target in try Self.targets() where target.isProduct && !Self.programLayer.contains(target.name) {
      for dependency in target.dependencies {
        XCTAssertFalse(Self.programLayer.contains(dependency), "\(target.name) imports \(dependency), a module of the programs above it")
        if let pureDependencies = Self.pure[target.name] {
          XCTAssertTrue(pureDependencies.contains(dependency), "the pure \(target.name) imports \(dependency)")
          continue
        }
        if Self.pure[dependency] != nil || Self.isCTarget(dependency) || dependency == "SystemCalls" { continue }
        let edge = "\(target.name) -> \(dependency)"
        XCTAssertTrue(allowed.contains(edge), "\(edge) is a sideways edge docs/architecture.md does not list")
        used.insert(edge)
      }
    }
    XCTAssertEqual(used, allowed, "every edge the page allows is one Package.swift has")
  }

  /// Within the programs' layer: no one imports an executable, the start-up kit
  /// imports nothing of the lock's, and the reporter nothing that links a display,
  /// input, vault or TPM library.
  func testTheProgramsLayerPointsOneWay() throws {
    let targets = try Self.targets()
    for target in targets {
      for dependency in target.dependencies where Self.executables.contains(dependency) {
        XCTFail("\(target.name) imports the executable \(dependency)")
      }
    }
    let kit = try XCTUnwrap(targets.first { $0.name == "CommandKit" })
    XCTAssertFalse(kit.dependencies.contains("LockProgram"))
    let reporter = try XCTUnwrap(targets.first { $0.name == "patternlock-mqtt" })
    for module in ["LockProgram", "KMS", "Input", "Vault", "TPM", "FBDev", "Wayland", "Typeface", "PNGImage"] {
      XCTAssertFalse(reporter.dependencies.contains(module), "patternlock-mqtt imports \(module)")
    }
    let lock = try XCTUnwrap(targets.first { $0.name == "patternlock" })
    let lockProgram = try XCTUnwrap(targets.first { $0.name == "LockProgram" })
    for module in ["Wayland", "MQTT", "Recording", "PNGImage"] {
      XCTAssertFalse(lock.dependencies.contains(module) || lockProgram.dependencies.contains(module), "the lock imports \(module)")
    }
  }

  func testOnlySystemCallsCallsTheShimFunctionsItWraps() throws {
    let sources = PackageRoot.url.appendingPathComponent("Sources")
    let call = try NSRegularExpression(pattern: #"\bpl_[a-z0-9_]+(?=\()"#)
    func calls(in file: URL) throws -> Set<String> {
      let text = try String(contentsOf: file, encoding: .utf8)
      return Set(call.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
        .map { (text as NSString).substring(with: $0.range) })
    }
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    var wrapped: Set<String> = []
    for file in files where file.path.contains("/Sources/SystemCalls/") { wrapped.formUnion(try calls(in: file)) }
    XCTAssertTrue(wrapped.contains("pl_geteuid") && wrapped.contains("pl_getenv"), "SystemCalls was read")
    for file in files where !file.path.contains("/Sources/SystemCalls/") {
      for name in try calls(in: file).intersection(wrapped) {
        XCTAssertTrue(false, "\(file.lastPathComponent) calls \(name) directly: use its SystemCalls wrapper")
      }
    }
  }
}
