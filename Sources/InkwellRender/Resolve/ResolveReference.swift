// The scalar Swift twins of shaders-cpu/resolve.c: the oracle the tests hold the C kernels to.
// Each function does the same operations in the same order, in the same precision (transfer
// functions in Double through the same libm), so the two agree bit for bit.

import InkwellKernels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scalar reference implementations of the resolve kernels.
public enum ResolveReference {
  static let pqM1 = 2610.0 / 16384.0
  static let pqM2 = 2523.0 / 4096.0 * 128.0
  static let pqC1 = 3424.0 / 4096.0
  static let pqC2 = 2413.0 / 4096.0 * 32.0
  static let pqC3 = 2392.0 / 4096.0 * 32.0

  /// Absolute luminance / 10 000 nits → PQ signal.
  public static func pqEncode(_ y: Double) -> Double {
    if y <= 0 { return 0 }
    let p = Glibc.pow(y, pqM1)
    return Glibc.pow((pqC1 + pqC2 * p) / (1.0 + pqC3 * p), pqM2)
  }

  /// PQ signal → absolute luminance / 10 000 nits.
  public static func pqDecode(_ e: Double) -> Double {
    if e <= 0 { return 0 }
    let p = Glibc.pow(e, 1.0 / pqM2)
    let n = p - pqC1
    if n <= 0 { return 0 }
    return Glibc.pow(n / (pqC2 - pqC3 * p), 1.0 / pqM1)
  }

  static let hlgA = 0.17883277
  static let hlgB = 0.28466892
  static let hlgC = 0.55991073
  static let hlgGamma = 1.2

  /// BT.2100 HLG OETF: scene light 0…1 → signal 0…1.
  public static func hlgOETF(_ e: Double) -> Double {
    if e <= 0 { return 0 }
    if e <= 1.0 / 12.0 { return (3.0 * e).squareRoot() }
    return hlgA * Glibc.log(12.0 * e - hlgB) + hlgC
  }

  /// The inverse HLG OETF: signal → scene light.
  public static func hlgInverseOETF(_ s: Double) -> Double {
    if s <= 0 { return 0 }
    if s <= 0.5 { return s * s / 3.0 }
    return (Glibc.exp((s - hlgC) / hlgA) + hlgB) / 12.0
  }

  static func compressPeak(_ p: inkwell_resolve_params, _ m: Float) -> Float {
    switch UInt32(p.curve) {
    case INKWELL_TONE_CLIP.rawValue:
      return m < p.headroom ? m : p.headroom
    case INKWELL_TONE_REINHARD.rawValue:
      let v = p.headroom - p.knee
      if !(v > 0) { return p.headroom }
      let x = (m - p.knee) / v
      let w = p.reinhard_white
      let h = x * (1 + x / (w * w)) / (1 + x)
      return p.knee + v * h
    case INKWELL_TONE_BT2390.rawValue:
      let sw = Double(p.sdr_white_nits)
      let e1 = Float(pqEncode(Double(m) * sw / 10000.0) / Double(p.eetf_source_pq))
      let ks = p.eetf_knee
      if e1 <= ks { return m }
      var t = (e1 - ks) / (1 - ks)
      if t > 1 { t = 1 }
      let t2 = t * t
      let t3 = t2 * t
      let a = (2 * t3 - 3 * t2 + 1) * ks
      let b = (t3 - 2 * t2 + t) * (1 - ks) * p.eetf_tangent
      let c = (-2 * t3 + 3 * t2) * p.eetf_target
      let e2 = a + b + c
      var out = Float(pqDecode(Double(e2) * Double(p.eetf_source_pq)) * 10000.0 / sw)
      if out < p.knee { out = p.knee }
      return out < m ? out : m
    default:
      return m
    }
  }

  /// Twin of `inkwell_tone_map`.
  public static func toneMap(_ p: inkwell_resolve_params, _ rgb: inout (Float, Float, Float)) {
    let m = max3(rgb.0, rgb.1, rgb.2)
    if !(m > p.knee) { return }
    var mc = UInt32(p.curve) == INKWELL_TONE_NONE.rawValue ? m : compressPeak(p, m)
    if !(mc <= p.headroom) { mc = p.headroom }
    if !(mc < m) { return }
    let s = mc / m
    let r = rgb.0 == m ? mc : rgb.0 * s
    let g = rgb.1 == m ? mc : rgb.1 * s
    let b = rgb.2 == m ? mc : rgb.2 * s
    let t: Float = UInt32(p.curve) == INKWELL_TONE_CLIP.rawValue ? 0 : p.path_to_white * (1 - s)
    rgb = (r + (mc - r) * t, g + (mc - g) * t, b + (mc - b) * t)
  }

