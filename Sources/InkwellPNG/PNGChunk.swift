/// One PNG chunk: a four-letter type and its data (the length and CRC are added when written).
///
/// The constructors build the color chunks of the PNG Third Edition, which the system libpng
/// 1.6.39 has no API for: `cICP` (coding-independent code points, ITU-T H.273), `mDCV` (mastering
/// display color volume) and `cLLI` (content light level).
public struct PNGChunk: Hashable, Sendable {
  /// Four ASCII letters.
  public var type: [UInt8]
  public var data: [UInt8]

  public init(type: String, data: [UInt8]) {
    self.type = Array(type.utf8)
    self.data = data
  }

  /// The type as text.
  public var typeName: String { String(decoding: type, as: UTF8.self) }

  /// `cICP`: colour primaries, transfer characteristics and matrix coefficients (H.273 code
  /// points), and whether samples use the full range. RGB images use matrix 0.
  public static func codingIndependentCodePoints(
    primaries: UInt8, transfer: UInt8, matrix: UInt8 = 0, fullRange: Bool = true
  ) -> PNGChunk {
    PNGChunk(type: "cICP", data: [primaries, transfer, matrix, fullRange ? 1 : 0])
  }

  /// `cLLI`: the largest light level of any pixel (MaxCLL) and the largest frame-average light
  /// level (MaxFALL), in nits; stored in units of 0.0001 nit.
  public static func contentLightLevel(maxCLL: Double, maxFALL: Double) -> PNGChunk {
    PNGChunk(type: "cLLI", data: bigEndian(units(maxCLL, 10000)) + bigEndian(units(maxFALL, 10000)))
  }

  /// `mDCV`: the mastering display's red, green and blue primaries and white point (CIE 1931 xy;
  /// stored in units of 0.00002) and its largest and smallest luminance (nits; units of 0.0001).
  public static func masteringDisplayColorVolume(
    primaries: [(x: Double, y: Double)], whitePoint: (x: Double, y: Double), maxLuminance: Double,
    minLuminance: Double
  ) -> PNGChunk {
    var data: [UInt8] = []
    for p in primaries.prefix(3) {
      data += bigEndian16(UInt16(units(p.x, 50000)))
      data += bigEndian16(UInt16(units(p.y, 50000)))
    }
    data += bigEndian16(UInt16(units(whitePoint.x, 50000)))
    data += bigEndian16(UInt16(units(whitePoint.y, 50000)))
    data += bigEndian(units(maxLuminance, 10000))
    data += bigEndian(units(minLuminance, 10000))
    return PNGChunk(type: "mDCV", data: data)
  }

  static func units(_ value: Double, _ scale: Double) -> UInt32 {
    let v = (value * scale).rounded()
    guard v.isFinite, v > 0 else { return 0 }
    return v >= Double(UInt32.max) ? UInt32.max : UInt32(v)
  }

  static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
  }

  static func bigEndian16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }

  /// The chunks of a PNG file in order (IHDR through IEND), without checking CRCs; `nil` when the
  /// bytes are not a PNG or a chunk runs past the end.
  public static func chunks(in png: [UInt8]) -> [PNGChunk]? {
    let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    guard png.count >= 8, Array(png[0..<8]) == signature else { return nil }
    var result: [PNGChunk] = []
    var at = 8
    while at < png.count {
      guard png.count - at >= 12 else { return nil }
      let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
      guard length <= png.count - at - 12 else { return nil }
      result.append(
        PNGChunk(
          type: String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self),
          data: Array(png[(at + 8)..<(at + 8 + length)])))
      at += 12 + length
    }
    return result
  }
}
