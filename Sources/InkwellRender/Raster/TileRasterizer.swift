// Raster: tiles rendered in parallel, each by one thread, each in a fixed primitive order.
//
// A tile's color lives in a planar float buffer of 4 × 32 × 32 values (16 KiB), small enough to
// stay in L1 while every primitive that touches the tile is composited into it; coverage goes
// through a 32 × 40 cell buffer. Both are per-thread scratch. When the tile is done it is resolved
// straight into the 8-bit output, so the full-canvas float image never exists.
//
// Each tile row is one job for the `TileScheduler` (by default Dispatch, thread k of n rendering
// rows k, k + n, …); each worker keeps one scratch buffer. The output does not depend on which
// thread renders a tile, so it is the same for any thread count and any scheduler.
//
// Per tile: a tile no primitive touches is written as the background's 8-bit pixel without any
// float work; otherwise compositing starts at the last opaque primitive that covers the whole tile
// (everything under it is hidden), and each remaining primitive is one call to accumulate its
// line pieces and one fused call that resolves coverage column by column straight into the
// compositor (no coverage buffer round trip). All three shortcuts give the same bytes as the plain
// loop; the kernels' module head says why.

import InkwellKernels
import InkwellModel

/// An 8-bit sRGB image with straight (not premultiplied) alpha, rows top to bottom, 4 bytes a
/// pixel (red, green, blue, alpha).
public struct RGBA8Image: Hashable, Sendable {
  public let width: Int
  public let height: Int
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 4, "pixel buffer size does not match")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The pixel at (x, y) as (red, green, blue, alpha).
  public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
    let i = (y * width + x) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }
}

/// Renders binned primitives into an 8-bit image.
public struct TileRasterizer: Sendable {
  public var kernels: RasterKernels
  /// The kernels of the ink paint stages (Paint/), applied to a primitive's coverage before it
  /// is composited.
  public var paintKernels: PaintKernels
  /// Spreads tile rows over threads; the image does not depend on it.
  public var scheduler: TileScheduler
  /// The least estimated work (`estimatedWork`) that earns a thread its share of a render: a
  /// render is spread over at most `estimatedWork / minimumWorkPerThread` threads, and one below
  /// that renders on the calling thread. 0 gives every thread asked for a share (up to one tile
  /// row each). The image does not depend on it.
  public var minimumWorkPerThread: Int

  /// The default `minimumWorkPerThread`: about 60 µs of one thread's work.
  public static let defaultMinimumWorkPerThread = 60_000

  /// The 8-bit image size in bytes from which runs of one pixel (the background around the ink,
  /// one-color fills) are written with streaming stores, past the cache: an image this large
  /// would not stay there for whatever reads it next. The pixels are the same either way.
  public static let streamingImageBytes = 8 << 20

  public init(
    kernels: RasterKernels = .native, paintKernels: PaintKernels = .native,
    scheduler: TileScheduler = .dispatch,
    minimumWorkPerThread: Int = TileRasterizer.defaultMinimumWorkPerThread
  ) {
    self.kernels = kernels
    self.paintKernels = paintKernels
    self.scheduler = scheduler
    self.minimumWorkPerThread = Swift.max(0, minimumWorkPerThread)
  }

  /// A render's work on one thread, in units of about a nanosecond on the machine of
  /// docs/performance.md: a least-squares fit of the one-thread raster times of 19 renders (the
  /// synthetic scenes and thumbnail pages at 128 to 2048 pixels wide) to their tiles, tile
  /// entries (a primitive in a tile) and line pieces. It misses single renders by up to a factor
  /// of 2.3, which is enough to tell a thumbnail (about 80 000) from a page (millions).
  public static func estimatedWork(tiles: Int, entries: Int, pieces: Int) -> Int {
    260 * tiles + 350 * entries + 9 * pieces
  }

