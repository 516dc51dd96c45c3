import SystemCalls

/// Reads figure lines: the ones Benchmarks/cairo/run-cairo.sh prints,
/// `{"size":"800x480","figure":"cairo-full","median_us":412.3}`, and our own
/// `--json` lines, which scripts/bench collects over several rounds with a
/// `"round":N` added to each.
///
/// Only `size`, `figure`, `median_us` and, when present, `round` and
/// `allocations_per_frame` are read; a line without the first three is a message
/// naming the file and the line.
enum FigureLines {
  static func read(_ path: String) -> [Figure] {
    let text = contents(of: path)
    var figures: [Figure] = []
    var number = 0
    for line in text.split(separator: "\n") {
      number += 1
      guard let size = field(line, "\"size\":\""), let name = field(line, "\"figure\":\""),
        let median = numberField(line, "\"median_us\":")
      else {
        BenchConsole.fail("\(path) line \(number) is not a figure line (no size, figure or median_us)")
      }
      var figure = Figure(name: name, size: size, medianMicroseconds: median)
      figure.allocationsPerFrame = numberField(line, "\"allocations_per_frame\":")
      if let round = numberField(line, "\"round\":") { figure.round = Int(round) }
      figures.append(figure)
    }
    return figures
  }

  /// A figures file larger than this is not one the bench wrote.
  private static let maximumBytes: Int64 = 1 << 20

  private static func contents(of path: String) -> String {
    do throws(RegularFile.ReadFailure) {
      return String(decoding: try RegularFile.read(atPath: path, limit: maximumBytes), as: UTF8.self)
    } catch {
      let why: String
      switch error {
      case .cannotExamine(let errno), .cannotOpen(let errno): why = errno.text + " (run Benchmarks/cairo/run-cairo.sh > \(path))"
      case .cannotRead(let errno): why = errno.text
      case .notARegularFile(let kind): why = "it is \(kind.phrase), not a file"
      case .tooLarge(let bytes): why = "it is \(bytes) bytes, not a figures file"
      }
      BenchConsole.fail("cannot read figures \(path): \(why)")
    }
  }

  /// The string after `key` up to the next quote.
  private static func field(_ line: Substring, _ key: String) -> String? {
    guard let start = line.firstRange(of: key)?.upperBound else { return nil }
    let rest = line[start...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
  }

  private static func numberField(_ line: Substring, _ key: String) -> Double? {
    guard let start = line.firstRange(of: key)?.upperBound else { return nil }
    return Decimal.parse(line[start...].utf8)
  }
}
