// The kernel set the rasterizer calls, and the choice of SIMD level behind it.
//
// The C kernels in shaders-cpu come in one set per instruction-set level, every level bit-identical
// to the scalar Swift reference (see the module head of shaders-cpu/include/InkwellKernels.h).
// `RasterKernels.native` is the level chosen at first use (the best this machine has, or the one
// INKWELL_SIMD forces); `RasterKernels.native(level:)` picks one explicitly, so tests and
// benchmarks can run every level the machine has side by side.

import InkwellKernels
import InkwellModel

/// An instruction-set level of the C kernels.
public enum SIMDLevel: String, CaseIterable, Sendable {
  /// Portable C, kept scalar: the baseline.
  case scalar
  /// 4 lanes, the x86-64 baseline.
  case sse2
  /// 8 lanes on x86-64 CPUs with AVX2.
  case avx2
  /// 16 lanes on x86-64 CPUs with AVX-512F; never chosen by default.
  case avx512
  /// 4 lanes on arm64.
  case neon

  var c: inkwell_simd_level {
    switch self {
    case .scalar: return INKWELL_SIMD_SCALAR
    case .sse2: return INKWELL_SIMD_SSE2
    case .avx2: return INKWELL_SIMD_AVX2
    case .avx512: return INKWELL_SIMD_AVX512
    case .neon: return INKWELL_SIMD_NEON
    }
  }

  init(_ level: inkwell_simd_level) {
    self = Self.allCases.first { $0.c == level } ?? .scalar
  }

  /// Whether this machine can run the level.
  public var isAvailable: Bool { inkwell_simd_is_available(c) != 0 }

  /// The levels this machine can run, from `scalar` up.
  public static var available: [SIMDLevel] { allCases.filter(\.isAvailable) }

  /// The level chosen by default: the best this machine has (AVX-512 only on request).
  public static var best: SIMDLevel { SIMDLevel(inkwell_simd_best()) }

  /// The level `RasterKernels.native` uses: INKWELL_SIMD (read once, at first use) if this machine
  /// has it, else the best level at or below it, else `best`.
  public static var selected: SIMDLevel { SIMDLevel(inkwell_simd_selected()) }
}