  /// The threads a render of `bins` runs on when `threads` are offered: every one offered when
  /// the work gives each at least `minimumWorkPerThread`, fewer when it does not, and never more
  /// than the grid's tile rows (the scheduler's jobs).
  public func workers(for bins: TileBins, threads: Int) -> Int {
    let rows = bins.grid.tilesY
    let offered = Swift.max(1, Swift.min(threads, rows))
    guard offered > 1, minimumWorkPerThread > 0 else { return offered }
    var pieces = 0
    for run in bins.segmentRuns { pieces += run.count }
    let work = Self.estimatedWork(tiles: bins.grid.tileCount, entries: bins.entries.count, pieces: pieces)
    return Swift.max(1, Swift.min(offered, work / minimumWorkPerThread))
  }

  /// Renders `bins` (built from `primitives`) over `background`, on `threads` threads, to 8-bit sRGB.
  public func render(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int
  ) -> RGBA8Image {
    let grid = bins.grid
    let count = grid.width * grid.height * 4
    // Every byte is written (each tile resolves or fills its pixels), so the buffer starts
    // uninitialized: zero-filling a page-sized image first cost about a tenth of a large render.
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = count
      guard let base = buffer.baseAddress else { return }
      render(bins, primitives: primitives, background: background, threads: threads, into: base)
    }
    return RGBA8Image(width: grid.width, height: grid.height, pixels: pixels)
  }

  /// Like `render(_:primitives:background:threads:)`, into `image`, whose pixels are all
  /// overwritten: a caller rendering many pages of one size keeps one image and spares the
  /// allocation and the first touch of its memory. `image` must be the grid's size.
  public func render(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    into image: inout RGBA8Image
  ) {
    precondition(image.width == bins.grid.width && image.height == bins.grid.height, "image size differs")
    image.pixels.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      render(bins, primitives: primitives, background: background, threads: threads, into: base)
    }
  }

  private func render(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    into base: UnsafeMutablePointer<UInt8>
  ) {
    let grid = bins.grid
    let backgroundPixel = resolvedPixel(background)
    let output = SharedPointer(base: base)
    let resolve = kernels.resolveSRGB8
    let resolveBlocks = kernels.resolveSRGB8Blocks
    let size = TileGrid.tileSize
    // Tiles of one pixel (untouched, or covered by an opaque fill) next to each other in a tile
    // row are written by one fill, whole image rows where the row is all one pixel: tile by
    // tile, 32 rows of 128 bytes at a time, the page went out at two thirds of the rate the
    // peers' row-major writes reach (fill-rate: 9.6 against 6.4 ms). Each tile row is one
    // worker's, in column order, so its pending run needs no lock.
    // An image this large would not stay in the cache for whoever reads it next, so its runs of
    // one pixel are streamed past the cache (`inkwell_fill_pixels`).
    let stream: Int32 = grid.width * grid.height * 4 >= Self.streamingImageBytes ? 1 : 0
    let pending = SharedPointer(base: UnsafeMutablePointer<OneColorRun>.allocate(capacity: grid.tilesY))
    pending.base.initialize(repeating: OneColorRun(), count: grid.tilesY)
    defer { pending.base.deallocate() }
    /// Writes row `row`'s pending run, if any, and leaves none pending.
    @Sendable func flush(row: Int) {
      let run = pending.base[row]
      pending.base[row] = OneColorRun()
      guard run.tiles > 0 else { return }
      let x0 = run.column * size
      let y0 = row * size
      inkwell_fill_pixels(
        output.base + (y0 * grid.width + x0) * 4, grid.width * 4,
        Int32(Swift.min(size * run.tiles, grid.width - x0)),
        Int32(Swift.min(size, grid.height - y0)), run.pixel, stream)
    }
    forEachTile(
      bins, primitives: primitives, background: background, threads: threads, skipEmpty: true,
      uniformAsFirstPixels: true
    ) {
      col, row, tile, uniform, blocks, run in
      let pixel: UInt32
      var source: SIMD4<UInt32>? = nil
      if let tile, uniform {
        // Every pixel holds the same color, and the resolve is per pixel: resolve one, unless
        // the run it continues came from the same floats (a page covered by one fill).
        let plane = TileScratch.pixelCount
        let color = SIMD4(
          tile[0].bitPattern, tile[plane].bitPattern, tile[2 * plane].bitPattern, tile[3 * plane].bitPattern)
        source = color
        if pending.base[row].tiles > 0 && pending.base[row].source == color {
          pixel = pending.base[row].pixel
        } else {
          var resolved: UInt32 = 0
          withUnsafeMutableBytes(of: &resolved) { bytes in
            resolve(tile, 1, 1, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 4)
          }
          pixel = resolved
        }
      } else if let tile {
        flush(row: row)
        let x0 = col * size
        let y0 = row * size
        let w = Swift.min(size, grid.width - x0)
        let h = Swift.min(size, grid.height - y0)
        let corner = output.base + (y0 * grid.width + x0) * 4
        if w == size && h == size {
          // The blocks no primitive changed hold the background: its pixel, without a resolve.
          resolveBlocks(tile, blocks, backgroundPixel, corner, grid.width * 4)
        } else {
          resolve(tile, w, h, corner, grid.width * 4)
        }
        return
      } else {
        // No primitive touches these `run` tiles: every pixel is the background's.
        pixel = backgroundPixel
      }
      // Any other tile flushes the run, so a pending run always ends just before `col`.
      if pending.base[row].tiles > 0 && pending.base[row].pixel == pixel {
        pending.base[row].tiles += run
      } else {
        flush(row: row)
        pending.base[row] = OneColorRun(column: col, tiles: run, pixel: pixel, source: source)
      }
      if col + run == grid.tilesX { flush(row: row) }
    }
  }

  /// Renders to premultiplied linear-light float RGBA, 4 floats a pixel, rows top to bottom.
  public func renderLinear(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int
  ) -> [Float] {
    let grid = bins.grid
    var pixels = [Float](repeating: 0, count: grid.width * grid.height * 4)
    pixels.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let output = SharedPointer(base: base)
      renderTiles(bins, primitives: primitives, background: background, threads: threads) { col, row, tile in
        let size = TileGrid.tileSize
        let plane = size * size
        for y in 0..<Swift.min(size, grid.height - row * size) {
          for x in 0..<Swift.min(size, grid.width - col * size) {
            let o = output.base + ((row * size + y) * grid.width + col * size + x) * 4
            for p in 0..<4 { o[p] = tile[p * plane + x * size + y] }
          }
        }
      }
    }
    return pixels
  }

  /// Composites every tile and hands it, finished, to `sink` (column, row, planar tile) on the
  /// thread that rendered it. The tile is column-major: pixel (x, y) of plane p is at
  /// p·1024 + x·32 + y.
  public func renderTiles(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    sink: @escaping @Sendable (Int, Int, UnsafeMutablePointer<Float>) -> Void
  ) {
    forEachTile(bins, primitives: primitives, background: background, threads: threads, skipEmpty: false) {
      col, row, tile, _, _, _ in sink(col, row, tile!)
    }
  }

  /// Like `renderTiles`, but a tile that no primitive touches is handed to `sink` as `nil`
  /// without being composited: it is the background everywhere.
  public func renderTilesSkippingEmpty(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    sink: @escaping @Sendable (Int, Int, UnsafeMutablePointer<Float>?) -> Void
  ) {
    forEachTile(bins, primitives: primitives, background: background, threads: threads, skipEmpty: true) {
      col, row, tile, _, _, run in
      for k in 0..<run { sink(col + k, row, tile) }
    }
  }

  /// Like `renderTilesSkippingEmpty(_:primitives:background:threads:sink:)`, with each tile's 8 × 8
  /// blocks (`INKWELL_ALL_BLOCKS` bits) that may hold anything but the background: the others do.
  func renderTilesSkippingEmpty(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    sink: @escaping @Sendable (Int, Int, UnsafeMutablePointer<Float>?, UInt32) -> Void
  ) {
    forEachTile(bins, primitives: primitives, background: background, threads: threads, skipEmpty: true) {
      col, row, tile, _, blocks, run in
      for k in 0..<run { sink(col + k, row, tile, blocks) }
    }
  }

  /// A tile filled with `color`, as the compositor would leave an untouched tile: for resolving
  /// once what every empty tile resolves to.
  public func backgroundTile(_ color: LinearColor) -> [Float] {
    let scratch = TileScratch()
    defer { scratch.deallocate() }
    var components = [color.red + 0, color.green + 0, color.blue + 0, color.alpha + 0]
    kernels.fillTile(scratch.tile, &components)
    return Array(UnsafeBufferPointer(start: scratch.tile, count: TileScratch.pixelCount * 4))
  }

  /// The 8-bit pixel, as stored in memory, of a tile filled with `color`.
  private func resolvedPixel(_ color: LinearColor) -> UInt32 {
    // A one-pixel resolve reads the first vector of each plane: only those are filled, with what
    // `fillTile` stores (a component plus 0, so −0 becomes +0).
    let planes = TileScratch.pixelCount
    let tile = UnsafeMutablePointer<Float>.allocate(capacity: planes * 4)
    defer { tile.deallocate() }
    let components = [color.red + 0, color.green + 0, color.blue + 0, color.alpha + 0]
    for p in 0..<4 { (tile + p * planes).initialize(repeating: components[p], count: 16) }
    var pixel: UInt32 = 0
    withUnsafeMutableBytes(of: &pixel) { bytes in
      kernels.resolveSRGB8(tile, 1, 1, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 4)
    }
    return pixel
  }

  /// Renders every tile; `sink` gets `nil` for a tile that no primitive touches when `skipEmpty`,
  /// whether every pixel of the tile holds the same color, and how many tiles from the column on
  /// it stands for: a run of untouched tiles in a row comes as one `nil` (their pixels are written
  /// in one pass, whole image rows where the tile row is empty), any other tile as 1. With
  /// `uniformAsFirstPixels`, a tile of one color may come with only the first 16 pixels of each
  /// plane written (all a one-pixel resolve reads).
  private func forEachTile(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int, skipEmpty: Bool,
    uniformAsFirstPixels: Bool = false,
    sink: @escaping @Sendable (Int, Int, UnsafeMutablePointer<Float>?, Bool, UInt32, Int) -> Void
  ) {
    let grid = bins.grid
    guard grid.tileCount > 0 else { return }
    precondition(
      MemoryLayout<TileSegment>.stride == 16 && MemoryLayout<TileSegment>.offset(of: \.y1) == 12,
      "TileSegment is not four packed floats")
    // One pass over the primitives, field by field (a copy of a primitive or of its paint would
    // retain and release what they hold): colors flat, four floats a primitive and then the
    // background's, with −0 stored as +0 (see the kernels' module head); fill rules; and per
    // primitive 1 when it has a clip path, 2 a knockout, 4 a paint stage or a blend other than
    // source-over, 0 for plain fills, which take the fused path.
    let count = primitives.count
    // The four tables in one block: arrays of them had each looked up their storage's generic
    // metadata in the runtime's table, about 700 instructions an array (2 % of the smallest
    // corpus page's render).
    let table = SceneTables(count: count)
    defer { table.deallocate() }
    let (colors, rules, clipRules, masks) = (table.colors, table.rules, table.clipRules, table.masks)
    for index in 0..<count {
      let c = primitives[index].color
      colors[4 * index] = c.red + 0
      colors[4 * index + 1] = c.green + 0
      colors[4 * index + 2] = c.blue + 0
      colors[4 * index + 3] = c.alpha + 0
    }
    colors[4 * count] = background.red + 0
    colors[4 * count + 1] = background.green + 0
    colors[4 * count + 2] = background.blue + 0
    colors[4 * count + 3] = background.alpha + 0
    for index in 0..<count {
      rules[index] = primitives[index].rule
      let bits = primitives[index].maskBits
      clipRules[index] = bits & 1 != 0 ? primitives[index].clipRule ?? .nonZero : .nonZero
      masks[index] = bits
    }
    let workers = workers(for: bins, threads: threads)
    bins.entries.withUnsafeBufferPointer { entries in
      bins.entryStart.withUnsafeBufferPointer { entryStart in
        withSegmentBases(bins.segmentRuns) { segments in
          primitives.withUnsafeBufferPointer { primitives in
            let scene = SceneView(
              colors: colors, rules: rules, masks: masks,
              clipRules: clipRules, primitives: primitives.baseAddress,
              tilesX: grid.tilesX, rowOffset: bins.rowOffset,
              entries: entries.baseAddress, entryStart: entryStart.baseAddress!,
              segments: segments,
              background: primitives.count)
            let scratch = WorkerScratch(workers: workers)
            defer { scratch.deallocate() }
            scheduler.forEachJob(grid.tilesY, workers) { row, worker in
              let scratch = scratch.buffers(for: worker)
              var col = 0
              while col < grid.tilesX {
                let tileIndex = row * grid.tilesX + col
                if skipEmpty && scene.entryStart[tileIndex] == scene.entryStart[tileIndex + 1] {
                  var end = col + 1
                  let rowStart = row * grid.tilesX
                  while end < grid.tilesX,
                    scene.entryStart[rowStart + end] == scene.entryStart[rowStart + end + 1]
                  {
                    end += 1
                  }
                  sink(col, row, nil, true, 0, end - col)
                  col = end
                  continue
                }
                let uniform = composite(
                  tileIndex: tileIndex, scene: scene, scratch: scratch,
                  uniformAsFirstPixels: uniformAsFirstPixels)
                sink(col, row, scratch.tile, uniform, scratch.blocks.pointee, 1)
                col += 1
              }
            }
          }
        }
      }
    }
  }

  /// Composites tile `tileIndex` into `scratch.tile`; returns whether every pixel holds the same
  /// color (only solid tile-wide fills reached it: each pixel went through the same arithmetic).
  /// With `uniformAsFirstPixels`, a tile that the last opaque tile-wide fill ends (nothing is
  /// composited over it) gets that fill's color in the first 16 pixels of each plane only (a page
  /// covered by one opaque shape spent a quarter of its render filling tiles whose one pixel it
  /// then resolved).
  private func composite(
    tileIndex: Int, scene: SceneView, scratch: TileScratch, uniformAsFirstPixels: Bool = false
  ) -> Bool {
    let first = scene.entryStart[tileIndex]
    let end = scene.entryStart[tileIndex + 1]
    // An opaque primitive covering the whole tile hides everything under it: start from the last
    // one, as if it were the background. Exact: with Sa = m = 1, Dc' = Sc + Dc·0 = Sc for finite Dc.
    // A masked primitive never qualifies: its clip or cut may leave part of the tile uncovered.
    var start = first
    var base = scene.colors + 4 * scene.background
    var e = end
    while e > first {
      e -= 1
      let entry = scene.entries![e]
      let primitive = Int(entry.primitive)
      let color = scene.colors + 4 * primitive
      if entry.role == .fill && scene.masks![primitive] == 0 && entry.segmentCount == 0 && color[3] == 1
        && Self.covers(entry.backdrop, scene.rules![primitive])
      {
        start = e + 1
        base = color
        break
      }
    }
    if start == end && uniformAsFirstPixels {
      // What `fillTile` stores (a component plus 0), where a one-pixel resolve reads it.
      for p in 0..<4 {
        (scratch.tile + p * TileScratch.pixelCount).update(repeating: base[p] + 0, count: 16)
      }
      return true
    }
    // The pieces of each entry were written by binning long before; each entry asks for the next
    // one's while it fills (the first while the tile is cleared), so they arrive in time.
    if start < end { Self.prefetchPieces(of: scene.entries![start], scene: scene) }
    kernels.fillTile(scratch.tile, base)
    // Blocks left as filled hold the background, which the 8-bit sink resolves once a render;
    // every other color counts as changed everywhere.
    scratch.blocks.pointee = base == scene.colors + 4 * scene.background ? 0 : UInt32(INKWELL_ALL_BLOCKS)
    var uniform = true
    var index = start
    while index < end {
      if index + 1 < end { Self.prefetchPieces(of: scene.entries![index + 1], scene: scene) }
      let entry = scene.entries![index]
      let primitive = Int(entry.primitive)
      let color = scene.colors + 4 * primitive
      let rule = scene.rules![primitive]
      if scene.masks![primitive] != 0 {
        uniform = false
        scratch.blocks.pointee = UInt32(INKWELL_ALL_BLOCKS)
        index = compositeMasked(from: index, end: end, tileIndex: tileIndex, scene: scene, scratch: scratch)
        continue
      }
      index += 1
      if entry.segmentCount == 0 {
        if Self.covers(entry.backdrop, rule) {
          kernels.compositeSolid(scratch.tile, color, 1)
          scratch.blocks.pointee = UInt32(INKWELL_ALL_BLOCKS)
        }
        continue
      }
      uniform = false
      kernels.fillLines(
        scratch.tile, scratch.cells, scene.segments[Int(entry.run)]! + 4 * Int(entry.segmentStart),
        Int(entry.segmentCount),
        Float(entry.backdrop), rule, color, scratch.blocks)
    }
    return uniform
  }

  @inline(__always)
  private static func prefetchPieces(of entry: TileEntry, scene: SceneView) {
    guard entry.segmentCount > 0, let base = scene.segments[Int(entry.run)] else { return }
    inkwell_prefetch_lines(base + 4 * Int(entry.segmentStart), Int(entry.segmentCount))
  }

  /// Composites a masked primitive whose entries in this tile start at `index` (fill, then clip,
  /// then knockout, each present only where its path reaches the tile):
  /// m = fill · clip · (1 − knockout), then Dc' = Sc·m + Dc·(1 − Sa·m). Returns the next entry.
  private func compositeMasked(
    from index: Int, end: Int, tileIndex: Int, scene: SceneView, scratch: TileScratch
  ) -> Int {
    let primitive = scene.entries![index].primitive
    var fill: TileEntry?
    var clip: TileEntry?
    var knockout: TileEntry?
    var next = index
    while next < end, scene.entries![next].primitive == primitive {
      let entry = scene.entries![next]
      switch entry.role {
      case .fill: fill = entry
      case .clip: clip = entry
      case .knockout: knockout = entry
      }
      next += 1
    }
    let p = Int(primitive)
    // Without a fill entry nothing is painted; without a clip entry the tile is outside the clip.
    guard let fill, scene.masks![p] & 1 == 0 || clip != nil else { return next }
    coverage(of: fill, rule: scene.rules![p], scene: scene, into: scratch.coverage, scratch: scratch)
    if let clip {
      coverage(of: clip, rule: scene.clipRules![p], scene: scene, into: scratch.mask, scratch: scratch)
      kernels.coverageIntersect(scratch.coverage, scratch.mask)
    }
    if let knockout {
      coverage(of: knockout, rule: .nonZero, scene: scene, into: scratch.mask, scratch: scratch)
      kernels.coverageSubtract(scratch.coverage, scratch.mask)
    }
    let paint = scene.primitives![p].paint
    if !paint.isSolid {
      let size = TileGrid.tileSize
      paintKernels.apply(
        paint, coverage: scratch.coverage, x0: (tileIndex % scene.tilesX) * size,
        y0: (scene.rowOffset + tileIndex / scene.tilesX) * size, segments: &scratch.segments)
    }
    if paint.blend == .multiply {
      paintKernels.compositeMultiply(scratch.tile, scratch.coverage, scene.colors + 4 * p)
    } else {
      kernels.compositeMask(scratch.tile, scratch.coverage, scene.colors + 4 * p)
    }
    return next
  }

  /// One entry's coverage of the tile, into `output` (tile layout).
  private func coverage(
    of entry: TileEntry, rule: FillRule, scene: SceneView, into output: UnsafeMutablePointer<Float>,
    scratch: TileScratch
  ) {
    if entry.segmentCount == 0 {
      kernels.coverageFill(output, Self.covers(entry.backdrop, rule) ? 1 : 0)
      return
    }
    if entry.backdrop != 0 { kernels.addBackdrop(scratch.cells, Float(entry.backdrop)) }
    kernels.accumulateLines(
      scratch.cells, scene.segments[Int(entry.run)]! + 4 * Int(entry.segmentStart), Int(entry.segmentCount))
    kernels.resolveCoverage(scratch.cells, output, rule)
  }

  /// Whether a winding number is inside under `rule`.
  @inline(__always) static func covers(_ winding: Int32, _ rule: FillRule) -> Bool {
    rule.covers(winding: winding)
  }
}

