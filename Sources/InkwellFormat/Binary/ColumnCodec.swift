// Point columns in the binary format: each column of a stroke's points (x, y, t, force, …) is one
// run of zigzag LEB128 varints, residuals of a predictor chosen per column from four:
//
//   mode 0  float bit patterns (mapped to ordered integers), previous value predicts
//   mode 1  float bit patterns, linear extrapolation 2·v[i−1] − v[i−2] predicts
//   mode 2  decimal integers n = v·10^k, previous value predicts
//   mode 3  decimal integers, linear extrapolation predicts
//
// The mode byte holds the mode in its low two bits and k (0…9) in the high four. Decimal modes
// apply only when every value of the column is exactly `Float(Double(n) / 10^k)` for a whole n —
// true of most recorded data, whose floats come from short decimals — and are verified value by
// value, so the coding is lossless for every bit pattern (−0 and all). The encoder writes all four
// and keeps the shortest. Measured on the examples and converted corpus, with the whole element
// section deflated afterwards: raw Float32 columns reach 2.3–2.5× smaller than compact JSON,
// previous-value bit deltas 5.3–9.5×, the best of the four 6.2–11.8× (details in docs/format.md).

/// Encodes and decodes one column of Float32 values.
enum ColumnCodec {
  static let powersOfTen: [Double] = (0...9).map { k in (0..<k).reduce(1.0) { acc, _ in acc * 10 } }

  static func encode(_ values: [Float], into writer: inout ByteWriter) {
    var best: [UInt8]?
    for mode in 0..<4 {
      var candidate = ByteWriter()
      guard encode(values, mode: UInt8(mode), into: &candidate) else { continue }
      if let shortest = best, shortest.count <= candidate.bytes.count { continue }
      best = candidate.bytes
    }
    writer.bytes += best ?? []
  }

  private static func encode(_ values: [Float], mode: UInt8, into writer: inout ByteWriter) -> Bool {
    var integers: [Int64] = []
    integers.reserveCapacity(values.count)
    var header = mode
    if mode < 2 {
      for v in values { integers.append(Int64(orderedKey(v.bitPattern))) }
    } else {
      guard let (digits, decimals) = decimalIntegers(values) else { return false }
      integers = decimals
      header |= UInt8(digits) << 4
    }
    writer.u8(header)
    let extrapolate = mode & 1 == 1
    var previous: Int64 = 0
    var beforePrevious: Int64 = 0
    for (i, n) in integers.enumerated() {
      let prediction = extrapolate && i >= 2 ? previous &* 2 &- beforePrevious : previous
      let residual = n &- prediction
      writer.varint(UInt64(bitPattern: (residual << 1) ^ (residual >> 63)))
      beforePrevious = previous
      previous = n
    }
    return true
  }

  /// The fewest decimal digits k and the integers n with `Float(Double(n) / 10^k) == v` bit for bit.
  private static func decimalIntegers(_ values: [Float]) -> (Int, [Int64])? {
    candidates: for k in 0..<powersOfTen.count {
      let scale = powersOfTen[k]
      var result: [Int64] = []
      result.reserveCapacity(values.count)
      for v in values {
        let scaled = (Double(v) * scale).rounded()
        guard abs(scaled) <= 9_007_199_254_740_992 else { continue candidates }
        let n = Int64(scaled)
        guard Float(Double(n) / scale).bitPattern == v.bitPattern else { continue candidates }
        result.append(n)
      }
      return (k, result)
    }
    return nil
  }

  /// Decodes `count` values; `what` names the column in errors.
  static func decode(
    count: Int, from reader: inout ByteReader, what: @autoclosure () -> String
  ) throws(DocumentError) -> [Float] {
    let headerOffset = reader.index
    let header = try reader.u8()
    let mode = header & 0x0F
    let digits = Int(header >> 4)
    guard mode < 4, mode >= 2 || digits == 0, digits < powersOfTen.count else {
      throw reader.error(.invalidBinary("unknown column coding \(header) for \(what())"), at: headerOffset)
    }
    guard count <= reader.remaining else {
      throw reader.error(
        .countTooLarge(count: UInt64(count), what: what() + " value", limit: reader.remaining))
    }
    let extrapolate = mode & 1 == 1
    let scale = powersOfTen[digits]
    // The hot loop of binary loading: it reads through a buffer pointer, keeps its position in a
    // local, and reports a problem as an offset and a reason, thrown once outside. A varint with
    // ten bytes of room after it (any varint fits) is read without a bounds check a byte.
    var values = [Float](repeating: 0, count: count)
    var position = reader.index
    let end = reader.end
    var failure: (offset: Int, kind: DocumentError.Kind)?
    reader.bytes.withUnsafeBufferPointer { buffer in
      values.withUnsafeMutableBufferPointer { output in
        var at = position
        var previous: Int64 = 0
        var beforePrevious: Int64 = 0
        for i in 0..<count {
          let start = at
          var zigzag: UInt64 = 0
          if at &+ 10 <= end, let base = buffer.baseAddress {
            var byte = base[at]
            at &+= 1
            zigzag = UInt64(byte & 0x7F)
            var shift: UInt64 = 7
            while byte >= 0x80 {
              byte = base[at]
              at &+= 1
              guard shift < 63 || byte <= 1 else {
                failure = (start, .invalidBinary("varint overflows 64 bits"))
                return
              }
              zigzag |= UInt64(byte & 0x7F) &<< shift
              shift &+= 7
            }
          } else {
            var shift: UInt64 = 0
            while true {
              guard at < end else {
                failure = (at, .truncated(needed: 1, available: 0))
                return
              }
              let byte = buffer[at]
              at &+= 1
              guard shift < 63 || byte <= 1 else {
                failure = (start, .invalidBinary("varint overflows 64 bits"))
                return
              }
              zigzag |= UInt64(byte & 0x7F) << shift
              if byte < 0x80 { break }
              shift &+= 7
            }
          }
          let residual = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
          let prediction = extrapolate && i >= 2 ? previous &* 2 &- beforePrevious : previous
          let n = residual &+ prediction
          beforePrevious = previous
          previous = n
          let value: Float
          if mode < 2 {
            guard let key = UInt32(exactly: n) else {
              failure = (start, .invalidBinary("value \(i) is not a float bit pattern"))
              return
            }
            value = Float(bitPattern: bitPattern(fromOrderedKey: key))
          } else {
            value = Float(Double(n) / scale)
          }
          guard value.isFinite else {
            failure = (start, .valueOutOfRange(value: "\(value)", allowed: "a finite number"))
            return
          }
          output[i] = value
        }
        position = at
      }
    }
    if let failure { throw reader.error(failure.kind, at: failure.offset, path: "." + what()) }
    try reader.seek(to: position)
    return values
  }

  /// Maps float bit patterns to integers in the floats' order, so that nearby values are nearby
  /// integers across zero (+0 and −0 stay distinct).
  static func orderedKey(_ bits: UInt32) -> UInt32 {
    bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
  }

  static func bitPattern(fromOrderedKey key: UInt32) -> UInt32 {
    key & 0x8000_0000 != 0 ? key & 0x7FFF_FFFF : ~key
  }
}
