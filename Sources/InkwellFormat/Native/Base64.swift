/// RFC 4648 base64 (standard alphabet, `=` padding), for thumbnails and preserved binary sections in
/// JSON. Decoding is strict: no whitespace, no missing padding, and the unused bits of the last
/// character must be zero, so every byte string has exactly one text and the round trip is exact.
enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
    return table
  }()

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i + 2 < bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
      i += 3
    }
    let rest = bytes.count - i
    if rest > 0 {
      let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
      out.append(UInt8(ascii: "="))
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes `text` encodes, or `nil` when it is not canonical base64.
  static func decode(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(chars.count / 4 * 3)
    var i = 0
    while i < chars.count {
      let isLast = i + 4 == chars.count
      let padding =
        isLast ? (chars[i + 3] == UInt8(ascii: "=") ? (chars[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
      var n: UInt32 = 0
      for k in 0..<4 {
        if k >= 4 - padding {
          n <<= 6
          continue
        }
        let v = values[Int(chars[i + k])]
        guard v != 0xFF else { return nil }
        n = n << 6 | UInt32(v)
      }
      out.append(UInt8(n >> 16 & 0xFF))
      if padding < 2 { out.append(UInt8(n >> 8 & 0xFF)) } else if n >> 8 & 0xFF != 0 { return nil }
      if padding < 1 { out.append(UInt8(n & 0xFF)) } else if n & 0xFF != 0 { return nil }
      i += 4
    }
    return out
  }
}