/// The scene's arrays, borrowed for the length of a render and read by every worker.
private struct SceneView: @unchecked Sendable {
  /// Four floats a primitive, then the background's.
  let colors: UnsafePointer<Float>
  let rules: UnsafePointer<FillRule>?
  /// Per primitive: bit 0 set when it has a clip path, bit 1 a knockout, bit 2 a paint stage or
  /// a blend other than source-over.
  let masks: UnsafePointer<UInt8>?
  let clipRules: UnsafePointer<FillRule>?
  /// The primitives themselves, for the paint stages of those that have one.
  let primitives: UnsafePointer<Primitive>?
  let tilesX: Int
  /// The canvas tile row of the first row (bands of a larger canvas).
  let rowOffset: Int
  let entries: UnsafePointer<TileEntry>?
  let entryStart: UnsafePointer<Int>
  /// Each binning run's pieces, four floats (x0, y0, x1, y1) a piece.
  let segments: UnsafePointer<UnsafePointer<Float>?>
  /// The background's index in `colors`.
  let background: Int
}

/// Calls `body` with the base address of each run's pieces, as floats, valid during the call.
private func withSegmentBases<Result>(
  _ runs: [[TileSegment]], _ body: (UnsafePointer<UnsafePointer<Float>?>) -> Result
) -> Result {
  withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: Swift.max(runs.count, 1)) { bases in
    func borrow(_ run: Int) -> Result {
      guard run < runs.count else { return body(UnsafePointer(bases.baseAddress!)) }
      return runs[run].withUnsafeBufferPointer { pieces in
        bases[run] = pieces.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) }
        return borrow(run + 1)
      }
    }
    bases[0] = nil
    return borrow(0)
  }
}

