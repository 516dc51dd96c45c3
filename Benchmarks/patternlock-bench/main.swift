import CShim
import PatternCore

// patternlock-bench: patternlock's side of the rendering benchmark (scripts/bench).
//
// Not part of the product and never built as Embedded Swift: it links the test
// suite's malloc-counting interposer (Tests/AllocationCounter) so it can report
// allocations per frame from the very frames it times. The scene and the finger
// path copy Benchmarks/cairo/cairo_scene.c's, so every figure has a cairo twin.

func makeScene(_ size: (width: Int, height: Int)) -> BenchScene {
  do {
    return try BenchScene(width: size.width, height: size.height)
  } catch {
    BenchConsole.fail("--size \(size.width)x\(size.height): \(error.message)")
  }
}

let options = BenchOptions.parse()
if let size = options.layoutJSONSize {
  BenchConsole.out(makeScene(size).layout.json)
  pl_exit(0)
}
var figures: [Figure] = []
if let path = options.figuresPath {
  figures = FigureLines.read(path)
} else {
  for size in options.sizes {
    figures += SizeBench(
      scene: makeScene(size), frames: options.frames, warmup: options.warmup, only: options.only,
      allocationsToo: options.allocations, dumpDirectory: options.dumpDirectory
    ).run()
  }
  // cairo's memset line is left out: ours measures the same buffer.
  if let path = options.cairoPath { figures += FigureLines.read(path).filter { $0.name != "memset" } }
}
let report = Report(options: options, figures: figures)
for line in options.json ? report.jsonLines() : report.tableLines() { BenchConsole.out(line) }
