import PatternCore

/// Puts our figures next to the peers' (cairo, LVGL, Qt): ratios, goals,
/// allocations and peak RSS, as a table for people or as JSON lines for tools.
///
/// The figures may come from several rounds (scripts/bench alternates the two
/// sides so that both see the same load): a figure's time is the median of its
/// per-round medians, and a ratio is the median of the per-round ratios, with the
/// lowest and highest round as its spread.
struct Report {
  let options: BenchOptions
  /// Ours and the peers', in measuring order, from one round or several.
  let figures: [Figure]

  /// A ratio over the rounds that measured both figures.
  struct Ratio {
    let median: Double
    let lowest: Double
    let highest: Double
    let rounds: Int
  }

  private func rounds(_ name: String, _ size: String) -> [Figure] {
    figures.filter { $0.name == name && $0.size == size }
  }

  /// The median over the rounds of one figure's per-round medians.
  private func medianMicroseconds(_ name: String, _ size: String) -> Double? {
    let values = rounds(name, size).map(\.medianMicroseconds)
    return values.isEmpty ? nil : Report.median(values)
  }

  private func ratio(_ name: String, _ size: String, to other: String) -> Ratio? {
    let theirs = rounds(other, size)
    var values: [Double] = []
    for f in rounds(name, size) {
      guard let o = theirs.first(where: { $0.round == f.round }), o.medianMicroseconds > 0 else { continue }
      values.append(f.medianMicroseconds / o.medianMicroseconds)
    }
    guard let lowest = values.min(), let highest = values.max() else { return nil }
    return Ratio(median: Report.median(values), lowest: lowest, highest: highest, rounds: values.count)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }

  /// The peers, as their figures' prefixes and the JSON keys of their ratios.
  static let peers = [(prefix: "cairo", key: "vs_cairo"), (prefix: "lvgl", key: "vs_lvgl"), (prefix: "qt", key: "vs_qt")]

  /// A peer's figure that one of ours is compared with (like with like).
  private static func counterpart(_ name: String, peer: String) -> String? {
    ["full", "incremental", "full-rgb565"].contains(name) ? "\(peer)-\(name)" : nil
  }

  /// A figure's goals: `full` and `incremental` at most 0.25x cairo's and half of
  /// LVGL's and Qt's (a peer that was not measured has no goal), `full-rgb565` at
  /// most 1.2x our own `full`.
  private func goals(_ name: String, _ size: String) -> [Goal] {
    switch name {
    case "full", "incremental":
      var goals = [Goal(against: "cairo-\(name)", limit: 0.25, ratio: ratio(name, size, to: "cairo-\(name)")?.median)]
      for peer in ["lvgl", "qt"] where !rounds("\(peer)-\(name)", size).isEmpty {
        goals.append(Goal(against: "\(peer)-\(name)", limit: 0.5, ratio: ratio(name, size, to: "\(peer)-\(name)")?.median))
      }
      return goals
    case "full-rgb565": return [Goal(against: "full", limit: 1.2, ratio: ratio(name, size, to: "full")?.median)]
    default: return []
    }
  }

  /// Whether every goal is met; nil when one has no figure to compare with.
  private static func allMet(_ goals: [Goal]) -> Bool? {
    var met = true
    for goal in goals {
      guard let isMet = goal.isMet else { return nil }
      met = met && isMet
    }
    return met
  }

  /// The figures shown for a size: ours, then each peer's (their memset lines are
  /// left out: ours measures the same buffer size).
  private func rows(_ size: String) -> [String] {
    let figures = ["full", "incremental", "full-rgb565"]
    let order = ["memset"] + figures + Report.peers.flatMap { peer in figures.map { "\(peer.prefix)-\($0)" } }
    return order.filter { !rounds($0, size).isEmpty }
  }

  /// The sizes measured, in the order given, or as first met in the figures.
  private var sizes: [String] {
    var sizes = options.sizes.map { "\($0.width)x\($0.height)" }
    for f in figures where !sizes.contains(f.size) { sizes.append(f.size) }
    return sizes.filter { size in figures.contains { $0.size == size } }
  }

  private var roundCount: Int { Set(figures.map(\.round)).count }

  private func allocations(_ name: String, _ size: String) -> Double? {
    rounds(name, size).lazy.compactMap(\.allocationsPerFrame).first
  }

  // MARK: JSON