/// Tiles of one 8-bit pixel side by side in a tile row, not written yet.
private struct OneColorRun {
  var column = 0
  var tiles = 0
  var pixel: UInt32 = 0
  /// The bits of the first pixel's floats (red, green, blue, alpha) of the one-color tile that
  /// `pixel` was resolved from; `nil` for the background's runs.
  var source: SIMD4<UInt32>? = nil
}

/// The per-primitive tables a render's tiles read (`SceneView`), in one allocation: colors (four
/// floats a primitive, then the background's), fill rules, clip rules and masks.
private struct SceneTables {
  let colors: UnsafeMutablePointer<Float>
  let rules: UnsafeMutablePointer<FillRule>
  let clipRules: UnsafeMutablePointer<FillRule>
  let masks: UnsafeMutablePointer<UInt8>
  private let block: UnsafeMutableRawPointer

  init(count: Int) {
    let colorBytes = (4 * count + 4) * MemoryLayout<Float>.stride
    let ruleBytes = count * MemoryLayout<FillRule>.stride
    block = .allocate(
      byteCount: colorBytes + 2 * ruleBytes + count, alignment: MemoryLayout<Float>.alignment)
    colors = block.bindMemory(to: Float.self, capacity: 4 * count + 4)
    rules = (block + colorBytes).bindMemory(to: FillRule.self, capacity: count)
    clipRules = (block + colorBytes + ruleBytes).bindMemory(to: FillRule.self, capacity: count)
    masks = (block + colorBytes + 2 * ruleBytes).bindMemory(to: UInt8.self, capacity: count)
  }