  @inline(__always) static func max3(_ a: Float, _ b: Float, _ c: Float) -> Float {
    let m = a > b ? a : b
    return m > c ? m : c
  }

  @inline(__always) static func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float {
    v < lo ? lo : (v > hi ? hi : v)
  }

  static func srgbEncode(_ v: Float) -> Float {
    if v <= 0.0031308 { return v * 12.92 }
    return 1.055 * Glibc.powf(v, 1.0 / 2.4) - 0.055
  }

  static func srgbDecode(_ v: Float) -> Float {
    if v <= 0.04045 { return v / 12.92 }
    return Glibc.powf((v + 0.055) / 1.055, 2.4)
  }

  /// Twin of `inkwell_transfer_encode`.
  public static func transferEncode(_ p: inkwell_resolve_params, _ rgb: inout (Float, Float, Float)) {
    switch UInt32(p.transfer) {
    case INKWELL_TRANSFER_SRGB.rawValue:
      rgb = (srgbEncode(clamp(rgb.0, 0, 1)), srgbEncode(clamp(rgb.1, 0, 1)), srgbEncode(clamp(rgb.2, 0, 1)))
    case INKWELL_TRANSFER_PQ.rawValue:
      func f(_ v: Float) -> Float { Float(pqEncode(Double(v) * Double(p.sdr_white_nits) / 10000.0)) }
      rgb = (f(rgb.0), f(rgb.1), f(rgb.2))
    case INKWELL_TRANSFER_HLG.rawValue:
      let scale = Double(p.sdr_white_nits) / Double(p.hlg_peak_nits)
      func d(_ x: Float) -> Double {
        let v = Double(x) * scale
        return v < 0 ? 0 : (v > 1 ? 1 : v)
      }
      let (d0, d1, d2) = (d(rgb.0), d(rgb.1), d(rgb.2))
      let yd = Double(p.luma.0) * d0 + Double(p.luma.1) * d1 + Double(p.luma.2) * d2
      let k = yd > 0 ? Glibc.pow(yd, (1.0 - hlgGamma) / hlgGamma) : 0
      rgb = (Float(hlgOETF(d0 * k)), Float(hlgOETF(d1 * k)), Float(hlgOETF(d2 * k)))
    default:
      break
    }
  }

  /// Twin of `inkwell_transfer_decode`.
  public static func transferDecode(_ p: inkwell_resolve_params, _ rgb: inout (Float, Float, Float)) {
    switch UInt32(p.transfer) {
    case INKWELL_TRANSFER_SRGB.rawValue:
      rgb = (srgbDecode(rgb.0), srgbDecode(rgb.1), srgbDecode(rgb.2))
    case INKWELL_TRANSFER_PQ.rawValue:
      func f(_ v: Float) -> Float { Float(pqDecode(Double(v)) * 10000.0 / Double(p.sdr_white_nits)) }
      rgb = (f(rgb.0), f(rgb.1), f(rgb.2))
    case INKWELL_TRANSFER_HLG.rawValue:
      let e = (hlgInverseOETF(Double(rgb.0)), hlgInverseOETF(Double(rgb.1)), hlgInverseOETF(Double(rgb.2)))
      let ys = Double(p.luma.0) * e.0 + Double(p.luma.1) * e.1 + Double(p.luma.2) * e.2
      let k = ys > 0 ? Glibc.pow(ys, hlgGamma - 1.0) : 0
      let scale = Double(p.hlg_peak_nits) / Double(p.sdr_white_nits)
      rgb = (Float(e.0 * k * scale), Float(e.1 * k * scale), Float(e.2 * k * scale))
    default:
      break
    }
  }

  static let bayer8: [UInt8] = [
    0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
    12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
    3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
    15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
  ]

  /// Twin of `inkwell_dither_offset`.
  public static func ditherOffset(x: Int, y: Int) -> Float {
    (Float(bayer8[(y & 7) * 8 + (x & 7)]) + 0.5) / 64
  }

  static let plane = Int(INKWELL_TILE_PIXELS)
  static let side = Int(INKWELL_TILE)

  static func resolvePixel(_ tile: UnsafePointer<Float>, _ i: Int, _ p: inkwell_resolve_params) -> (
    (Float, Float, Float), Float
  ) {
    let alpha = clamp(tile[3 * plane + i], 0, 1)
    let inv: Float = alpha > 0 ? 1 / alpha : 0
    let r = tile[i] * inv
    let g = tile[plane + i] * inv
    let b = tile[2 * plane + i] * inv
    let m = p.matrix
    var rgb = (
      m.0 * r + m.1 * g + m.2 * b,
      m.3 * r + m.4 * g + m.5 * b,
      m.6 * r + m.7 * g + m.8 * b
    )
    toneMap(p, &rgb)
    return (rgb, alpha)
  }

