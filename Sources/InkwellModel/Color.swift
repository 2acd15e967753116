// Color: what a person writes (encoded components), what the compositor blends (linear light),
// and the headroom above SDR white that HDR ink may use.
//
// A `Color` is an SDR base color (components encoded with the sRGB transfer curve, in the sRGB or
// Display P3 primaries, straight alpha) times a linear exposure ≥ 1, as UIKit's
// `UIColor(red:green:blue:alpha:linearExposure:)`: exposure 1 is SDR (the base color's white is
// SDR white), exposure 4 makes the same color four times as bright in linear light. The base color
// stays recoverable (`sdrBase`), so an SDR output can fall back to it and a document's maximum
// exposure can be lowered at render time (`cappingExposure(at:)`).
//
// The renderer composites in linear light with the sRGB primaries, premultiplied, in float, and
// keeps values above 1 (and below 0, for Display P3 colors outside the sRGB gamut): source-over is
// linear in the color, so converting primaries at the end gives the same result as compositing in
// the output's primaries. The primaries matrices below are derived from the CIE xy chromaticities of
// each space's red, green, blue and D65 white, in Double, then rounded to Float.

/// The primaries (and white point) a color's components refer to. Both use the sRGB transfer curve
/// for encoded components and D65 white.
public enum ColorSpace: String, CaseIterable, Hashable, Sendable {
  /// IEC 61966-2-1 (the primaries of BT.709).
  case sRGB = "srgb"
  /// Display P3: the DCI-P3 primaries with D65 white.
  case displayP3 = "p3"
  /// ITU-R BT.2020 / BT.2100 primaries, used by the HDR outputs (PQ and HLG).
  case bt2020 = "bt2020"
}

/// A color as a person writes it: encoded components and straight (not premultiplied) alpha, each
/// in 0…1, in `colorSpace`, at `linearExposure` times the brightness the components say. The
/// renderer converts to linear light before it blends anything.
public struct Color: Hashable, Sendable {
  public var red: Float
  public var green: Float
  public var blue: Float
  public var alpha: Float
  /// The primaries the components refer to.
  public var colorSpace: ColorSpace
  /// How many times brighter than its SDR base color this color is, in linear light; 1 is SDR.
  /// Values below 1 (or not finite) are read as 1.
  public var linearExposure: Float

