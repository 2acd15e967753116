/// Appends little-endian values, LEB128 varints and length-prefixed bytes.
struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func u8(_ v: UInt8) { bytes.append(v) }

  mutating func u16(_ v: UInt16) {
    bytes.append(UInt8(truncatingIfNeeded: v))
    bytes.append(UInt8(truncatingIfNeeded: v >> 8))
  }

  mutating func u32(_ v: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift)))
    }
  }

  mutating func u64(_ v: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
    }
  }

  mutating func f32(_ v: Float) { u32(v.bitPattern) }

  mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  mutating func varint(_ value: Int) { varint(UInt64(value)) }

  mutating func data(_ data: [UInt8]) {
    varint(data.count)
    bytes += data
  }

  mutating func string(_ text: String) { data(Array(text.utf8)) }
}
