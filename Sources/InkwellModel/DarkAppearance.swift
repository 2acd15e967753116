// Dark appearance: ink colors adapted to a dark background, as PaperKit does when its
// `darkUserInterfaceStyle` is on.
//
// The mapping works in OKLCH (Björn Ottosson's OKLab in polar form), where lightness is perceptually
// even and hue and chroma are separate from it:
//
//   L' = 1 − (1 − floor) · L        hue h and chroma C kept; exposure and alpha kept
//
// with `floor` = 0.2. Black ink (L = 0) becomes white (L' = 1), near-black becomes near-white, a
// mid tone at L = 0.5 lands at 0.6, and white ink (L = 1) becomes a dark grey at L' = 0.2, which a
// dark page (its own background is mapped the same way: white paper → L 0.2) still separates from.
// The inversion is a straight line so that the order of lightnesses is reversed and their spacing
// kept; the floor keeps light inks from vanishing into the page. When the new lightness with the
// old chroma falls outside the color's gamut (a dark saturated yellow, say), chroma is reduced at
// that lightness and hue until it fits, by bisection; hue never moves.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// OKLab coordinates: lightness `l` (0 black … 1 white), and the opponent axes `a`, `b`.
public struct OKLab: Hashable, Sendable {
  public var l: Float
  public var a: Float
  public var b: Float

  public init(l: Float, a: Float, b: Float) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// From linear-light sRGB-primaries RGB.
  public init(linearSRGB c: (red: Float, green: Float, blue: Float)) {
    let lms = (
      0.4122214708 * c.red + 0.5363325363 * c.green + 0.0514459929 * c.blue,
      0.2119034982 * c.red + 0.6806995451 * c.green + 0.1073969566 * c.blue,
      0.0883024619 * c.red + 0.2817188376 * c.green + 0.6299787005 * c.blue
    )
    let l = cbrtf(lms.0)
    let m = cbrtf(lms.1)
    let s = cbrtf(lms.2)
    self.init(
      l: 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
      a: 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
      b: 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
  }

  /// Linear-light sRGB-primaries RGB.
  public var linearSRGB: (red: Float, green: Float, blue: Float) {
    let l1 = l + 0.3963377774 * a + 0.2158037573 * b
    let m1 = l - 0.1055613458 * a - 0.0638541728 * b
    let s1 = l - 0.0894841775 * a - 1.2914855480 * b
    let (l3, m3, s3) = (l1 * l1 * l1, m1 * m1 * m1, s1 * s1 * s1)
    return (
      4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
      -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
      -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
    )
  }

  /// Chroma: distance from the grey axis.
  public var chroma: Float { (a * a + b * b).squareRoot() }
}

extension Color {
  /// The lightness a dark appearance gives white (and the lowest it gives anything).
  public static let darkAppearanceFloor: Float = 0.2

  /// This color as it shows in a dark appearance: OKLab lightness inverted as
  /// `L' = 1 − (1 − 0.2)·L`, hue and chroma kept (chroma reduced only where the result would leave
  /// the gamut), primaries, exposure and alpha kept.
  public var adaptedForDarkAppearance: Color {
    let linear = sdrBase.linearComponents(in: .sRGB)
    let lab = OKLab(linearSRGB: linear)
    let newL = 1 - (1 - Self.darkAppearanceFloor) * Swift.min(Swift.max(lab.l, 0), 1)
    let chroma = lab.chroma
    let (ua, ub) = chroma > 1e-6 ? (lab.a / chroma, lab.b / chroma) : (0, 0)
    let toOwn = ColorSpaceConversion.matrix(from: .sRGB, to: colorSpace)
    func rgb(_ c: Float) -> (red: Float, green: Float, blue: Float) {
      toOwn.apply(OKLab(l: newL, a: ua * c, b: ub * c).linearSRGB)
    }
    func inGamut(_ v: (red: Float, green: Float, blue: Float)) -> Bool {
      let e: Float = 1e-4
      return v.red >= -e && v.green >= -e && v.blue >= -e && v.red <= 1 + e && v.green <= 1 + e
        && v.blue <= 1 + e
    }
    var c = chroma
    if !inGamut(rgb(c)) {
      var low: Float = 0
      var high = chroma
      for _ in 0..<24 {
        let mid = (low + high) / 2
        if inGamut(rgb(mid)) { low = mid } else { high = mid }
      }
      c = low
    }
    let v = rgb(c)
    func encode(_ x: Float) -> Float { SRGBTransfer.encoded(fromLinear: Swift.min(Swift.max(x, 0), 1)) }
    return Color(
      red: encode(v.red), green: encode(v.green), blue: encode(v.blue), alpha: alpha, colorSpace: colorSpace,
      linearExposure: linearExposure)
  }
}
