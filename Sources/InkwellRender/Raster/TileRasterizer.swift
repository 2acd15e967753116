// Raster: tiles rendered in parallel, each by one thread, each in a fixed primitive order.
//
// A tile's color lives in a planar float buffer of 4 × 32 × 32 values (16 KiB), small enough to
// stay in L1 while every primitive that touches the tile is composited into it; coverage goes
// through a 32 × 40 cell buffer. Both are per-thread scratch. When the tile is done it is resolved
// straight into the 8-bit output, so the full-canvas float image never exists.
//
// Threads take whole tile rows, interleaved (thread k of n renders rows k, k + n, …). The output
// does not depend on which thread renders a tile, so it is the same for any thread count.

import Dispatch
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

/// The kernels the rasterizer calls, so tests can swap in the scalar reference.
public struct RasterKernels: Sendable {
  public var accumulateLine: @Sendable (UnsafeMutablePointer<Float>, Float, Float, Float, Float) -> Void
  public var addBackdrop: @Sendable (UnsafeMutablePointer<Float>, Float) -> Void
  public var resolveCoverage:
    @Sendable (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, FillRule) -> Void
  public var compositeMask:
    @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void
  public var compositeSolid: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, Float) -> Void
  public var fillTile: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void
  public var resolveSRGB8:
    @Sendable (UnsafePointer<Float>, Int, Int, UnsafeMutablePointer<UInt8>, Int) -> Void
  public var coverageIntersect: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void
  public var coverageSubtract: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void
  public var coverageFill: @Sendable (UnsafeMutablePointer<Float>, Float) -> Void

  /// The C kernels in `shaders-cpu`.
  public static let native = RasterKernels(
    accumulateLine: { inkwell_accumulate_line($0, $1, $2, $3, $4) },
    addBackdrop: { inkwell_add_backdrop($0, $1) },
    resolveCoverage: {
      inkwell_resolve_coverage($0, $1, $2 == .nonZero ? INKWELL_FILL_NONZERO : INKWELL_FILL_EVENODD)
    },
    compositeMask: { inkwell_composite_mask($0, $1, $2) },
    compositeSolid: { inkwell_composite_solid($0, $1, $2) },
    fillTile: { inkwell_fill_tile($0, $1) },
    resolveSRGB8: { inkwell_resolve_srgb8($0, Int32($1), Int32($2), $3, $4) },
    coverageIntersect: { inkwell_coverage_intersect($0, $1) },
    coverageSubtract: { inkwell_coverage_subtract($0, $1) },
    coverageFill: { inkwell_coverage_fill($0, $1) })
}

/// Renders binned primitives into an 8-bit image.
public struct TileRasterizer: Sendable {
  public var kernels: RasterKernels
  /// The kernels of the ink paint stages (Paint/), applied to a primitive's coverage before it
  /// is composited.
  public var paintKernels: PaintKernels

  public init(kernels: RasterKernels = .native, paintKernels: PaintKernels = .native) {
    self.kernels = kernels
    self.paintKernels = paintKernels
  }

