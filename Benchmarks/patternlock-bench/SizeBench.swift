import AllocationCounter
import PatternCore
import PNGImage
import Raster
import Scene

/// Measures patternlock's figures for one size: the memset floor, full redraws in
/// XRGB8888 and RGB565, and the incremental update where only the finger moved.
///
/// Frame buffers are tightly packed (`width * bytesPerPixel` per row), as cairo's
/// RGB24 surfaces are at these widths. Each figure runs `warmup` untimed frames,
/// then `frames` timed ones; the finger follows the same path as cairo_scene.c's.
struct SizeBench {
  let scene: BenchScene
  let frames: Int
  let warmup: Int
  /// Only this figure, without allocation counts (`--only`), or all of them.
  var only: String? = nil
  /// Count allocations even when `only` names a figure (`--allocations`).
  var allocationsToo = false
  /// Write each figure's last frame here as `ours-WxH-FIGURE.png` (`--dump`), for
  /// the peers' pictures to be compared with: the full figures end on finger frame
  /// `warmup + frames - 1`, the incremental one on `warmup + frames`, as the peers'.
  var dumpDirectory: String? = nil

  /// What `only` may name.
  static let figureNames = ["memset", "full", "incremental", "full-rgb565"]

  var size: String { "\(scene.width)x\(scene.height)" }

  /// All four figures, with allocation counts (or the one `only` names, without
  /// unless `allocationsToo`);
  /// exits with status 1 when the incrementally repaired frame differs from a full
  /// redraw (the incremental figure would then measure a wrong picture).
  func run() -> [Figure] {
    var xrgb = [UInt8](repeating: 0, count: scene.width * scene.height * 4)
    var rgb565 = [UInt8](repeating: 0, count: scene.width * scene.height * 2)
    var figures: [Figure] = []
    func wanted(_ name: String) -> Bool { only == nil || only == name }
    let countAllocations = only == nil || allocationsToo
    if wanted("memset") {
      figures.append(Figure(name: "memset", size: size, medianMicroseconds: memset(&xrgb)))
    }
    if wanted("full") {
      var full = Figure(name: "full", size: size, medianMicroseconds: fullRedraw(&xrgb, as: XRGB8888.self))
      dump(xrgb, .xrgb8888, "full")
      if countAllocations { full.allocationsPerFrame = allocations(&xrgb, as: XRGB8888.self, incremental: false) }
      figures.append(full)
    }
    if wanted("incremental") {
      var incremental = Figure(
        name: "incremental", size: size, medianMicroseconds: incrementalUpdate(&xrgb, as: XRGB8888.self))
      dump(xrgb, .xrgb8888, "incremental")
      if countAllocations {
        incremental.allocationsPerFrame = allocations(&xrgb, as: XRGB8888.self, incremental: true)
      }
      figures.append(incremental)
    }
    if wanted("full-rgb565") {
      var full565 = Figure(
        name: "full-rgb565", size: size, medianMicroseconds: fullRedraw(&rgb565, as: RGB565.self))
      dump(rgb565, .rgb565, "full-rgb565")
      if countAllocations {
        full565.allocationsPerFrame = allocations(&rgb565, as: RGB565.self, incremental: false)
      }
      figures.append(full565)
    }
    return figures
  }

  private func dump(_ frame: [UInt8], _ format: PixelFormat, _ figure: String) {
    guard let directory = dumpDirectory else { return }
    let path = "\(directory)/ours-\(size)-\(figure).png"
    do throws(PNGError) {
      try PNGFile.write(
        to: path, frame: frame, width: scene.width, height: scene.height,
        stride: scene.width * format.bytesPerPixel, format: format)
    } catch {
      BenchConsole.fail("--dump: \(error.message)", status: 1)
    }
  }