  /// One object per line and figure, then one for the replay's peak RSS.
  func jsonLines() -> [String] {
    var lines: [String] = []
    func add(_ object: inout JSONObjectWriter, _ key: String, _ r: Ratio) {
      object.add(key, raw: Decimal.text(r.median, digits: 2))
      object.add(key + "_min", raw: Decimal.text(r.lowest, digits: 2))
      object.add(key + "_max", raw: Decimal.text(r.highest, digits: 2))
    }
    for size in sizes {
      for name in rows(size) {
        guard let median = medianMicroseconds(name, size) else { continue }
        var object = JSONObjectWriter()
        object.add("size", string: size)
        object.add("figure", string: name)
        object.add("median_us", raw: Decimal.text(median, digits: 1))
        object.add("rounds", rounds(name, size).count)
        for peer in Report.peers {
          if let counterpart = Report.counterpart(name, peer: peer.prefix), let r = ratio(name, size, to: counterpart) {
            add(&object, peer.key, r)
          }
        }
        if name != "memset", let r = ratio(name, size, to: "memset") {
          object.add("vs_memset", raw: Decimal.text(r.median, digits: 1))
        }
        if name == "full-rgb565", let r = ratio(name, size, to: "full") { add(&object, "vs_full", r) }
        if let a = allocations(name, size) { object.add("allocations_per_frame", raw: Decimal.text(a, digits: 2)) }
        let figureGoals = goals(name, size)
        if !figureGoals.isEmpty {
          object.add("goal", string: figureGoals.map(\.text).joined(separator: ", "))
          if let met = Report.allMet(figureGoals) { object.add("goal_met", raw: met ? "true" : "false") }
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
    let rounds = roundCount
    if rounds > 1 {
      lines.append(
        "patternlock bench: \(rounds) rounds, ours and the peers alternating figure by figure; in each round a figure")
      lines.append(
        "  is the median of \(options.frames) frames after \(options.warmup) warm-up frames; µs and ratios are medians over")
      lines.append("  the rounds, spread is the lowest to the highest round's ratio to cairo")
    } else {
      lines.append(
        "patternlock bench: median of \(options.frames) frames after \(options.warmup) warm-up frames, per figure")
    }
    lines.append("scene: 3x3 grid from GridLayout, dots 1-5-9-6 joined, line on to a finger circling dot 6;")
    lines.append("  no prompt text on any side; one set of colours (solid background, opaque line);")
    lines.append("  radii and line width are our layout's at each size, and every peer is given the same")
    lines.append("incremental: the finger moves ~1/120 turn; ours, cairo and Qt redraw only the old+new finger")
    lines.append("  segment's box, LVGL what its own invalidation of the moved line object decides")
    lines.append("full-rgb565 is compared with the peers' RGB565 figures, its goal with full")
    lines.append("")
    let header = [pad("size", 10), pad("figure", 18), padLeft("median µs", 10), padLeft("vs cairo", 9),
                  padLeft("spread", 12), padLeft("vs LVGL", 8), padLeft("vs Qt", 7), padLeft("vs memset", 10),
                  padLeft("allocs/frame", 13), "  goal"]
    lines.append(header.joined())
    for size in sizes {
      for name in rows(size) {
        guard let median = medianMicroseconds(name, size) else { continue }
        var vsCairo = "-", spread = "-"
        if let counterpart = Report.counterpart(name, peer: "cairo"), let r = ratio(name, size, to: counterpart) {
          vsCairo = Decimal.text(r.median, digits: 2) + "x"
          if r.rounds > 1 { spread = Decimal.text(r.lowest, digits: 2) + "-" + Decimal.text(r.highest, digits: 2) + "x" }
        }
        func versus(_ peer: String) -> String {
          guard let counterpart = Report.counterpart(name, peer: peer), let r = ratio(name, size, to: counterpart) else {
            return "-"
          }
          return Decimal.text(r.median, digits: 2) + "x"
        }
        let vsMemset =
          name == "memset" ? "1.0x" : ratio(name, size, to: "memset").map { Decimal.text($0.median, digits: 1) + "x" } ?? "-"
        let allocationText = allocations(name, size).map { Decimal.text($0, digits: 2) } ?? "-"
        var goalTexts: [String] = []
        for g in goals(name, size) {
          var measured = g.ratio.map { " (\(Decimal.text($0, digits: 2))x" } ?? ""
          if !measured.isEmpty, rounds > 1, let r = ratio(name, size, to: g.against) {
            measured += ", \(Decimal.text(r.lowest, digits: 2))-\(Decimal.text(r.highest, digits: 2))x"
          }
          if !measured.isEmpty { measured += ")" }
          goalTexts.append("\(g.text)\(measured): \(g.verdict)")
        }
        let goalText = goalTexts.isEmpty ? "" : "  " + goalTexts.joined(separator: "; ")
        lines.append(
          [pad(size, 10), pad(name, 18), padLeft(Decimal.text(median, digits: 1), 10),
           padLeft(vsCairo, 9), padLeft(spread, 12), padLeft(versus("lvgl"), 8), padLeft(versus("qt"), 7),
           padLeft(vsMemset, 10), padLeft(allocationText, 13), goalText].joined())
      }
    }
    if !figures.contains(where: { $0.name.hasPrefix("cairo-") }) {
      lines.append("(no cairo figures: pass --cairo FILE, or run scripts/bench)")
    }
    if !figures.contains(where: { $0.name.hasPrefix("lvgl-") }) {
      lines.append("(no LVGL figures: scripts/bench needs its source, see docs/benchmarks.md)")
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