  func deallocate() { block.deallocate() }
}

/// An output buffer shared by workers that write disjoint tiles.
private struct SharedPointer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>
}

/// One `TileScratch` per worker, made by the worker's first job (so its pages are first touched by
/// the thread that uses them). Only worker w reads or writes slot w.
private struct WorkerScratch: @unchecked Sendable {
  let slots: UnsafeMutablePointer<TileScratch?>
  let count: Int

  init(workers: Int) {
    count = workers
    slots = .allocate(capacity: workers)
    slots.initialize(repeating: nil, count: workers)
  }

  func buffers(for worker: Int) -> TileScratch {
    precondition(worker >= 0 && worker < count, "scheduler gave a worker outside 0..<workers")
    if let scratch = slots[worker] { return scratch }
    let scratch = TileScratch()
    slots[worker] = scratch
    return scratch
  }

  func deallocate() {
    for w in 0..<count { slots[w]?.deallocate() }
    slots.deinitialize(count: count)
    slots.deallocate()
  }
}

/// Per-thread buffers, aligned for the widest vectors: cells (coverage accumulation), coverage,
/// and the planar color tile, in one allocation (five aligned ones had cost a small page's
/// render about 2 000 instructions in the allocator).
final class TileScratch {
  static let cellCount = Int(INKWELL_CELL_BUFFER_COUNT)
  static let pixelCount = Int(INKWELL_TILE_PIXELS)
  private static let alignment = Int(INKWELL_KERNEL_ALIGNMENT)
  private static func aligned(_ bytes: Int) -> Int { (bytes + alignment - 1) / alignment * alignment }
  private static let cellBytes = aligned(cellCount * MemoryLayout<Float>.stride)
  private static let planeBytes = aligned(pixelCount * MemoryLayout<Float>.stride)
  /// Cells, coverage, mask, the tile's four planes, then the blocks word.
  private static let blockBytes = cellBytes + 6 * planeBytes + alignment