  /// An SDR color: sRGB-encoded components in sRGB primaries, exposure 1.
  public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
    self.init(red: red, green: green, blue: blue, alpha: alpha, colorSpace: .sRGB, linearExposure: 1)
  }

  /// A color in `colorSpace` at `linearExposure` (≥ 1; 1 = SDR white), as
  /// `UIColor(red:green:blue:alpha:linearExposure:)`.
  public init(
    red: Float, green: Float, blue: Float, alpha: Float = 1, colorSpace: ColorSpace,
    linearExposure: Float = 1
  ) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
    self.colorSpace = colorSpace
    self.linearExposure = linearExposure
  }

  /// The exposure actually used: `linearExposure`, at least 1 and finite.
  public var effectiveExposure: Float {
    linearExposure.isFinite && linearExposure > 1 ? linearExposure : 1
  }

  /// Whether the color is brighter than SDR.
  public var isHDR: Bool { effectiveExposure > 1 }

  /// The same color at exposure 1: what an SDR-only reader shows.
  public var sdrBase: Color {
    var c = self
    c.linearExposure = 1
    return c
  }

  /// The color with its exposure lowered to at most `maximum` (a document's
  /// `colorMaximumLinearExposure`); `maximum` below 1 is read as 1.
  public func cappingExposure(at maximum: Float) -> Color {
    var c = self
    c.linearExposure = Swift.min(effectiveExposure, Swift.max(1, maximum))
    return c
  }

  /// The color with exposure `exposure`, keeping components, alpha and primaries.
  public func withExposure(_ exposure: Float) -> Color {
    var c = self
    c.linearExposure = exposure
    return c
  }

  /// Linear-light red, green and blue in `space`'s primaries, exposure applied, not premultiplied.
  /// Components are clamped to 0…1 before decoding; the result may exceed 1 (exposure) or leave
  /// 0…1 (a conversion to a smaller gamut).
  public func linearComponents(in space: ColorSpace = .sRGB) -> (red: Float, green: Float, blue: Float) {
    let e = effectiveExposure
    func decode(_ v: Float) -> Float { SRGBTransfer.linear(fromEncoded: Swift.min(Swift.max(v, 0), 1)) * e }
    // A component equal to an earlier one (a gray) reuses its value: decoding one that is not
    // an 8-bit value costs a power.
    let r = decode(red)
    let g = green.bitPattern == red.bitPattern ? r : decode(green)
    let b =
      blue.bitPattern == green.bitPattern ? g : blue.bitPattern == red.bitPattern ? r : decode(blue)
    let rgb = (r, g, b)
    // In its own primaries (nearly every ink) a color's finite components, none negative, pass
    // through the identity as they are (a product by 1 plus products by 0), so it is not applied:
    // the matrix's lookup and products had been a hundred instructions a stroke.
    if colorSpace == space, rgb.0.isFinite, rgb.1.isFinite, rgb.2.isFinite { return rgb }
    return ColorSpaceConversion.matrix(from: colorSpace, to: space).apply(rgb)
  }

  /// A color from linear-light components in `space` (any non-negative values): the exposure is
  /// the largest component when that is above 1, and the base color is the rest, encoded.
  public init(
    linearRed r: Float, green g: Float, blue b: Float, alpha: Float = 1, colorSpace space: ColorSpace = .sRGB
  ) {
    let peak = Swift.max(r, g, b)
    let exposure: Float = peak.isFinite && peak > 1 ? peak : 1
    func encode(_ v: Float) -> Float {
      SRGBTransfer.encoded(fromLinear: Swift.min(Swift.max(v / exposure, 0), 1))
    }
    self.init(
      red: encode(r), green: encode(g), blue: encode(b), alpha: alpha, colorSpace: space,
      linearExposure: exposure)
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional) and a few names
  /// (`black`, `white`, `transparent`, `red`, `green`, `blue`). Returns `nil` for anything else.
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "black":
      self = .black
      return
    case "white":
      self = .white
      return
    case "transparent", "clear":
      self = .clear
      return
    case "red":
      self.init(red: 1, green: 0, blue: 0)
      return
    case "green":
      self.init(red: 0, green: 0.5, blue: 0)
      return
    case "blue":
      self.init(red: 0, green: 0, blue: 1)
      return
    default: break
    }
    var hex = Substring(text)
    if hex.first == "#" { hex = hex.dropFirst() }
    guard hex.allSatisfy(\.isHexDigit) else { return nil }
    var digits = hex.map { UInt8($0.hexDigitValue!) }
    if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
    guard digits.count == 6 || digits.count == 8 else { return nil }
    var bytes: [Float] = stride(from: 0, to: digits.count, by: 2).map {
      Float(digits[$0] * 16 + digits[$0 + 1]) / 255
    }
    if bytes.count == 3 { bytes.append(1) }
    self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
  }

  /// `#rrggbbaa`, rounding each component to 8 bits (clamped to 0…1; a component that is not a
  /// number writes 00).
  public var hexString: String {
    func byte(_ v: Float) -> String {
      let b = v.isNaN ? 0 : Int((min(max(v, 0), 1) * 255).rounded())
      let s = String(b, radix: 16)
      return s.count == 1 ? "0" + s : s
    }
    return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
  }
}

/// The sRGB transfer function (IEC 61966-2-1), exact, in both directions.
public enum SRGBTransfer {
  /// Encoded 0…1 → linear light. A value that is exactly k / 255 (a color written as 8-bit hex,
  /// nearly every ink's) is read from a table of the same function's results, so the answer is the
  /// same float; a power cost a few hundred instructions a stroke on a page of thumbnails.
  public static func linear(fromEncoded v: Float) -> Float {
    let k = v * 255
    if k >= 0, k <= 255, let code = Int(exactly: k), Float(code) / 255 == v {
      return eightBitLinear[code]
    }
    return computedLinear(fromEncoded: v)
  }

  private static func computedLinear(fromEncoded v: Float) -> Float {
    v <= 0.04045 ? v / 12.92 : FloatMath.pow((v + 0.055) / 1.055, 2.4)
  }

  /// `linear(fromEncoded: Float(k) / 255)` for k in 0…255.
  private static let eightBitLinear: [Float] = (0...255).map { computedLinear(fromEncoded: Float($0) / 255) }

  /// Linear light → encoded 0…1.
  public static func encoded(fromLinear v: Float) -> Float {
    v <= 0.0031308 ? v * 12.92 : 1.055 * FloatMath.pow(v, 1 / 2.4) - 0.055
  }
}

/// A 3 × 3 matrix on linear-light RGB, row-major.
public struct ColorMatrix: Hashable, Sendable {
  public var m: [Float]

  public init(_ m: [Float]) {
    precondition(m.count == 9, "a color matrix has nine entries")
    self.m = m
  }

