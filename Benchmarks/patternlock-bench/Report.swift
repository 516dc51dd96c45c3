import PatternCore

/// Puts our figures next to cairo's: ratios, goals, allocations and peak RSS, as a
/// table for people or as JSON lines for tools.
struct Report {
  let options: BenchOptions
  /// Ours and cairo's, in measuring order.
  let figures: [Figure]

  private func figure(_ name: String, _ size: String) -> Figure? {
    figures.first { $0.name == name && $0.size == size }
  }

  private func ratio(_ figure: Figure, to name: String) -> Double? {
    guard let other = self.figure(name, figure.size), other.medianMicroseconds > 0 else { return nil }
    return figure.medianMicroseconds / other.medianMicroseconds
  }

  /// The cairo figure each of ours is compared with (like with like).
  private static func cairoCounterpart(_ name: String) -> String? {
    switch name {
    case "full", "full-rgb565": return "cairo-full"
    case "incremental": return "cairo-incremental"
    default: return nil
    }
  }

  private func goal(_ figure: Figure) -> Goal? {
    switch figure.name {
    case "full": return Goal(against: "cairo-full", limit: 0.33, ratio: ratio(figure, to: "cairo-full"))
    case "incremental":
      return Goal(against: "cairo-incremental", limit: 0.3, ratio: ratio(figure, to: "cairo-incremental"))
    case "full-rgb565": return Goal(against: "full", limit: 1.2, ratio: ratio(figure, to: "full"))
    default: return nil
    }
  }

  /// The figures shown for a size: ours, then cairo's (its memset line is left out:
  /// ours measures the same buffer size).
  private func rows(_ size: String) -> [Figure] {
    let order = ["memset", "full", "incremental", "full-rgb565", "cairo-full", "cairo-incremental"]
    return order.compactMap { figure($0, size) }
  }

  private var sizes: [String] { options.sizes.map { "\($0.width)x\($0.height)" } }

  // MARK: JSON

  /// One object per line and figure, then one for the replay's peak RSS.
  func jsonLines() -> [String] {
    var lines: [String] = []
    for size in sizes {
      for f in rows(size) {
        var object = JSONObjectWriter()
        object.add("size", string: size)
        object.add("figure", string: f.name)
        object.add("median_us", raw: Decimal.text(f.medianMicroseconds, digits: 1))
        if let counterpart = Report.cairoCounterpart(f.name), let r = ratio(f, to: counterpart) {
          object.add("vs_cairo", raw: Decimal.text(r, digits: 2))
        }
        if f.name != "memset", let r = ratio(f, to: "memset") { object.add("vs_memset", raw: Decimal.text(r, digits: 1)) }
        if f.name == "full-rgb565", let r = ratio(f, to: "full") { object.add("vs_full", raw: Decimal.text(r, digits: 2)) }
        if let a = f.allocationsPerFrame { object.add("allocations_per_frame", raw: Decimal.text(a, digits: 2)) }
        if let g = goal(f) {
          object.add("goal", string: g.text)
          if let met = g.isMet { object.add("goal_met", raw: met ? "true" : "false") }
        }
        lines.append(object.json)
      }
    }
    if let kib = options.peakRSSKiB {
      var object = JSONObjectWriter()
      object.add("size", string: "1920x1080")
      object.add("figure", string: "replay-peak-rss")
      object.add("peak_rss_kib", kib)
      if let command = options.rssCommand { object.add("command", string: command) }
      lines.append(object.json)
    }
    return lines
  }

  // MARK: Table

  func tableLines() -> [String] {
    var lines: [String] = []
    lines.append(
      "patternlock bench: median of \(options.frames) frames after \(options.warmup) warm-up frames, per figure")
    lines.append("scene: 3x3 grid from GridLayout, dots 1-5-9-6 joined, line on to a finger circling dot 6;")
    lines.append("  no prompt text on either side; cairo_scene.c's colours (solid background, opaque line);")
    lines.append("  radii and line width are our layout's at each size, and cairo is given the same")
    lines.append("incremental: the finger moves ~1/120 turn; both sides redraw only the old+new finger segment's box")
    lines.append("")
    let header = [pad("size", 10), pad("figure", 18), padLeft("median µs", 10), padLeft("vs cairo", 9),
                  padLeft("vs memset", 10), padLeft("allocs/frame", 13), "  goal"]
    lines.append(header.joined())
    for size in sizes {
      for f in rows(size) {
        var vsCairo = "-"
        if let counterpart = Report.cairoCounterpart(f.name), let r = ratio(f, to: counterpart) {
          vsCairo = Decimal.text(r, digits: 2) + "x"
        }
        let vsMemset = f.name == "memset" ? "1.0x" : ratio(f, to: "memset").map { Decimal.text($0, digits: 1) + "x" } ?? "-"
        let allocations = f.allocationsPerFrame.map { Decimal.text($0, digits: 2) } ?? "-"
        var goalText = ""
        if let g = goal(f) {
          let measured = g.ratio.map { " (\(Decimal.text($0, digits: 2))x)" } ?? ""
          goalText = "  \(g.text)\(measured): \(g.verdict)"
        }
        lines.append(
          [pad(size, 10), pad(f.name, 18), padLeft(Decimal.text(f.medianMicroseconds, digits: 1), 10),
           padLeft(vsCairo, 9), padLeft(vsMemset, 10), padLeft(allocations, 13), goalText].joined())
      }
    }
    if !figures.contains(where: { $0.name.hasPrefix("cairo-") }) {
      lines.append("(no cairo figures: pass --cairo FILE, or run scripts/bench)")
    }
    if let kib = options.peakRSSKiB {
      lines.append("")
      let command = options.rssCommand.map { " of `\($0)`" } ?? ""
      lines.append("peak RSS\(command): \(kib) KiB (\(Decimal.text(Double(kib) / 1024, digits: 1)) MiB)")
    }
    return lines
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  private func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