  /// The resolve kernels as scalar Swift.
  public static let kernels = ResolveKernels(
    resolveF32: { tile, w, h, p, out, stride in
      for y in 0..<h {
        for x in 0..<w {
          let (rgb, alpha) = resolvePixel(tile, x * side + y, p)
          let o = out + y * stride + 4 * x
          (o[0], o[1], o[2], o[3]) = (rgb.0, rgb.1, rgb.2, alpha)
        }
      }
    },
    resolvePremultipliedF32: { tile, w, h, p, out, stride in
      for y in 0..<h {
        for x in 0..<w {
          let (rgb, alpha) = resolvePixel(tile, x * side + y, p)
          let o = out + y * stride + 4 * x
          (o[0], o[1], o[2], o[3]) = (rgb.0 * alpha, rgb.1 * alpha, rgb.2 * alpha, alpha)
        }
      }
    },
    resolveU16: { tile, w, h, p, out, stride in
      for y in 0..<h {
        for x in 0..<w {
          var (rgb, alpha) = resolvePixel(tile, x * side + y, p)
          transferEncode(p, &rgb)
          let o = out + y * stride + 4 * x
          func q(_ v: Float) -> UInt16 { UInt16(Int(clamp(v, 0, 1) * 65535 + 0.5)) }
          (o[0], o[1], o[2], o[3]) = (q(rgb.0), q(rgb.1), q(rgb.2), UInt16(Int(alpha * 65535 + 0.5)))
        }
      }
    },
    resolveU8: { tile, w, h, ox, oy, dither, p, out, stride in
      resolveU8(tile, w, h, ox, oy, dither, p, out, stride)
    },
    // The blocks left clean hold the background, which resolves to what `clean` holds: the whole
    // tile, resolved, gives the same bytes.
    resolveU8Blocks: { tile, _, _, _, ox, oy, dither, p, out, stride in
      resolveU8(tile, side, side, ox, oy, dither, p, out, stride)
    })

  static func resolveU8(
    _ tile: UnsafePointer<Float>, _ w: Int, _ h: Int, _ ox: Int, _ oy: Int, _ dither: Bool,
    _ p: inkwell_resolve_params, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int
  ) {
    let tabled = p.transfer == Int32(INKWELL_TRANSFER_SRGB.rawValue)
    for y in 0..<h {
      for x in 0..<w {
        var (rgb, alpha) = resolvePixel(tile, x * side + y, p)
        let o = out + y * stride + 4 * x
        if tabled {
          let row = Int(bayer8[((oy + y) & 7) * 8 + ((ox + x) & 7)])
          func q(_ v: Float) -> UInt8 {
            let plain = KernelReference.srgb8(fromLinear: v)
            return dither ? ditheredCode(row: row, plain: plain, v) : plain
          }
          (o[0], o[1], o[2], o[3]) = (q(rgb.0), q(rgb.1), q(rgb.2), UInt8(Int(alpha * 255 + 0.5)))
          continue
        }
        transferEncode(p, &rgb)
        let offset = dither ? ditherOffset(x: ox + x, y: oy + y) : 0.5
        func q(_ c: Float) -> UInt8 {
          let v = clamp(c, 0, 1) * 255 + offset
          return UInt8(Int(v < 255 ? v : 255))
        }
        (o[0], o[1], o[2], o[3]) = (q(rgb.0), q(rgb.1), q(rgb.2), UInt8(Int(alpha * 255 + 0.5)))
      }
    }
  }

  /// Where each 8-bit sRGB code begins in linear light, per dither row (see resolve.c): rows 0…63
  /// for the ordered dither's offsets (row + ½)/64, row 64 for plain rounding.
  public static let srgbCodeStarts: [[Float]] = (0...64).map { row in
    let offset = row < 64 ? (Double(row) + 0.5) / 64 : 0.5
    return [-1]
      + (1...255).map { j in
        let e = (Double(j) - offset) / 255
        return Float(e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4))
      }
  }

  /// The code for dither row `row` from the plain-rounding code of the same value (see
  /// resolve.c): at most one away, settled by two compares.
  static func ditheredCode(row: Int, plain: UInt8, _ v: Float) -> UInt8 {
    let starts = srgbCodeStarts[row]
    let lo = plain > 0 ? Int(plain) - 1 : 0
    var code = lo
    if lo + 1 <= 255 && v >= starts[lo + 1] { code += 1 }
    if lo + 2 <= 255 && v >= starts[lo + 2] { code += 1 }
    return UInt8(code)
  }
}
