// The scalar Swift twin of every kernel in shaders-cpu, operation for operation, so that the two
// agree bit for bit. It is the oracle the tests hold every SIMD level of the C kernels to, and a
// drop-in `RasterKernels` set for rendering without them. Buffers are column-major: cell or pixel
// (x, y) of a tile lives at x·32 + y (see include/InkwellKernels.h).

import InkwellKernels
import InkwellModel

/// Scalar reference kernels.
public enum KernelReference {
  static let tile = Int(INKWELL_TILE)
  static let stride = Int(INKWELL_CELL_STRIDE)
  static let cellCount = Int(INKWELL_CELL_COUNT)
  static let pixels = Int(INKWELL_TILE_PIXELS)

  /// The reference kernels as a `RasterKernels` set.
  public static let kernels: RasterKernels = {
    var kernels = RasterKernels(
      accumulateLine: { accumulateLine(cells: $0, $1, $2, $3, $4) },
      accumulateLines: { accumulateLines(cells: $0, lines: $1, count: $2) },
      addBackdrop: { addBackdrop(cells: $0, $1) },
      resolveCoverage: { resolveCoverage(cells: $0, coverage: $1, rule: $2) },
      compositeMask: { compositeMask(tile: $0, coverage: $1, color: $2) },
      fillCoverage: { fillCoverage(tile: $0, cells: $1, rule: $2, color: $3) },
      compositeSolid: { compositeSolid(tile: $0, color: $1, coverage: $2) },
      fillTile: { fillTile(tile: $0, color: $1) },
      resolveSRGB8: { resolveSRGB8(tile: $0, width: $1, height: $2, output: $3, stride: $4) },
      encodeSRGB8: { encodeSRGB8(linear: $0, codes: $1, count: $2) })
    kernels.coverageIntersect = { coverageIntersect($0, $1) }
    kernels.coverageSubtract = { coverageSubtract($0, $1) }
    kernels.coverageFill = { coverageFill($0, $1) }
    kernels.fillLines = {
      fillLines(tile: $0, cells: $1, lines: $2, count: $3, backdrop: $4, rule: $5, color: $6)
      $7?.pointee |= UInt32(INKWELL_ALL_BLOCKS)
    }
    return kernels
  }()

  public static func coverageIntersect(_ coverage: UnsafeMutablePointer<Float>, _ clip: UnsafePointer<Float>)
  {
    for i in 0..<pixels { coverage[i] = coverage[i] * clip[i] }
  }

  public static func coverageSubtract(_ coverage: UnsafeMutablePointer<Float>, _ erased: UnsafePointer<Float>)
  {
    for i in 0..<pixels { coverage[i] = coverage[i] * (1 - erased[i]) }
  }

  public static func coverageFill(_ coverage: UnsafeMutablePointer<Float>, _ m: Float) {
    for i in 0..<pixels { coverage[i] = m }
  }

  @inline(__always) static func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float {
    v < lo ? lo : (v > hi ? hi : v)
  }

  /// Adds a piece inside one pixel row; `row` points at the row's cell in column 0, and the cell in
  /// column c is `row[c * stride]`.
  static func accumulateRow(_ row: UnsafeMutablePointer<Float>, _ xa: Float, _ xb: Float, _ dy: Float) {
    let xl = xa < xb ? xa : xb
    let xr = xa < xb ? xb : xa
    let cl = Swift.min(Int(xl), tile)
    if xr <= Float(cl) + 1 {
      let fx = (xl + xr) * 0.5 - Float(cl)
      row[cl * stride] += dy * (1 - fx)
      row[(cl + 1) * stride] += dy * fx
      return
    }
    // Each cell gets one add: its own part's left share plus the right share carried over.
    let inv = dy / (xr - xl)
    var x = xl
    var c = cl
    var carry: Float = 0
    while x < xr && c <= tile {
      let next = Float(c + 1)
      let end = next < xr ? next : xr
      let part = (end - x) * inv
      let fx = (x + end) * 0.5 - Float(c)
      row[c * stride] += carry + part * (1 - fx)
      carry = part * fx
      x = end
      c += 1
    }
    row[c * stride] += carry
  }