  let cells: UnsafeMutablePointer<Float>
  let coverage: UnsafeMutablePointer<Float>
  /// A second coverage buffer, for clip and knockout paths.
  let mask: UnsafeMutablePointer<Float>
  let tile: UnsafeMutablePointer<Float>
  /// The 8 × 8 blocks of `tile` that hold anything but the background (see `composite`).
  let blocks: UnsafeMutablePointer<UInt32>
  /// Scratch for the paint stages (an alpha profile's segments near the tile).
  var segments: [Float] = []
  private let block: UnsafeMutableRawPointer

  init() {
    block = .allocate(byteCount: Self.blockBytes, alignment: Self.alignment)
    // Only the cells are read before they are written (accumulation adds to them, and each
    // resolve leaves them zero): the tile is filled and the coverage buffers are written first.
    // Zeroing all four was a tenth of a thumbnail's render.
    cells = block.initializeMemory(as: Float.self, repeating: 0, count: Self.cellCount)
    coverage = (block + Self.cellBytes).bindMemory(to: Float.self, capacity: Self.pixelCount)
    mask = (block + Self.cellBytes + Self.planeBytes).bindMemory(to: Float.self, capacity: Self.pixelCount)
    tile = (block + Self.cellBytes + 2 * Self.planeBytes).bindMemory(
      to: Float.self, capacity: 4 * Self.pixelCount)
    blocks = (block + Self.cellBytes + 6 * Self.planeBytes).bindMemory(to: UInt32.self, capacity: 1)
    blocks.initialize(to: UInt32(INKWELL_ALL_BLOCKS))
  }

  func deallocate() { block.deallocate() }
}
