/// A color as a person writes it: sRGB-encoded components and straight (not premultiplied) alpha,
/// each in 0…1. The renderer converts to linear light before it blends anything.
public struct Color: Hashable, Sendable {
  public var red: Float
  public var green: Float
  public var blue: Float
  public var alpha: Float

  public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
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

  /// `#rrggbbaa`, rounding each component to 8 bits.
  public var hexString: String {
    func byte(_ v: Float) -> String {
      let b = Int((min(max(v, 0), 1) * 255).rounded())
      let s = String(b, radix: 16)
      return s.count == 1 ? "0" + s : s
    }
    return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
  }
}

/// The sRGB transfer function (IEC 61966-2-1), exact, in both directions.
public enum SRGBTransfer {
  /// Encoded 0…1 → linear light.
  public static func linear(fromEncoded v: Float) -> Float {
    v <= 0.04045 ? v / 12.92 : FloatMath.pow((v + 0.055) / 1.055, 2.4)
  }

  /// Linear light → encoded 0…1.
  public static func encoded(fromLinear v: Float) -> Float {
    v <= 0.0031308 ? v * 12.92 : 1.055 * FloatMath.pow(v, 1 / 2.4) - 0.055
  }
}