  public static func accumulateLine(
    cells: UnsafeMutablePointer<Float>, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float
  ) {
    let t = Float(tile)
    var (x0, y0, x1, y1) = (clamp(x0, 0, t), clamp(y0, 0, t), clamp(x1, 0, t), clamp(y1, 0, t))
    if y0 == y1 || x0.isNaN || y0.isNaN || x1.isNaN || y1.isNaN { return }
    var direction: Float = 1
    if y0 > y1 {
      swap(&y0, &y1)
      swap(&x0, &x1)
      direction = -1
    }
    let r0 = Int(y0)
    let r1 = Swift.min(Int(y1.rounded(.up)), tile)
    // Within one pixel row: its own ends, no slope.
    if r1 - r0 == 1 {
      accumulateRow(cells + r0, x0, x1, (y1 - y0) * direction)
      return
    }
    let dxdy = (x1 - x0) / (y1 - y0)
    // Each row starts where the one above ended: ya = max(r, y0), xa at ya.
    var (ya, xa) = (y0, x0)
    var r = r0
    while r < r1 {
      let yb = Float(r + 1) < y1 ? Float(r + 1) : y1
      let xb = clamp(x0 + (yb - y0) * dxdy, 0, t)
      if yb > ya { accumulateRow(cells + r, xa, xb, (yb - ya) * direction) }
      (ya, xa) = (yb, xb)
      r += 1
    }
  }

  /// `accumulateLine` for `count` lines (x0, y0, x1, y1 each) in chunks of INKWELL_LINE_CHUNK:
  /// within a chunk the short lines first, in order, then the others, in order.
  public static func accumulateLines(
    cells: UnsafeMutablePointer<Float>, lines: UnsafePointer<Float>, count: Int
  ) {
    let chunk = Int(INKWELL_LINE_CHUNK)
    var start = 0
    while start < count {
      let end = Swift.min(start + chunk, count)
      let short = (start..<end).map { isShortLine(lines + 4 * $0) }
      for pass in [true, false] {
        for i in start..<end where short[i - start] == pass {
          let l = lines + 4 * i
          accumulateLine(cells: cells, l[0], l[1], l[2], l[3])
        }
      }
      start = end
    }
  }

  /// Whether a row segment from `a` to `b` spans more than two cells, as the vector levels decide.
  static func segmentIsWide(_ a: Float, _ b: Float) -> Bool {
    let xl = a < b ? a : b
    let xr = a < b ? b : a
    let cl = Swift.min(Int(xl), tile)
    return xr > Float(cl) + 2
  }

  /// Whether a line is short: it adds nothing (level, or not a number), or it crosses at most two
  /// pixel rows and at most two cells of each, with the vector levels' operations (lanes.h).
  static func isShortLine(_ l: UnsafePointer<Float>) -> Bool {
    let t = Float(tile)
    let (x0, y0, x1, y1) = (clamp(l[0], 0, t), clamp(l[1], 0, t), clamp(l[2], 0, t), clamp(l[3], 0, t))
    if y0 == y1 || x0.isNaN || y0.isNaN || x1.isNaN || y1.isNaN { return true }
    let down = y0 > y1
    let (ya, yb) = down ? (y1, y0) : (y0, y1)
    let (xa, xb) = down ? (x1, x0) : (x0, x1)
    let r0 = Int(ya)
    var r1 = Int(yb)
    if Float(r1) < yb { r1 += 1 }
    let rows = r1 - r0
    if rows > 2 { return false }
    if rows < 2 { return !segmentIsWide(xa, xb) }
    let ym = Float(r0 + 1)
    let dxdy = (xb - xa) / (yb - ya)
    let xm = clamp(xa + (ym - ya) * dxdy, 0, t)
    let xe = clamp(xa + (yb - ya) * dxdy, 0, t)
    return !segmentIsWide(xa, xm) && !segmentIsWide(xm, xe)
  }

  public static func addBackdrop(cells: UnsafeMutablePointer<Float>, _ winding: Float) {
    for r in 0..<tile { cells[r] += winding }
  }

  /// Coverage of an accumulated winding under a fill rule; under `INKWELL_COVERAGE_FLOOR`, the
  /// float residue of pieces that cancel, none.
  @inline(__always) public static func coverage(winding sum: Float, rule: FillRule) -> Float {
    let a = abs(sum)
    let m: Float
    switch rule {
    case .nonZero:
      m = a < 1 ? a : 1
    case .evenOdd:
      let r = a - 2 * (a * 0.5).rounded(.down)
      m = r > 1 ? 2 - r : r
    }
    return m < INKWELL_COVERAGE_FLOOR ? 0 : m
  }

  public static func resolveCoverage(
    cells: UnsafeMutablePointer<Float>, coverage out: UnsafeMutablePointer<Float>, rule: FillRule
  ) {
    for r in 0..<tile {
      var sum: Float = 0
      for c in 0..<tile {
        sum += cells[c * stride + r]
        out[c * tile + r] = coverage(winding: sum, rule: rule)
      }
    }
    cells.update(repeating: 0, count: cellCount)
  }

