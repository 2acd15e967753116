// Resolve: finished float tiles → output samples, as sinks of `TileRasterizer.renderTiles`.
//
// Each tile is resolved on the thread that rendered it, straight into its place in the output
// (8-bit, 16-bit or float RGBA), so no full-canvas float image exists unless the output is float
// (OpenEXR). Light-level statistics for HDR metadata (the largest channel anywhere, and the mean of
// each pixel's largest channel) are gathered per tile into slots indexed by tile and summed in tile
// order afterwards, so they, like the pixels, do not depend on the thread count. The dither is a
// function of the pixel's position on the canvas, for the same reason.

import InkwellKernels
import InkwellModel

/// The resolve kernels the resolver calls, so tests can swap in the scalar reference.
public struct ResolveKernels: Sendable {
  public typealias FloatResolve =
    @Sendable (UnsafePointer<Float>, Int, Int, inkwell_resolve_params, UnsafeMutablePointer<Float>, Int) ->
    Void
  public var resolveF32: FloatResolve
  public var resolvePremultipliedF32: FloatResolve
  public var resolveU16:
    @Sendable (UnsafePointer<Float>, Int, Int, inkwell_resolve_params, UnsafeMutablePointer<UInt16>, Int) ->
      Void
  public var resolveU8:
    @Sendable (
      UnsafePointer<Float>, Int, Int, Int, Int, Bool, inkwell_resolve_params, UnsafeMutablePointer<UInt8>, Int
    ) -> Void
  /// `resolveU8` of a whole tile whose 8 × 8 blocks clear in the mask (`INKWELL_ALL_BLOCKS` bits) hold
  /// the background, with the background tile resolved (`clean`, its row stride): tile, blocks,
  /// clean, clean stride, origin x and y, dither, parameters, output, output stride.
  public var resolveU8Blocks:
    @Sendable (
      UnsafePointer<Float>, UInt32, UnsafePointer<UInt8>, Int, Int, Int, Bool, inkwell_resolve_params,
      UnsafeMutablePointer<UInt8>, Int
    ) -> Void

  /// The C kernels in `shaders-cpu/resolve.c`.
  public static let native = ResolveKernels(
    resolveF32: { tile, w, h, p, out, stride in
      withUnsafePointer(to: p) { inkwell_resolve_f32(tile, Int32(w), Int32(h), $0, out, stride) }
    },
    resolvePremultipliedF32: { tile, w, h, p, out, stride in
      withUnsafePointer(to: p) {
        inkwell_resolve_premultiplied_f32(tile, Int32(w), Int32(h), $0, out, stride)
      }
    },
    resolveU16: { tile, w, h, p, out, stride in
      withUnsafePointer(to: p) { inkwell_resolve_u16(tile, Int32(w), Int32(h), $0, out, stride) }
    },
    resolveU8: { tile, w, h, ox, oy, dither, p, out, stride in
      withUnsafePointer(to: p) {
        inkwell_resolve_u8(tile, Int32(w), Int32(h), Int32(ox), Int32(oy), dither ? 1 : 0, $0, out, stride)
      }
    },
    resolveU8Blocks: { tile, blocks, clean, cleanStride, ox, oy, dither, p, out, stride in
      withUnsafePointer(to: p) {
        inkwell_resolve_u8_blocks(
          tile, blocks, clean, cleanStride, Int32(ox), Int32(oy), dither ? 1 : 0, $0, out, stride)
      }
    })
}

/// A 16-bit RGBA image, straight alpha, rows top to bottom, native-endian samples.
public struct RGBA16Image: Hashable, Sendable {
  public let width: Int
  public let height: Int
  public var pixels: [UInt16]

  public init(width: Int, height: Int, pixels: [UInt16]) {
    precondition(pixels.count == width * height * 4, "pixel buffer size does not match")
    self.width = width
    self.height = height
    self.pixels = pixels
  }
}

/// A float RGBA image in linear light (1 = SDR white), rows top to bottom.
public struct LinearImage: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// Four floats a pixel.
  public var pixels: [Float]
  /// Whether color is premultiplied by alpha.
  public var premultiplied: Bool
  public var colorSpace: ColorSpace

  public init(width: Int, height: Int, pixels: [Float], premultiplied: Bool, colorSpace: ColorSpace) {
    precondition(pixels.count == width * height * 4, "pixel buffer size does not match")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.premultiplied = premultiplied
    self.colorSpace = colorSpace
  }
}