  private func memset(_ frame: inout [UInt8]) -> Double {
    var samples = Samples(capacity: frames)
    frame.withUnsafeMutableBytes { bytes in
      for i in -warmup..<frames {
        samples.time(record: i >= 0) {
          bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: i))
        }
      }
    }
    return samples.median
  }

  private func withCanvas<Storage: PixelStorage, R>(
    _ frame: inout [UInt8], as format: Storage.Type, _ body: (Canvas<Storage>) -> R
  ) -> R {
    let (width, height, rasterizer) = (scene.width, scene.height, scene.renderer.rasterizer)
    return frame.withUnsafeMutableBytes { bytes in
      body(Canvas<Storage>(
        pixels: bytes, width: width, height: height, bytesPerRow: width * Storage.bytesPerPixel,
        rasterizer: rasterizer))
    }
  }

  /// The whole scene every frame (damage from no previous state is the whole view).
  private func fullRedraw<Storage: PixelStorage>(_ frame: inout [UInt8], as format: Storage.Type) -> Double {
    var samples = Samples(capacity: frames)
    let renderer = scene.renderer
    withCanvas(&frame, as: format) { canvas in
      for i in -warmup..<frames {
        let state = scene.state(frame: i + warmup)
        samples.time(record: i >= 0) {
          renderer.render(state, into: canvas, damage: renderer.damage(from: nil, to: state))
        }
      }
    }
    return samples.median
  }

  /// From a complete frame, each frame moves the finger one step and redraws only
  /// what `damage(from:to:)` returns: here the union of the old and the new finger
  /// segment's boxes, the rectangle cairo_scene.c clips to.
  private func incrementalUpdate<Storage: PixelStorage>(_ frame: inout [UInt8], as format: Storage.Type) -> Double {
    var samples = Samples(capacity: frames)
    let renderer = scene.renderer
    var previous = scene.state(frame: 0)
    var step = 0
    withCanvas(&frame, as: format) { canvas in
      renderer.render(previous, into: canvas, damage: renderer.damage(from: nil, to: previous))
      for i in -warmup..<frames {
        step += 1
        let state = scene.state(frame: step)
        samples.time(record: i >= 0) {
          renderer.render(state, into: canvas, damage: renderer.damage(from: previous, to: state))
        }
        previous = state
      }
    }
    checkRepaired(frame, state: previous, as: format)
    return samples.median
  }

  /// Exits with status 1 unless the repaired frame equals a full redraw byte for byte.
  private func checkRepaired<Storage: PixelStorage>(_ repaired: [UInt8], state: LockScreenState, as format: Storage.Type) {
    var reference = [UInt8](repeating: 0, count: repaired.count)
    let renderer = scene.renderer
    withCanvas(&reference, as: format) { canvas in
      renderer.render(state, into: canvas, damage: renderer.damage(from: nil, to: state))
    }
    guard let i = repaired.indices.first(where: { repaired[$0] != reference[$0] }) else { return }
    let pixel = i / Storage.bytesPerPixel
    BenchConsole.fail(
      "\(size) incremental frame differs from a full redraw at x \(pixel % scene.width), y \(pixel / scene.width) "
        + "(the damage misses changed pixels; the incremental figure would be meaningless)", status: 1)
  }

  /// Heap allocations per frame over `frames` frames of damage and render.
  private func allocations<Storage: PixelStorage>(
    _ frame: inout [UInt8], as format: Storage.Type, incremental: Bool
  ) -> Double {
    let renderer = scene.renderer
    let count = frames
    var states: [LockScreenState] = []
    states.reserveCapacity(count + 1)
    for i in 0...count { states.append(scene.state(frame: i)) }
    let total = withCanvas(&frame, as: format) { canvas -> Int64 in
      renderer.render(states[0], into: canvas, damage: renderer.damage(from: nil, to: states[0]))
      allocation_counter_start()
      for i in 1...count {
        let damage = renderer.damage(from: incremental ? states[i - 1] : nil, to: states[i])
        renderer.render(states[i], into: canvas, damage: damage)
      }
      return allocation_counter_stop()
    }
    return Double(total) / Double(count)
  }
}
