import PatternCore

/// A frame buffer the rasteriser draws into: caller-owned pixels with a width, a
/// height and a row pitch in bytes, in the format `Storage`.
///
/// This file and `Rasterizer.swift` are Raster's pixel-storage files, the only
/// ones with pointers (STYLE.md). A canvas holds the buffer's address only for as
/// long as it exists: make it inside the buffer's `withPixels` closure and let it
/// end there; never store it.
///
/// Every drawing call takes a clip rectangle and touches no pixel outside
/// `clip ∩ bounds`, never the padding between `width * bytesPerPixel` and
/// `bytesPerRow`, and never a pixel outside the shape's box (see `ShapeBounds`). A
/// pixel's value depends only on its position and the shape, never on the clip, so
/// drawing with clip rectangles that tile a region gives the same bytes as drawing
/// once (the damage-repair guarantee).
///
/// Pixels are loaded and stored with `load(fromByteOffset:as:)`/`storeBytes`, which
/// are defined for any bytes, so the buffer may be a `[UInt8]`, an mmap'd dumb
/// buffer or anything else raw.
public struct Canvas<Storage: PixelStorage> {
  @usableFromInline let base: UnsafeMutableRawPointer
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Bytes from the start of one row to the next (the DRM pitch; often more than
  /// `width * bytesPerPixel`).
  public let bytesPerRow: Int
  /// The set-up state (coverage ramp, scratch rows) the shapes use.
  public let rasterizer: Rasterizer

  /// Wraps a pixel buffer.
  ///
  /// - Parameters:
  ///   - pixels: at least `(height - 1) * bytesPerRow + width * bytesPerPixel` bytes,
  ///     aligned to the pixel size; borrowed, not copied.
  ///   - width: pixels per row, at most `rasterizer.maximumWidth`.
  ///   - height: rows.
  ///   - bytesPerRow: the row pitch, a multiple of the pixel size.
  ///   - rasterizer: the set-up state made for this mode.
  /// - Precondition: the sizes agree with the buffer (a caller bug otherwise).
  public init(
    pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, rasterizer: Rasterizer
  ) {
    let size = Storage.bytesPerPixel
    precondition(width >= 0 && height >= 0, "negative canvas size")
    precondition(width <= rasterizer.maximumWidth, "canvas wider than the rasterizer's maximumWidth")
    precondition(bytesPerRow >= width * size && bytesPerRow % size == 0, "bad row pitch")
    precondition(height == 0 || pixels.count >= (height - 1) * bytesPerRow + width * size, "pixel buffer too small")
    let address = pixels.baseAddress ?? UnsafeMutableRawPointer(bitPattern: size)!
    precondition(Int(bitPattern: address) % size == 0, "pixel buffer not aligned to its pixel size")
    base = address
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.rasterizer = rasterizer
  }

  /// The whole canvas as a rectangle.
  @inlinable public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  /// The stored word at a pixel (for tests and screenshots).
  ///
  /// - Precondition: the pixel is inside the canvas.
  @inlinable public func word(x: Int, y: Int) -> Storage.Word {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the canvas")
    return load(x, y)
  }

  /// The colour shown at a pixel.
  ///
  /// - Precondition: the pixel is inside the canvas.
  @inlinable public func color(x: Int, y: Int) -> Color { Storage.color(of: word(x: x, y: y)) }

  /// Blends an 8-bit coverage mask (a glyph) in a colour with its top-left corner
  /// at pixel `(x, y)`.
  ///
  /// The mask is taken as bytes plus geometry, not as a `GlyphAtlas`, so any mask
  /// source works. Mask value times the colour's alpha is each pixel's opacity.
  ///
  /// - Parameters:
  ///   - mask: the mask bytes; the mask's pixel (mx, my) is at
  ///     `offset + my * stride + mx`.
  ///   - offset: where the mask's top-left byte is in `mask`.
  ///   - width: mask columns.
  ///   - height: mask rows.
  ///   - stride: bytes from one mask row to the next.
  ///   - x: the canvas column of the mask's left edge.
  ///   - y: the canvas row of the mask's top edge.
  ///   - color: the colour.
  ///   - clip: nothing outside it is touched.
  /// - Precondition: the mask lies within `mask` (a caller bug otherwise).
  @inlinable public func blitMask(
    _ mask: UnsafeRawBufferPointer, offset: Int = 0, width: Int, height: Int, stride: Int,
    x: Int, y: Int, color: Color, clip: Rect
  ) {
    if width <= 0 || height <= 0 { return }
    precondition(offset >= 0 && stride >= width, "bad mask geometry")
    precondition(offset + (height - 1) * stride + width <= mask.count, "mask outside its buffer")
    let area = Rect(x: x, y: y, width: width, height: height).intersection(clip).intersection(bounds)
    guard !area.isEmpty, color.a != 0, let bytes = mask.baseAddress else { return }
    for row in area.y..<area.maxY {
      let source = bytes + offset + (row - y) * stride + (area.x - x)
      blendCoverageRow(y: row, from: area.x, to: area.maxX, coverage: source, color: color)
    }
  }

  /// Blends an 8-bit coverage mask stored in an array (a `GlyphAtlas` plane).
  ///
  /// - Parameters: as for the buffer-pointer form.
  @inlinable public func blitMask(
    _ mask: [UInt8], offset: Int = 0, width: Int, height: Int, stride: Int,
    x: Int, y: Int, color: Color, clip: Rect
  ) {
    mask.withUnsafeBytes { bytes in
      blitMask(bytes, offset: offset, width: width, height: height, stride: stride, x: x, y: y, color: color, clip: clip)
    }
  }

  // MARK: Span primitives. Callers have clipped: every x, y here is on the canvas.

  @inlinable @inline(__always)
  func offset(_ x: Int, _ y: Int) -> Int { y &* bytesPerRow &+ x &* MemoryLayout<Storage.Word>.size }

  @inlinable @inline(__always)
  func load(_ x: Int, _ y: Int) -> Storage.Word {
    Storage.Word(littleEndian: base.load(fromByteOffset: offset(x, y), as: Storage.Word.self))
  }

  @inlinable @inline(__always)
  func store(_ word: Storage.Word, _ x: Int, _ y: Int) {
    base.storeBytes(of: word.littleEndian, toByteOffset: offset(x, y), as: Storage.Word.self)
  }

  /// Stores one word over `x0..<x1` of row `y`.
  ///
  /// A span of 16 to 127 bytes (a line's full run, a ring's) takes two vector
  /// stores, the second ending at the span's end and overlapping the first:
  /// storing the same word twice changes nothing, and a full run of 12 words costs
  /// two stores instead of twelve. Longer spans go to `fillLongSpan`, out of line,
  /// so that this stays small enough for the span loops that call it to be inlined
  /// whole (a mask's ten thousand runs a frame each cost a call otherwise).
  @inlinable
  func fillSpan(y: Int, from x0: Int, to x1: Int, word: Storage.Word) {
    let row = base + y &* bytesPerRow
    let value = word.littleEndian
    let size = MemoryLayout<Storage.Word>.size
    let start = x0 &* size, end = x1 &* size
    if (size == 4 || size == 2) && end &- start >= 16 {
      if end &- start >= 128 { return fillLongSpan(y: y, from: x0, to: x1, word: word) }
      let lane = Canvas.lanes(of: value)
      if end &- start >= 64 {
        let block = SIMD16<UInt32>(repeating: lane)
        row.storeBytes(of: block, toByteOffset: start, as: SIMD16<UInt32>.self)
        row.storeBytes(of: block, toByteOffset: end &- 64, as: SIMD16<UInt32>.self)
      } else if end &- start >= 32 {
        let half = SIMD8<UInt32>(repeating: lane)
        row.storeBytes(of: half, toByteOffset: start, as: SIMD8<UInt32>.self)
        row.storeBytes(of: half, toByteOffset: end &- 32, as: SIMD8<UInt32>.self)
      } else {
        let quarter = SIMD4<UInt32>(repeating: lane)
        row.storeBytes(of: quarter, toByteOffset: start, as: SIMD4<UInt32>.self)
        row.storeBytes(of: quarter, toByteOffset: end &- 16, as: SIMD4<UInt32>.self)
      }
      return
    }
    var offset = start
    while offset < end {
      row.storeBytes(of: value, toByteOffset: offset, as: Storage.Word.self)
      offset &+= size
    }
  }

  /// `fillSpan` of 128 bytes or more (of a 2- or 4-byte word): 256 bytes a step
  /// (four `SIMD16<UInt32>` holding the word repeated), then 64 at a time, and
  /// what is left under 64 bytes as one store ending at the span's end. Clearing a
  /// large frame is then little more than its vector stores.
  @inlinable @inline(never)
  func fillLongSpan(y: Int, from x0: Int, to x1: Int, word: Storage.Word) {
    let row = base + y &* bytesPerRow
    let size = MemoryLayout<Storage.Word>.size
    let end = x1 &* size
    let block = SIMD16<UInt32>(repeating: Canvas.lanes(of: word.littleEndian))
    var offset = x0 &* size
    while end &- offset >= 256 {
      row.storeBytes(of: block, toByteOffset: offset, as: SIMD16<UInt32>.self)
      row.storeBytes(of: block, toByteOffset: offset &+ 64, as: SIMD16<UInt32>.self)
      row.storeBytes(of: block, toByteOffset: offset &+ 128, as: SIMD16<UInt32>.self)
      row.storeBytes(of: block, toByteOffset: offset &+ 192, as: SIMD16<UInt32>.self)
      offset &+= 256
    }
    while end &- offset >= 64 {
      row.storeBytes(of: block, toByteOffset: offset, as: SIMD16<UInt32>.self)
      offset &+= 64
    }
    if offset < end { row.storeBytes(of: block, toByteOffset: end &- 64, as: SIMD16<UInt32>.self) }
  }

  /// A 4-byte word, or a 2-byte word twice, as a 32-bit lane: one broadcast fills
  /// a vector with it, and a 2-byte word at any even offset of the lanes reads the
  /// same word.
  @inlinable @inline(__always)
  static func lanes(of value: Storage.Word) -> UInt32 {
    let lane = UInt32(truncatingIfNeeded: value)
    return MemoryLayout<Storage.Word>.size == 4 ? lane : lane & 0xFFFF | lane << 16
  }

  /// Copies `x0..<x1` of row `source` to the same columns of row `y`.
  @inlinable
  func copySpan(fromRow source: Int, toRow y: Int, from x0: Int, to x1: Int) {
    let size = MemoryLayout<Storage.Word>.size
    (base + offset(x0, y)).copyMemory(from: base + offset(x0, source), byteCount: (x1 - x0) * size)
  }

  /// Blends a colour at one opacity over `x0..<x1` of row `y`.
  @inlinable
  func blendSpan(y: Int, from x0: Int, to x1: Int, color: Color, alpha: UInt32) {
    if alpha == 0 { return }
    if alpha >= 255 { return fillSpan(y: y, from: x0, to: x1, word: Storage.word(for: color)) }
    let row = base + y &* bytesPerRow
    let size = MemoryLayout<Storage.Word>.size
    var x = x0
    while x < x1 {
      let old = Storage.Word(littleEndian: row.load(fromByteOffset: x &* size, as: Storage.Word.self))
      row.storeBytes(of: Storage.blend(color, alpha: alpha, over: old).littleEndian, toByteOffset: x &* size,
                     as: Storage.Word.self)
      x &+= 1
    }
  }

  /// Blends a colour over one pixel at a coverage (0-255) times the colour's alpha.
  @inlinable
  func blendPixel(x: Int, y: Int, color: Color, coverage: UInt32) {
    let alpha = ChannelMath.divide255(UInt32(color.a) &* coverage)
    if alpha == 0 { return }
    if alpha >= 255 { return store(Storage.word(for: color), x, y) }
    store(Storage.blend(color, alpha: alpha, over: load(x, y)), x, y)
  }

  /// Blends a colour over `x0..<x1` of row `y`, each pixel at its own coverage: the
  /// byte at `coverage + (x - x0)`, 0-255, times the colour's alpha.
  ///
  /// Polylines pass their merged coverage row here (one blend per pixel however
  /// many segments cover it); mask blits pass a glyph row.
  ///
  /// Coverage is read eight bytes at a time: eight zeros are skipped and eight 255s
  /// in an opaque colour are stored without blending, so the empty gaps and the
  /// solid middles of a polyline row cost a load and a compare per eight pixels.
  @inlinable @inline(__always)
  func blendCoverageRow(y: Int, from x0: Int, to x1: Int, coverage: UnsafeRawPointer, color: Color) {
    let opaque = Storage.word(for: color)
    let colorAlpha = UInt32(color.a)
    let row = base + y &* bytesPerRow
    let size = MemoryLayout<Storage.Word>.size
    @inline(__always) func pixel(_ x: Int, _ c: UInt32) {
      if c == 0 { return }
      // An opaque colour's opacity is the coverage itself (255 * c / 255 is exactly c).
      let alpha = colorAlpha == 255 ? c : ChannelMath.divide255(colorAlpha &* c)
      if alpha >= 255 {
        row.storeBytes(of: opaque.littleEndian, toByteOffset: x &* size, as: Storage.Word.self)
      } else if alpha != 0 {
        let old = Storage.Word(littleEndian: row.load(fromByteOffset: x &* size, as: Storage.Word.self))
        row.storeBytes(of: Storage.blend(color, alpha: alpha, over: old).littleEndian, toByteOffset: x &* size,
                       as: Storage.Word.self)
      }
    }
    var x = x0
    var mask = coverage
    while x1 &- x >= 8 {
      let chunk = mask.loadUnaligned(as: UInt64.self)
      if chunk == 0 {
        // Nothing covered: skip the rest of an empty stretch 32 bytes at a time
        // (the gap between two far-apart segments of a polyline row).
        while x1 &- x >= 40 {
          let next = mask + 8
          let any = next.loadUnaligned(as: UInt64.self) | next.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | next.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | next.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
          if any != 0 { break }
          x &+= 32
          mask += 32
        }
      } else if chunk == ~0 && colorAlpha == 255 {
        fillSpan(y: y, from: x, to: x &+ 8, word: opaque)
      } else {
        for i in 0..<8 { pixel(x &+ i, UInt32(mask.load(fromByteOffset: i, as: UInt8.self))) }
      }
      x &+= 8
      mask += 8
    }
    while x < x1 {
      pixel(x, UInt32(mask.load(as: UInt8.self)))
      x &+= 1
      mask += 1
    }
  }

  /// Blends a colour through a mask's runs over `area` (inside the mask's rect and
  /// the canvas): full runs as one span at the colour's alpha, mixed runs byte by
  /// byte, zero stretches not at all.
  ///
  /// The runs lie inside the mask's bytes by construction (`CoverageMask.init`
  /// makes both and neither changes), so they are read without bounds checks.
  /// Most blits cover the mask's whole width (a full redraw, a dot inside the
  /// damage): those take a loop without the per-run clamp to the area's columns.
  /// A 1080p frame blends about 10 000 runs, most of them a few pixels long, so
  /// what a run costs before its first pixel counts as much as the pixels.
  @inlinable
  func blendRuns(of mask: CoverageMask, in area: Rect, color: Color) {
    let box = mask.rect
    let alpha = UInt32(color.a)
    let wholeWidth = area.x == box.x && area.maxX == box.maxX
    // Only whole-width blits of an opaque colour use the memo (see `blendOpaqueMixedRun`).
    let remembers = wholeWidth && alpha == 255
    var memo = remembers ? rasterizer.blendMemo(for: color, wordSize: Storage.bytesPerPixel) : rasterizer.unusedBlendMemo
    mask.bytes.withUnsafeBytes { bytes in
      mask.runs.withUnsafeBufferPointer { runs in
        mask.rowRuns.withUnsafeBufferPointer { rowRuns in
          guard let bytes = bytes.baseAddress, let runs = runs.baseAddress, let rowRuns = rowRuns.baseAddress else {
            return
          }
          @inline(__always) func blendRows(clamped: Bool, memo: inout BlendMemo) {
            for y in area.y..<area.maxY {
              let row = y &- box.y
              let rowOffset = row &* box.width &- box.x  // mask byte of canvas column 0
              var run = runs + Int(rowRuns[row])
              let last = runs + Int(rowRuns[row &+ 1])
              while run < last {
                var start = box.x &+ Int(run.pointee.start), end = box.x &+ Int(run.pointee.end)
                if clamped {
                  start = max(start, area.x)
                  end = min(end, area.maxX)
                }
                if !clamped || start < end {
                  if run.pointee.full {
                    blendSpan(y: y, from: start, to: end, color: color, alpha: alpha)
                  } else if alpha == 255 {
                    blendOpaqueMixedRun(
                      y: y, from: start, to: end, coverage: bytes + (rowOffset &+ start), color: color,
                      remembering: !clamped, memo: &memo)
                  } else {
                    blendCoverageRow(y: y, from: start, to: end, coverage: bytes + (rowOffset &+ start), color: color)
                  }
                }
                run += 1
              }
            }
          }
          if wholeWidth { blendRows(clamped: false, memo: &memo) } else { blendRows(clamped: true, memo: &memo) }
        }
      }
    }
    if remembers { rasterizer.keep(memo) }
  }

  /// `blendCoverageRow` for an opaque colour over a mask's mixed run: a few pixels,
  /// mostly edge bytes between 1 and 254, so each pixel is tested for 0 and 255 and
  /// otherwise blended at its coverage (an opaque colour's opacity is the coverage
  /// itself), without the eight-byte steps and the colour's alpha test per pixel;
  /// `remembering`, through `memo` (see `BlendMemo`). A blit clipped to part of the
  /// mask's width (the edge of a damage box through a ring) does not remember: there
  /// the edge pixels lie over the line as often as over the background, and the
  /// memo's misses cost more than its hits saved.
  @inlinable @inline(__always)
  func blendOpaqueMixedRun(
    y: Int, from x0: Int, to x1: Int, coverage: UnsafeRawPointer, color: Color, remembering: Bool,
    memo: inout BlendMemo
  ) {
    let opaque = Storage.word(for: color).littleEndian
    let row = base + y &* bytesPerRow
    let size = MemoryLayout<Storage.Word>.size
    var x = x0
    var mask = coverage
    // A local copy, so the loop keeps the memo in registers.
    var remembered = memo
    while x < x1 {
      let c = UInt32(mask.load(as: UInt8.self))
      if c == 255 {
        row.storeBytes(of: opaque, toByteOffset: x &* size, as: Storage.Word.self)
      } else if c != 0 {
        let old = Storage.Word(littleEndian: row.load(fromByteOffset: x &* size, as: Storage.Word.self))
        let blended = remembering
          ? remembered.word(coverage: Int(c), over: UInt32(old)) { UInt32(Storage.blend(color, alpha: c, over: old)) }
          : UInt32(Storage.blend(color, alpha: c, over: old))
        row.storeBytes(of: Storage.Word(truncatingIfNeeded: blended).littleEndian, toByteOffset: x &* size,
                       as: Storage.Word.self)
      }
      x &+= 1
      mask += 1
    }
    memo = remembered
  }

  /// Blends a colour over `x0..<x1` of row `y` at the coverage gathered in the
  /// rasterizer's coverage row.
  @inlinable @inline(__always)
  func blendCoverageRow(y: Int, from x0: Int, to x1: Int, color: Color) {
    blendCoverageRow(y: y, from: x0, to: x1, coverage: UnsafeRawPointer(rasterizer.coverageRow + x0), color: color)
  }
}