/// Light levels of a resolved image, linear (1 = SDR white), after tone mapping, color times alpha.
public struct LightLevels: Hashable, Sendable {
  /// The largest channel of any pixel (CTA-861.3 MaxCLL, before the conversion to nits).
  public var maximum: Float
  /// The mean over the image of each pixel's largest channel (MaxFALL for a single frame).
  public var frameAverage: Float

  public init(maximum: Float, frameAverage: Float) {
    self.maximum = maximum
    self.frameAverage = frameAverage
  }
}

extension TileRasterizer {
  /// Renders to 8-bit RGBA through `settings` (its transfer must not be PQ or HLG for a sensible
  /// result), optionally with ordered dithering.
  public func renderRGBA8(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    settings: ResolveSettings, dither: Bool, resolve: ResolveKernels = .native
  ) -> RGBA8Image {
    let grid = bins.grid
    let params = settings.kernelParameters
    let count = grid.width * grid.height * 4
    // Every empty tile resolves to the same pixels (tiles are 32-aligned, the dither repeats
    // every 8): resolve one background tile once and copy it.
    let size = TileGrid.tileSize
    var empty = [UInt8](repeating: 0, count: size * size * 4)
    backgroundTile(background).withUnsafeBufferPointer { tile in
      resolve.resolveU8(tile.baseAddress!, size, size, 0, 0, dither, params, &empty, size * 4)
    }
    let emptyTile = empty
    // Every byte is written below (a tile resolves or copies its pixels): no zero fill first.
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = count
      guard let base = buffer.baseAddress else { return }
      let output = ResolveOutput(base: base)
      let kernel = resolve.resolveU8
      let blockKernel = resolve.resolveU8Blocks
      renderTilesSkippingEmpty(bins, primitives: primitives, background: background, threads: threads) {
        col, row, tile, blocks in
        let r = TileRect(col: col, row: row, grid: grid)
        guard let tile else {
          emptyTile.withUnsafeBufferPointer { source in
            for y in 0..<r.h {
              let destination = output.base + ((r.y0 + y) * grid.width + r.x0) * 4
              destination.update(from: source.baseAddress! + y * size * 4, count: r.w * 4)
            }
          }
          return
        }
        // The dither pattern follows the canvas row, so a band of a larger canvas dithers as the
        // whole canvas would. A whole tile's blocks that kept the background take the empty
        // tile's pixels (tiles are 32-aligned and the dither repeats every 8): on the notes page
        // three fifths of the blocks of the tiles a stroke touches.
        let y0 = r.y0 + bins.rowOffset * TileGrid.tileSize
        let corner = output.base + (r.y0 * grid.width + r.x0) * 4
        if r.w == size && r.h == size && blocks != UInt32(INKWELL_ALL_BLOCKS) {
          emptyTile.withUnsafeBufferPointer { clean in
            blockKernel(
              tile, blocks, clean.baseAddress!, size * 4, r.x0, y0, dither, params, corner, grid.width * 4)
          }
          return
        }
        kernel(tile, r.w, r.h, r.x0, y0, dither, params, corner, grid.width * 4)
      }
    }
    return RGBA8Image(width: grid.width, height: grid.height, pixels: pixels)
  }

  /// Renders to 16-bit RGBA through `settings`, with the light levels of the result.
  public func renderRGBA16(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    settings: ResolveSettings, resolve: ResolveKernels = .native
  ) -> (image: RGBA16Image, lightLevels: LightLevels) {
    let grid = bins.grid
    let params = settings.kernelParameters
    var pixels = [UInt16](repeating: 0, count: grid.width * grid.height * 4)
    var stats = [Float](repeating: 0, count: grid.tileCount * 2)
    pixels.withUnsafeMutableBufferPointer { buffer in
      stats.withUnsafeMutableBufferPointer { statBuffer in
        guard let base = buffer.baseAddress, let statBase = statBuffer.baseAddress else { return }
        let output = ResolveOutput(base: base)
        let statOutput = ResolveOutput(base: statBase)
        let kernel = resolve.resolveU16
        let floatKernel = resolve.resolveF32
        renderTiles(bins, primitives: primitives, background: background, threads: threads) {
          col, row, tile in
          let r = TileRect(col: col, row: row, grid: grid)
          kernel(tile, r.w, r.h, params, output.base + (r.y0 * grid.width + r.x0) * 4, grid.width * 4)
          let levels = Self.tileLightLevels(tile, r, params, floatKernel)
          let slot = statOutput.base + (row * grid.tilesX + col) * 2
          (slot[0], slot[1]) = levels
        }
      }
    }
    return (
      RGBA16Image(width: grid.width, height: grid.height, pixels: pixels), Self.combine(stats, grid: grid)
    )
  }

  /// Renders to float RGBA in `settings.colorSpace`, tone mapped, linear (the transfer is ignored),
  /// premultiplied or straight, with the light levels of the result.
  public func renderResolvedLinear(
    _ bins: TileBins, primitives: [Primitive], background: LinearColor, threads: Int,
    settings: ResolveSettings, premultiplied: Bool, resolve: ResolveKernels = .native
  ) -> (image: LinearImage, lightLevels: LightLevels) {
    let grid = bins.grid
    let params = settings.kernelParameters
    var pixels = [Float](repeating: 0, count: grid.width * grid.height * 4)
    var stats = [Float](repeating: 0, count: grid.tileCount * 2)
    pixels.withUnsafeMutableBufferPointer { buffer in
      stats.withUnsafeMutableBufferPointer { statBuffer in
        guard let base = buffer.baseAddress, let statBase = statBuffer.baseAddress else { return }
        let output = ResolveOutput(base: base)
        let statOutput = ResolveOutput(base: statBase)
        let kernel = premultiplied ? resolve.resolvePremultipliedF32 : resolve.resolveF32
        let floatKernel = resolve.resolveF32
        renderTiles(bins, primitives: primitives, background: background, threads: threads) {
          col, row, tile in
          let r = TileRect(col: col, row: row, grid: grid)
          kernel(tile, r.w, r.h, params, output.base + (r.y0 * grid.width + r.x0) * 4, grid.width * 4)
          let levels = Self.tileLightLevels(tile, r, params, floatKernel)
          let slot = statOutput.base + (row * grid.tilesX + col) * 2
          (slot[0], slot[1]) = levels
        }
      }
    }
    let image = LinearImage(
      width: grid.width, height: grid.height, pixels: pixels, premultiplied: premultiplied,
      colorSpace: settings.colorSpace)
    return (image, Self.combine(stats, grid: grid))
  }

  /// The tile's largest channel and the sum of its pixels' largest channels (color × alpha).
  static func tileLightLevels(
    _ tile: UnsafeMutablePointer<Float>, _ r: TileRect, _ params: inkwell_resolve_params,
    _ kernel: ResolveKernels.FloatResolve
  ) -> (Float, Float) {
    withUnsafeTemporaryAllocation(of: Float.self, capacity: Int(INKWELL_TILE_PIXELS) * 4) { scratch in
      let base = scratch.baseAddress!
      kernel(tile, r.w, r.h, params, base, r.w * 4)
      var maximum: Float = 0
      var sum: Float = 0
      for i in 0..<(r.w * r.h) {
        let p = base + i * 4
        let m = Swift.max(p[0], p[1], p[2], 0) * p[3]
        maximum = Swift.max(maximum, m)
        sum += m
      }
      return (maximum, sum)
    }
  }

  static func combine(_ stats: [Float], grid: TileGrid) -> LightLevels {
    var maximum: Float = 0
    var sum: Double = 0
    for t in 0..<grid.tileCount {
      maximum = Swift.max(maximum, stats[t * 2])
      sum += Double(stats[t * 2 + 1])
    }
    let count = Double(Swift.max(1, grid.width * grid.height))
    return LightLevels(maximum: maximum, frameAverage: Float(sum / count))
  }
}

/// Where a tile sits on the canvas and how much of it is inside.
struct TileRect {
  let x0: Int
  let y0: Int
  let w: Int
  let h: Int

  init(col: Int, row: Int, grid: TileGrid) {
    let size = TileGrid.tileSize
    x0 = col * size
    y0 = row * size
    w = Swift.min(size, grid.width - x0)
    h = Swift.min(size, grid.height - y0)
  }
}

/// An output buffer shared by workers that write disjoint tiles.
struct ResolveOutput<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>
}
