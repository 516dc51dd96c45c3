import CShim

/// Reads the lines Benchmarks/cairo/run-cairo.sh prints:
/// `{"size":"800x480","figure":"cairo-full","median_us":412.3}`.
///
/// Only those three fields of that one-line shape are read; anything else is a
/// message naming the file and the line.
enum CairoFigures {
  static func read(_ path: String) -> [Figure] {
    let text = contents(of: path)
    var figures: [Figure] = []
    var number = 0
    for line in text.split(separator: "\n") {
      number += 1
      guard let size = field(line, "\"size\":\""), let name = field(line, "\"figure\":\""),
        let median = numberField(line, "\"median_us\":")
      else {
        BenchConsole.fail("\(path) line \(number) is not a cairo_scene figure (rerun Benchmarks/cairo/run-cairo.sh > \(path))")
      }
      figures.append(Figure(name: name, size: size, medianMicroseconds: median))
    }
    return figures
  }

  private static func contents(of path: String) -> String {
    let fd = pl_open(path, Int32(PL_O_RDONLY), 0)
    if fd < 0 {
      BenchConsole.fail("cannot read cairo figures \(path): \(String(cString: pl_strerror(pl_errno()))) (run Benchmarks/cairo/run-cairo.sh > \(path))")
    }
    defer { _ = pl_close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { pl_read(fd, $0.baseAddress, $0.count) }
      if n < 0 { BenchConsole.fail("cannot read cairo figures \(path): \(String(cString: pl_strerror(pl_errno())))") }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
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