  // Dc' = Sc·m + Dc·(1 − Sa·m)
  public static func compositeMask(
    tile planes: UnsafeMutablePointer<Float>, coverage: UnsafePointer<Float>, color: UnsafePointer<Float>
  ) {
    let (sr, sg, sb, sa) = (color[0], color[1], color[2], color[3])
    let r = planes
    let g = planes + pixels
    let b = g + pixels
    let a = b + pixels
    for i in 0..<pixels {
      let m = coverage[i]
      let keep = 1 - sa * m
      r[i] = sr * m + r[i] * keep
      g[i] = sg * m + g[i] * keep
      b[i] = sb * m + b[i] * keep
      a[i] = sa * m + a[i] * keep
    }
  }

  /// `resolveCoverage` then `compositeMask`.
  public static func fillCoverage(
    tile planes: UnsafeMutablePointer<Float>, cells: UnsafeMutablePointer<Float>, rule: FillRule,
    color: UnsafePointer<Float>
  ) {
    withUnsafeTemporaryAllocation(of: Float.self, capacity: pixels) { coverage in
      resolveCoverage(cells: cells, coverage: coverage.baseAddress!, rule: rule)
      compositeMask(tile: planes, coverage: coverage.baseAddress!, color: color)
    }
  }

  /// `addBackdrop` (when `backdrop` is not zero), `accumulateLines`, then `fillCoverage`.
  public static func fillLines(
    tile planes: UnsafeMutablePointer<Float>, cells: UnsafeMutablePointer<Float>, lines: UnsafePointer<Float>,
    count: Int, backdrop: Float, rule: FillRule, color: UnsafePointer<Float>
  ) {
    if backdrop != 0 { addBackdrop(cells: cells, backdrop) }
    accumulateLines(cells: cells, lines: lines, count: count)
    fillCoverage(tile: planes, cells: cells, rule: rule, color: color)
  }

  // Dc' = Sc·m + Dc·(1 − Sa·m), m constant over the tile.
  public static func compositeSolid(
    tile planes: UnsafeMutablePointer<Float>, color: UnsafePointer<Float>, coverage m: Float
  ) {
    let keep = 1 - color[3] * m
    for p in 0..<4 {
      let plane = planes + p * pixels
      let s = color[p] * m
      for i in 0..<pixels { plane[i] = s + plane[i] * keep }
    }
  }

  public static func fillTile(tile planes: UnsafeMutablePointer<Float>, color: UnsafePointer<Float>) {
    for p in 0..<4 {
      // + 0 stores −0 as +0.
      for i in 0..<pixels { planes[p * pixels + i] = color[p] + 0 }
    }
  }

  /// Linear-light thresholds of the 8-bit sRGB codes, computed from the sRGB definition in double
  /// precision: entry k is where code k begins (entry 0 is never compared against).
  public static let srgbThresholds: [Float] =
    [-1]
    + (1...255).map { k in
      let encoded = (Double(k) - 0.5) / 255
      let linear = encoded <= 0.04045 ? encoded / 12.92 : powDouble((encoded + 0.055) / 1.055, 2.4)
      return Float(linear)
    }

  /// The 8-bit sRGB code nearest to linear value `v`.
  public static func srgb8(fromLinear v: Float) -> UInt8 {
    var k = 0
    var step = 128
    while step > 0 {
      if v >= srgbThresholds[k + step] { k += step }
      step >>= 1
    }
    return UInt8(k)
  }

  public static func encodeSRGB8(linear: UnsafePointer<Float>, codes: UnsafeMutablePointer<UInt8>, count: Int)
  {
    for i in 0..<count { codes[i] = srgb8(fromLinear: linear[i]) }
  }

  public static func resolveSRGB8(
    tile planes: UnsafePointer<Float>, width: Int, height: Int, output: UnsafeMutablePointer<UInt8>,
    stride: Int
  ) {
    let r = planes
    let g = planes + pixels
    let b = g + pixels
    let a = b + pixels
    for y in 0..<height {
      let o = output + y * stride
      for x in 0..<width {
        let i = x * tile + y
        let alpha = clamp(a[i], 0, 1)
        let inverse: Float = alpha > 0 ? 1 / alpha : 0
        o[4 * x] = srgb8(fromLinear: r[i] * inverse)
        o[4 * x + 1] = srgb8(fromLinear: g[i] * inverse)
        o[4 * x + 2] = srgb8(fromLinear: b[i] * inverse)
        o[4 * x + 3] = UInt8(Int(alpha * 255 + 0.5))
      }
    }
  }
}

#if canImport(Glibc)
  import Glibc
  private func powDouble(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
#elseif canImport(Darwin)
  import Darwin
  private func powDouble(_ x: Double, _ y: Double) -> Double { Darwin.pow(x, y) }
#endif
