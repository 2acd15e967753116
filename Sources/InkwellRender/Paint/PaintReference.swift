// The scalar Swift twin of every kernel in shaders-cpu/inks.c, operation for operation, so the
// two agree bit for bit; the tests hold the C kernels to it.

import InkwellKernels
import InkwellModel

/// Scalar reference paint kernels.
public enum PaintReference {
  static let tile = Int(INKWELL_TILE)

  @inline(__always) static func clamp01(_ v: Float) -> Float { v < 0 ? 0 : (v > 1 ? 1 : v) }

  public static func hash(_ x: Int32, _ y: Int32, seed: UInt32) -> UInt32 {
    var h = seed &* 0x9E37_79B9
    h ^= UInt32(bitPattern: x) &* 0x85EB_CA6B
    h ^= UInt32(bitPattern: y) &* 0xC2B2_AE35
    h ^= h >> 16
    h = h &* 0x7FEB_352D
    h ^= h >> 15
    h = h &* 0x846C_A68B
    h ^= h >> 16
    return h
  }

  @inline(__always) static func latticeFloor(_ u: Float) -> Float {
    let c: Float = u < -1.0e9 ? -1.0e9 : (u > 1.0e9 ? 1.0e9 : u)
    return c.rounded(.down)
  }

  public static func valueNoise(_ u: Float, _ v: Float, seed: UInt32) -> Float {
    let fu = latticeFloor(u)
    let fv = latticeFloor(v)
    let iu = Int32(fu)
    let iv = Int32(fv)
    let tu = clamp01(u - fu)
    let tv = clamp01(v - fv)
    let su = tu * tu * (3 - 2 * tu)
    let sv = tv * tv * (3 - 2 * tv)
    let scale: Float = 1 / 16_777_216
    let n00 = Float(hash(iu, iv, seed: seed) >> 8) * scale
    let n10 = Float(hash(iu &+ 1, iv, seed: seed) >> 8) * scale
    let n01 = Float(hash(iu, iv &+ 1, seed: seed) >> 8) * scale
    let n11 = Float(hash(iu &+ 1, iv &+ 1, seed: seed) >> 8) * scale
    let top = n00 + (n10 - n00) * su
    let bottom = n01 + (n11 - n01) * su
    return top + (bottom - top) * sv
  }

  public static func grain(
    coverage: UnsafeMutablePointer<Float>, x0: Int, y0: Int, matrix m: UnsafePointer<Float>, seed: UInt32,
    parameters: UnsafePointer<Float>
  ) {
    let (bite, depth, octave, weight) = (parameters[0], parameters[1], parameters[2], parameters[3])
    let (contrast, gain) = (parameters[4], parameters[5])
    let seed2 = seed ^ 0x5BD1_E995
    for y in 0..<tile {
      let py = Float(y0 + y) + 0.5
      for x in 0..<tile {
        let i = x * tile + y
        let mk = coverage[i]
        if mk <= 0 { continue }
        let px = Float(x0 + x) + 0.5
        let u = m[0] * px + m[2] * py + m[4]
        let v = m[1] * px + m[3] * py + m[5]
        let n1 = valueNoise(u, v, seed: seed)
        let n2 = valueNoise(u * octave + 17.31, v * octave + 5.77, seed: seed2)
        let n = clamp01(0.5 + (n1 * (1 - weight) + n2 * weight - 0.5) * contrast)
        let bitten = clamp01((mk - bite * (1 - n)) * gain)
        coverage[i] = bitten * (1 - depth * (1 - n))
      }
    }
  }

  public static func threshold(coverage: UnsafeMutablePointer<Float>, threshold: Float, inverseSpan: Float) {
    for i in 0..<(tile * tile) {
      let d = coverage[i] - threshold
      coverage[i] = d > 0 ? clamp01(d * inverseSpan) : 0
    }
  }

  public static func compositeMultiply(
    tile planes: UnsafeMutablePointer<Float>, coverage: UnsafePointer<Float>, color: UnsafePointer<Float>
  ) {
    let pixels = tile * tile
    let r = planes
    let g = planes + pixels
    let b = g + pixels
    let a = b + pixels
    for i in 0..<pixels {
      let m = coverage[i]
      let sa = color[3] * m
      let da = a[i]
      let sr = color[0] * m
      let sg = color[1] * m
      let sb = color[2] * m
      r[i] = sr * (1 - da) + r[i] * (1 - sa) + sr * r[i]
      g[i] = sg * (1 - da) + g[i] * (1 - sa) + sg * g[i]
      b[i] = sb * (1 - da) + b[i] * (1 - sa) + sb * b[i]
      a[i] = sa + da * (1 - sa)
    }
  }

  /// The value interpolated along the nearest segment to (qx, qy); the first nearest wins.
  static func nearestValue(_ segments: UnsafePointer<Float>, _ count: Int, _ qx: Float, _ qy: Float) -> Float
  {
    var best = Float.infinity
    var value: Float = count > 0 ? segments[2] : 1
    for k in 0..<count {
      let s = segments + 6 * k
      let dx = s[3] - s[0]
      let dy = s[4] - s[1]
      let len2 = dx * dx + dy * dy
      var t: Float = len2 > 0 ? ((qx - s[0]) * dx + (qy - s[1]) * dy) / len2 : 0
      t = clamp01(t)
      let ex = s[0] + dx * t - qx
      let ey = s[1] + dy * t - qy
      let d2 = ex * ex + ey * ey
      if d2 < best {
        best = d2
        value = s[2] + (s[5] - s[2]) * t
      }
    }
    return value
  }

  public static func profile(
    coverage: UnsafeMutablePointer<Float>, x0: Int, y0: Int, segments: UnsafePointer<Float>, count: Int
  ) {
    for y in 0..<tile {
      let qy = Float(y0 + y) + 0.5
      for x in 0..<tile {
        let i = x * tile + y
        if coverage[i] <= 0 { continue }
        let value = nearestValue(segments, count, Float(x0 + x) + 0.5, qy)
        coverage[i] = coverage[i] * value
      }
    }
  }

  public static func thresholdProfile(
    coverage: UnsafeMutablePointer<Float>, x0: Int, y0: Int, segments: UnsafePointer<Float>, count: Int
  ) {
    for y in 0..<tile {
      let qy = Float(y0 + y) + 0.5
      for x in 0..<tile {
        let i = x * tile + y
        if coverage[i] <= 0 { continue }
        let t = nearestValue(segments, count, Float(x0 + x) + 0.5, qy)
        let d = coverage[i] - t
        coverage[i] = (d > 0 && t < 1) ? clamp01(d / (1 - t)) : 0
      }
    }
  }
}
