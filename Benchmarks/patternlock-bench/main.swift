import PatternCore

// patternlock-bench: patternlock's side of the rendering benchmark (scripts/bench).
//
// Not part of the product and never built as Embedded Swift: it links the test
// suite's malloc-counting interposer (Tests/AllocationCounter) so it can report
// allocations per frame from the very frames it times. The scene and the finger
// path copy scripts/bench/cairo_scene.c's, so every figure has a cairo twin.

let options = BenchOptions.parse()
var figures: [Figure] = []
for size in options.sizes {
  let scene: BenchScene
  do {
    scene = try BenchScene(width: size.width, height: size.height)
  } catch {
    BenchConsole.fail("--size \(size.width)x\(size.height): \(error.message)")
  }
  figures += SizeBench(scene: scene, frames: options.frames, warmup: options.warmup).run()
}
if let path = options.cairoPath { figures += CairoFigures.read(path) }
let report = Report(options: options, figures: figures)
for line in options.json ? report.jsonLines() : report.tableLines() { BenchConsole.out(line) }