  public static let identity = ColorMatrix([1, 0, 0, 0, 1, 0, 0, 0, 1])

  public func apply(_ c: (Float, Float, Float)) -> (red: Float, green: Float, blue: Float) {
    (
      m[0] * c.0 + m[1] * c.1 + m[2] * c.2,
      m[3] * c.0 + m[4] * c.1 + m[5] * c.2,
      m[6] * c.0 + m[7] * c.1 + m[8] * c.2
    )
  }
}

/// Conversions between the primaries of `ColorSpace`, all with D65 white (no adaptation needed).
public enum ColorSpaceConversion {
  /// xy chromaticities of red, green, blue.
  static func primaries(_ space: ColorSpace) -> [(Double, Double)] {
    switch space {
    case .sRGB: return [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
    case .displayP3: return [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
    case .bt2020: return [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
    }
  }

  /// CIE xy of `space`'s red, green and blue.
  public static func chromaticities(_ space: ColorSpace) -> [(x: Double, y: Double)] {
    primaries(space).map { (x: $0.0, y: $0.1) }
  }

  static let whiteD65 = (0.3127, 0.3290)

  /// RGB → XYZ for `space`, row-major, Double.
  static func toXYZ(_ space: ColorSpace) -> [Double] {
    let p = primaries(space)
    // Columns: XYZ of each primary at Y = 1, scaled so that RGB (1, 1, 1) is the white point.
    let cols = p.map { (x, y) in [x / y, 1, (1 - x - y) / y] }
    let w = [whiteD65.0 / whiteD65.1, 1, (1 - whiteD65.0 - whiteD65.1) / whiteD65.1]
    let a = [
      cols[0][0], cols[1][0], cols[2][0], cols[0][1], cols[1][1], cols[2][1], cols[0][2], cols[1][2],
      cols[2][2],
    ]
    let s = multiply(invert(a), w)
    return [
      a[0] * s[0], a[1] * s[1], a[2] * s[2], a[3] * s[0], a[4] * s[1], a[5] * s[2], a[6] * s[0], a[7] * s[1],
      a[8] * s[2],
    ]
  }

  /// Linear RGB in `source` primaries → linear RGB in `target` primaries.
  public static func matrix(from source: ColorSpace, to target: ColorSpace) -> ColorMatrix {
    if source == target { return .identity }
    switch (source, target) {
    case (.sRGB, .displayP3): return sRGBToP3
    case (.displayP3, .sRGB): return p3ToSRGB
    case (.sRGB, .bt2020): return sRGBToBT2020
    case (.bt2020, .sRGB): return bt2020ToSRGB
    default: return ColorMatrix(compose(invert(toXYZ(target)), toXYZ(source)).map { Float($0) })
    }
  }

  static let sRGBToP3 = ColorMatrix(compose(invert(toXYZ(.displayP3)), toXYZ(.sRGB)).map { Float($0) })
  static let p3ToSRGB = ColorMatrix(compose(invert(toXYZ(.sRGB)), toXYZ(.displayP3)).map { Float($0) })
  static let sRGBToBT2020 = ColorMatrix(compose(invert(toXYZ(.bt2020)), toXYZ(.sRGB)).map { Float($0) })
  static let bt2020ToSRGB = ColorMatrix(compose(invert(toXYZ(.sRGB)), toXYZ(.bt2020)).map { Float($0) })

  /// The luminance (Y) weights of `space`'s linear RGB.
  public static func luminanceWeights(_ space: ColorSpace) -> (Float, Float, Float) {
    let m = toXYZ(space)
    return (Float(m[3]), Float(m[4]), Float(m[5]))
  }

  static func multiply(_ a: [Double], _ v: [Double]) -> [Double] {
    [
      a[0] * v[0] + a[1] * v[1] + a[2] * v[2], a[3] * v[0] + a[4] * v[1] + a[5] * v[2],
      a[6] * v[0] + a[7] * v[1] + a[8] * v[2],
    ]
  }

  static func compose(_ a: [Double], _ b: [Double]) -> [Double] {
    var r = [Double](repeating: 0, count: 9)
    for i in 0..<3 {
      for j in 0..<3 {
        r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j]
      }
    }
    return r
  }

  static func invert(_ m: [Double]) -> [Double] {
    let c00 = m[4] * m[8] - m[5] * m[7]
    let c01 = m[5] * m[6] - m[3] * m[8]
    let c02 = m[3] * m[7] - m[4] * m[6]
    let det = m[0] * c00 + m[1] * c01 + m[2] * c02
    return [
      c00 / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
      c01 / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
      c02 / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det,
    ]
  }
}
