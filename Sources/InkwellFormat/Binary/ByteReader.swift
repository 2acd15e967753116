import InkwellModel

/// Reads what `ByteWriter` writes, from a range of a byte array. Every read checks the bytes left
/// first and every count is checked against them before anything is allocated, so no input traps
/// or allocates more than its own size allows. Errors carry `path` and the offset of the read.
struct ByteReader {
  let bytes: [UInt8]
  private(set) var index: Int
  let end: Int
  /// Names the bytes being read in errors (`elements`, `THMB`).
  let path: String
  /// Added to offsets in errors: the position of these bytes in the file, or 0 inside a
  /// decompressed section.
  let reportedBase: Int

  init(_ bytes: [UInt8], range: Range<Int>? = nil, path: String, reportedBase: Int = 0) {
    self.bytes = bytes
    self.index = range?.lowerBound ?? 0
    self.end = range?.upperBound ?? bytes.count
    self.path = path
    self.reportedBase = reportedBase
  }

  var remaining: Int { end - index }
  var isAtEnd: Bool { index >= end }

  func error(_ kind: DocumentError.Kind, at offset: Int? = nil, path subpath: String = "") -> DocumentError {
    DocumentError(kind, path: path + subpath, byteOffset: reportedBase + (offset ?? index))
  }

  private mutating func take(_ count: Int) throws(DocumentError) -> Int {
    guard count <= remaining else { throw error(.truncated(needed: count, available: remaining)) }
    let start = index
    index += count
    return start
  }

  mutating func u8() throws(DocumentError) -> UInt8 { bytes[try take(1)] }

  mutating func u16() throws(DocumentError) -> UInt16 {
    let i = try take(2)
    return UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
  }

  mutating func u32() throws(DocumentError) -> UInt32 {
    let i = try take(4)
    return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
      << 24
  }

  mutating func u64() throws(DocumentError) -> UInt64 {
    let i = try take(8)
    var v: UInt64 = 0
    for k in 0..<8 { v |= UInt64(bytes[i + k]) << UInt64(8 * k) }
    return v
  }

  /// A finite `Float`.
  mutating func f32(_ what: @autoclosure () -> String) throws(DocumentError) -> Float {
    let at = index
    let v = Float(bitPattern: try u32())
    guard v.isFinite else {
      throw error(.valueOutOfRange(value: "\(v)", allowed: "a finite number for \(what())"), at: at)
    }
    return v
  }

  /// A finite `Float` >= `minimum`.
  mutating func f32(_ what: @autoclosure () -> String, atLeast minimum: Float) throws(DocumentError) -> Float
  {
    let at = index
    let v = try f32(what())
    guard v >= minimum else {
      throw error(.valueOutOfRange(value: "\(v)", allowed: ">= \(minimum) for \(what())"), at: at)
    }
    return v
  }

  mutating func varint() throws(DocumentError) -> UInt64 {
    let at = index
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard index < end else { throw error(.truncated(needed: 1, available: 0)) }
      let byte = bytes[index]
      index += 1
      if shift == 63, byte > 1 { throw error(.invalidBinary("varint overflows 64 bits"), at: at) }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
      guard shift <= 63 else { throw error(.invalidBinary("varint longer than 10 bytes"), at: at) }
    }
  }

  /// A count of items each taking at least `minimumSize` bytes, checked against the bytes left.
  mutating func count(_ what: String, minimumSize: Int = 1) throws(DocumentError) -> Int {
    let at = index
    let n = try varint()
    let limit = remaining / Swift.max(minimumSize, 1)
    guard n <= UInt64(limit) else { throw error(.countTooLarge(count: n, what: what, limit: limit), at: at) }
    return Int(n)
  }

  mutating func data(_ what: String) throws(DocumentError) -> [UInt8] {
    let n = try count(what + " byte")
    let i = try take(n)
    return Array(bytes[i..<(i + n)])
  }

  mutating func string(_ what: String) throws(DocumentError) -> String {
    let at = index
    let raw = try data(what)
    guard let text = String(validating: raw, as: UTF8.self) else { throw error(.invalidUTF8, at: at) }
    return text
  }

  /// Moves to `position`, which must lie between the current position and the end.
  mutating func seek(to position: Int) throws(DocumentError) {
    guard position >= index, position <= end else { throw error(.invalidBinary("seek outside the data")) }
    index = position
  }

  /// Skips `count` bytes, returning where they start.
  mutating func skip(_ count: Int) throws(DocumentError) -> Int { try take(count) }
}
