import CShim

/// The bench's command line.
///
///     patternlock-bench [--size WxH]... [--frames N] [--warmup N] [--json]
///                       [--only FIGURE [--allocations]] [--dump DIR] [--cairo FILE] [--peak-rss-kib N] [--rss-command TEXT]
///     patternlock-bench --figures FILE [--size WxH]... [--json] [--peak-rss-kib N] [--rss-command TEXT]
struct BenchOptions {
  var sizes: [(width: Int, height: Int)] = []
  /// Timed frames per figure (the brief asks for at least 300).
  var frames = 300
  /// Untimed frames before each figure.
  var warmup = 30
  /// One JSON object per line instead of the table.
  var json = false
  /// cairo_scene's JSON lines, to compare with.
  var cairoPath: String?
  /// Measure only this figure (and count no allocations): fewer than 300 frames
  /// are then allowed, for instruction counts.
  var only: String?
  /// Count allocations even with `only` (scripts/bench does in its first round).
  var allocations = false
  /// Measure nothing: report the figure lines of several rounds of both sides
  /// (each line with a `"round"`), as scripts/bench collects them.
  var figuresPath: String?
  /// Write each figure's last frame as PNG into this directory.
  var dumpDirectory: String?
  /// Peak RSS of the 1920x1080 replay, measured by the script.
  var peakRSSKiB: Int?
  /// The command whose peak RSS that is, for the table.
  var rssCommand: String?
  /// Print the bench scene's layout for this size as `patternlock layout` JSON
  /// (for cairo_scene's `--layout`) and measure nothing.
  var layoutJSONSize: (width: Int, height: Int)?

  static let usage = """
    usage: patternlock-bench [--size WxH]... [--frames N] [--warmup N] [--json]
                             [--only FIGURE [--allocations]] [--dump DIR] [--cairo FILE]
                             [--peak-rss-kib N] [--rss-command TEXT]
           patternlock-bench --figures FILE [--size WxH]... [--json]
                             [--peak-rss-kib N] [--rss-command TEXT]
           patternlock-bench --layout-json WxH
      --size WxH          a size to measure (default 800x480, 1280x720 and 1920x1080)
      --frames N          timed frames per figure, at least 300 (default 300; at least 1 with --only)
      --warmup N          untimed frames before each figure (default 30)
      --json              one JSON object per line and figure instead of a table
      --only FIGURE       measure only memset, full, incremental or full-rgb565, no allocations
      --allocations       with --only, count the figure's allocations per frame as well
      --dump DIR          write each figure's last frame as DIR/ours-WxH-FIGURE.png
      --cairo FILE        cairo_scene's JSON lines (Benchmarks/cairo/run-cairo.sh) to compare with
      --figures FILE      measure nothing: report rounds of both sides' JSON lines, each with "round"
      --peak-rss-kib N    peak RSS of a 1920x1080 replay, to print with the figures
      --rss-command TEXT  the command that peak RSS was measured on
      --layout-json WxH   print the scene's layout as 'patternlock layout' JSON and exit
    Run scripts/bench rather than this directly: it builds in release mode, runs this
    and the cairo reference (with the same layout) alternately for several rounds,
    measures the replay's peak RSS, and counts instructions per frame with --instructions.
    """

  /// Parses the process's arguments; exits with a one-line message on a bad one.
  static func parse() -> BenchOptions {
    var options = BenchOptions()
    var i = 1
    var framesText: String?
    func value(_ option: String) -> String {
      guard let pointer = pl_argument(Int32(i + 1)) else {
        BenchConsole.fail("\(option) needs a value (see --help)")
      }
      i += 1
      return String(cString: pointer)
    }
    while let pointer = pl_argument(Int32(i)) {
      let argument = String(cString: pointer)
      switch argument {
      case "--help", "-h":
        BenchConsole.out(usage)
        pl_exit(0)
      case "--size": options.sizes.append(size(value(argument)))
      case "--frames": framesText = value(argument)
      case "--warmup": options.warmup = count(value(argument), option: argument, minimum: 0)
      case "--json": options.json = true
      case "--cairo": options.cairoPath = value(argument)
      case "--dump": options.dumpDirectory = value(argument)
      case "--figures": options.figuresPath = value(argument)
      case "--allocations": options.allocations = true
      case "--only":
        let figure = value(argument)
        guard SizeBench.figureNames.contains(figure) else {
          BenchConsole.fail("--only takes memset, full, incremental or full-rgb565, not '\(figure)'")
        }
        options.only = figure
      case "--peak-rss-kib": options.peakRSSKiB = count(value(argument), option: argument, minimum: 1)
      case "--rss-command": options.rssCommand = value(argument)
      case "--layout-json": options.layoutJSONSize = size(value(argument))
      default: BenchConsole.fail("unknown option '\(argument)' (see --help)")
      }
      i += 1
    }
    // Fewer than 300 frames only for one figure at a time (instruction counts).
    if let text = framesText {
      options.frames = count(text, option: "--frames", minimum: options.only == nil ? 300 : 1)
    }
    if options.sizes.isEmpty { options.sizes = [(800, 480), (1280, 720), (1920, 1080)] }
    return options
  }

  private static func count(_ text: String, option: String, minimum: Int) -> Int {
    guard let n = integer(text), n >= minimum, n <= 1_000_000 else {
      BenchConsole.fail("\(option) takes a whole number from \(minimum) to 1000000, not '\(text)'")
    }
    return n
  }

  private static func size(_ text: String) -> (width: Int, height: Int) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = integer(String(parts[0])), let h = integer(String(parts[1])) else {
      BenchConsole.fail("--size takes WIDTHxHEIGHT in pixels, such as 800x480, not '\(text)'")
    }
    return (w, h)
  }

  private static func integer(_ text: String) -> Int? {
    var value = 0
    for c in text.utf8 {
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"), value < 100_000_000 else { return nil }
      value = value * 10 + Int(c - UInt8(ascii: "0"))
    }
    return text.isEmpty ? nil : value
  }
}