  /// Renders `bins` (built from `primitives`) over `background`, on `threads` threads, to 8-bit sRGB.
  public func render(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int
  ) -> RGBA8Image {
    let grid = bins.grid
    var pixels = [UInt8](repeating: 0, count: grid.width * grid.height * 4)
    pixels.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let output = SharedPointer(base: base)
      let resolve = kernels.resolveSRGB8
      renderTiles(bins, primitives: primitives, background: background, threads: threads) { col, row, tile in
        let size = TileGrid.tileSize
        let x0 = col * size
        let y0 = row * size
        let w = Swift.min(size, grid.width - x0)
        let h = Swift.min(size, grid.height - y0)
        resolve(tile, w, h, output.base + (y0 * grid.width + x0) * 4, grid.width * 4)
      }
    }
    return RGBA8Image(width: grid.width, height: grid.height, pixels: pixels)
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
            for p in 0..<4 { o[p] = tile[p * plane + y * size + x] }
          }
        }
      }
    }
    return pixels
  }

  /// Composites every tile and hands it, finished, to `sink` (column, row, planar tile) on the
  /// thread that rendered it.
  public func renderTiles(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    sink: @escaping @Sendable (Int, Int, UnsafeMutablePointer<Float>) -> Void
  ) {
    let grid = bins.grid
    guard grid.tileCount > 0 else { return }
    let colors = primitives.map { [$0.color.red, $0.color.green, $0.color.blue, $0.color.alpha] }
    let rules = primitives.map(\.rule)
    let masked = primitives.map { $0.clip != nil ? Self.clipFlag : 0 }
    let clipRules = primitives.map { $0.clip?.rule ?? .nonZero }
    let paints = primitives.map(\.paint)
    let workers = Swift.max(1, Swift.min(threads, grid.tilesY))
    let work = { @Sendable (worker: Int) in
      let scratch = TileScratch()
      defer { scratch.deallocate() }
      var row = worker
      while row < grid.tilesY {
        for col in 0..<grid.tilesX {
          composite(
            col: col, row: row, bins: bins, colors: colors, rules: rules, masked: masked,
            clipRules: clipRules, paints: paints,
            background: background, scratch: scratch)
          sink(col, row, scratch.tile)
        }
        row += workers
      }
    }
    if workers == 1 {
      work(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: workers, execute: work)
    }
  }

  private func composite(
    col: Int, row: Int, bins: TileBins, colors: [[Float]], rules: [FillRule], masked: [UInt8],
    clipRules: [FillRule], paints: [Paint], background: LinearColor, scratch: TileScratch
  ) {
    let tileIndex = row * bins.grid.tilesX + col
    var backgroundComponents = [background.red, background.green, background.blue, background.alpha]
    kernels.fillTile(scratch.tile, &backgroundComponents)
    var e = bins.entryStart[tileIndex]
    let end = bins.entryStart[tileIndex + 1]
    bins.segments.withUnsafeBufferPointer { segments in
      while e < end {
        // A primitive's entries in a tile are adjacent: fill, then clip, then knockout.
        let primitive = Int(bins.entries[e].primitive)
        var fill: TileEntry?
        var clip: TileEntry?
        var knockout: TileEntry?
        while e < end, Int(bins.entries[e].primitive) == primitive {
          let entry = bins.entries[e]
          switch entry.role {
          case .fill: fill = entry
          case .clip: clip = entry
          case .knockout: knockout = entry
          }
          e += 1
        }
        guard let fill else { continue }
        let hasClip = masked[primitive] & Self.clipFlag != 0
        if hasClip && clip == nil { continue }
        colors[primitive].withUnsafeBufferPointer { color in
          let paint = paints[primitive]
          if fill.segmentCount == 0 && clip == nil && knockout == nil && paint.isSolid {
            if Self.covers(fill.backdrop, rules[primitive]) {
              kernels.compositeSolid(scratch.tile, color.baseAddress!, 1)
            }
            return
          }
          coverage(
            of: fill, rule: rules[primitive], segments: segments, into: scratch.coverage, scratch: scratch)
          if let clip {
            coverage(
              of: clip, rule: clipRules[primitive], segments: segments, into: scratch.mask, scratch: scratch)
            kernels.coverageIntersect(scratch.coverage, scratch.mask)
          }
          if let knockout {
            coverage(of: knockout, rule: .nonZero, segments: segments, into: scratch.mask, scratch: scratch)
            kernels.coverageSubtract(scratch.coverage, scratch.mask)
          }
          if !paint.isSolid {
            let size = TileGrid.tileSize
            paintKernels.apply(
              paint, coverage: scratch.coverage, x0: col * size, y0: row * size, segments: &scratch.segments)
          }
          if paint.blend == .multiply {
            paintKernels.compositeMultiply(scratch.tile, scratch.coverage, color.baseAddress!)
          } else {
            kernels.compositeMask(scratch.tile, scratch.coverage, color.baseAddress!)
          }
        }
      }
    }
  }

  static let clipFlag: UInt8 = 1

  @inline(__always) static func covers(_ winding: Int32, _ rule: FillRule) -> Bool {
    rule == .nonZero ? winding != 0 : winding & 1 != 0
  }

  /// One entry's coverage of the tile, into `output`.
  private func coverage(
    of entry: TileEntry, rule: FillRule, segments: UnsafeBufferPointer<TileSegment>,
    into output: UnsafeMutablePointer<Float>, scratch: TileScratch
  ) {
    if entry.segmentCount == 0 {
      kernels.coverageFill(output, Self.covers(entry.backdrop, rule) ? 1 : 0)
      return
    }
    if entry.backdrop != 0 { kernels.addBackdrop(scratch.cells, Float(entry.backdrop)) }
    let start = Int(entry.segmentStart)
    for s in start..<(start + Int(entry.segmentCount)) {
      let seg = segments[s]
      kernels.accumulateLine(scratch.cells, seg.x0, seg.y0, seg.x1, seg.y1)
    }
    kernels.resolveCoverage(scratch.cells, output, rule)
  }
}

/// An output buffer shared by workers that write disjoint tiles.
private struct SharedPointer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>
}

/// Per-thread buffers: cells (coverage accumulation), coverage, and the planar color tile.
final class TileScratch {
  static let cellCount = Int(INKWELL_TILE) * Int(INKWELL_CELL_STRIDE)
  static let pixelCount = Int(INKWELL_TILE_PIXELS)
  let cells: UnsafeMutablePointer<Float>
  let coverage: UnsafeMutablePointer<Float>
  /// A second coverage buffer, for clip and knockout paths.
  let mask: UnsafeMutablePointer<Float>
  let tile: UnsafeMutablePointer<Float>
  /// Scratch for the paint stages (an alpha profile's segments near the tile).
  var segments: [Float] = []

  init() {
    cells = .allocate(capacity: Self.cellCount)
    cells.initialize(repeating: 0, count: Self.cellCount)
    coverage = .allocate(capacity: Self.pixelCount)
    coverage.initialize(repeating: 0, count: Self.pixelCount)
    mask = .allocate(capacity: Self.pixelCount)
    mask.initialize(repeating: 0, count: Self.pixelCount)
    tile = .allocate(capacity: Self.pixelCount * 4)
    tile.initialize(repeating: 0, count: Self.pixelCount * 4)
  }

  func deallocate() {
    cells.deallocate()
    coverage.deallocate()
    mask.deallocate()
    tile.deallocate()
  }
}