/// The kernels the rasterizer calls, so tests can swap in the scalar reference or a given level.
/// Each has the contract of the C function of the same name in shaders-cpu.
public struct RasterKernels: Sendable {
  public var accumulateLine: @Sendable (UnsafeMutablePointer<Float>, Float, Float, Float, Float) -> Void
  /// Lines as x0, y0, x1, y1 quadruples: (cells, lines, line count).
  public var accumulateLines: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, Int) -> Void
  public var addBackdrop: @Sendable (UnsafeMutablePointer<Float>, Float) -> Void
  public var resolveCoverage:
    @Sendable (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, FillRule) -> Void
  public var compositeMask:
    @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void
  /// Coverage resolve and mask compositing in one pass: (tile, cells, rule, color).
  public var fillCoverage:
    @Sendable (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, FillRule, UnsafePointer<Float>) ->
      Void
  /// One primitive's fill of a tile: backdrop, line accumulation and `fillCoverage` in one call:
  /// (tile, cells, lines, line count, backdrop, rule, color, blocks). By default the three kernels
  /// in turn. Unless `blocks` is nil, the bits of the 8 × 8 blocks the call may have changed are
  /// ORed into it (bit x + 4·y for block (x, y); by default all sixteen).
  public var fillLines:
    @Sendable (
      UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafePointer<Float>, Int, Float, FillRule,
      UnsafePointer<Float>, UnsafeMutablePointer<UInt32>?
    ) -> Void
  public var compositeSolid: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, Float) -> Void
  public var fillTile: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void
  public var resolveSRGB8:
    @Sendable (UnsafePointer<Float>, Int, Int, UnsafeMutablePointer<UInt8>, Int) -> Void
  /// `resolveSRGB8` of a whole tile whose 8 × 8 blocks with a clear bit in `blocks` all hold one
  /// color that resolves to `cleanPixel` (as stored): (tile, blocks, cleanPixel, out, stride). By
  /// default every block is resolved.
  public var resolveSRGB8Blocks:
    @Sendable (UnsafePointer<Float>, UInt32, UInt32, UnsafeMutablePointer<UInt8>, Int) -> Void
  public var encodeSRGB8: @Sendable (UnsafePointer<Float>, UnsafeMutablePointer<UInt8>, Int) -> Void
  /// Masks (clip paths and eraser cuts) are rare, so their elementwise kernels are plain C at the
  /// baseline width for every level: m' = m·c, m' = m·(1 − e), m' = constant.
  public var coverageIntersect: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void = {
    inkwell_coverage_intersect($0, $1)
  }
  public var coverageSubtract: @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void = {
    inkwell_coverage_subtract($0, $1)
  }
  public var coverageFill: @Sendable (UnsafeMutablePointer<Float>, Float) -> Void = {
    inkwell_coverage_fill($0, $1)
  }

  public init(
    accumulateLine: @escaping @Sendable (UnsafeMutablePointer<Float>, Float, Float, Float, Float) -> Void,
    accumulateLines: @escaping @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, Int) -> Void,
    addBackdrop: @escaping @Sendable (UnsafeMutablePointer<Float>, Float) -> Void,
    resolveCoverage:
      @escaping @Sendable (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, FillRule) -> Void,
    compositeMask:
      @escaping @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void,
    fillCoverage:
      @escaping @Sendable (
        UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, FillRule, UnsafePointer<Float>
      ) -> Void,
    compositeSolid: @escaping @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, Float) -> Void,
    fillTile: @escaping @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void,
    resolveSRGB8:
      @escaping @Sendable (UnsafePointer<Float>, Int, Int, UnsafeMutablePointer<UInt8>, Int) -> Void,
    encodeSRGB8: @escaping @Sendable (UnsafePointer<Float>, UnsafeMutablePointer<UInt8>, Int) -> Void
  ) {
    self.accumulateLine = accumulateLine
    self.accumulateLines = accumulateLines
    self.addBackdrop = addBackdrop
    self.resolveCoverage = resolveCoverage
    self.compositeMask = compositeMask
    self.fillCoverage = fillCoverage
    fillLines = { tile, cells, lines, count, backdrop, rule, color, blocks in
      if backdrop != 0 { addBackdrop(cells, backdrop) }
      accumulateLines(cells, lines, count)
      fillCoverage(tile, cells, rule, color)
      blocks?.pointee |= UInt32(INKWELL_ALL_BLOCKS)
    }
    self.compositeSolid = compositeSolid
    self.fillTile = fillTile
    self.resolveSRGB8 = resolveSRGB8
    resolveSRGB8Blocks = { tile, _, _, out, stride in
      resolveSRGB8(tile, TileGrid.tileSize, TileGrid.tileSize, out, stride)
    }
    self.encodeSRGB8 = encodeSRGB8
  }

  /// The C kernels at `SIMDLevel.selected`.
  public static let native = native(level: SIMDLevel.selected)!

  /// The C kernels at `level`, or `nil` when this machine cannot run it.
  public static func native(level: SIMDLevel) -> RasterKernels? {
    guard let table = inkwell_kernels_for(level.c)?.pointee,
      let accumulateLine = table.accumulate_line, let accumulateLines = table.accumulate_lines,
      let addBackdrop = table.add_backdrop, let resolveCoverage = table.resolve_coverage,
      let compositeMask = table.composite_mask, let fillCoverage = table.fill_coverage,
      let compositeSolid = table.composite_solid, let fillTile = table.fill_tile,
      let resolveSRGB8 = table.resolve_srgb8, let encodeSRGB8 = table.encode_srgb8,
      let fillLines = table.fill_lines, let resolveSRGB8Blocks = table.resolve_srgb8_blocks
    else { return nil }
    var kernels = RasterKernels(
      accumulateLine: { accumulateLine($0, $1, $2, $3, $4) },
      accumulateLines: { accumulateLines($0, $1, $2) },
      addBackdrop: { addBackdrop($0, $1) },
      resolveCoverage: { resolveCoverage($0, $1, $2.c) },
      compositeMask: { compositeMask($0, $1, $2) },
      fillCoverage: { fillCoverage($0, $1, $2.c, $3) },
      compositeSolid: { compositeSolid($0, $1, $2) },
      fillTile: { fillTile($0, $1) },
      resolveSRGB8: { resolveSRGB8($0, Int32($1), Int32($2), $3, $4) },
      encodeSRGB8: { encodeSRGB8($0, $1, $2) })
    kernels.fillLines = { fillLines($0, $1, $2, $3, $4, $5.c, $6, $7) }
    kernels.resolveSRGB8Blocks = { resolveSRGB8Blocks($0, $1, $2, $3, $4) }
    return kernels
  }
}

extension FillRule {
  var c: inkwell_fill_rule { self == .nonZero ? INKWELL_FILL_NONZERO : INKWELL_FILL_EVENODD }
}
