/// A minimal reader of the protobuf wire format: the fields of one message, in order, with their
/// byte offsets. Every length is checked against the bytes that remain before anything is sliced,
/// so a message that claims a billion bytes fails at once without allocating; unknown fields are
/// skipped by their wire type, and groups (deprecated, unused by the formats read here) are errors.
public struct ProtobufReader {
  /// Why bytes are not a valid message.
  public enum Failure: Error, Hashable, Sendable {
    /// A field's bytes run past the end of its message.
    case truncated
    /// A varint longer than 10 bytes or beyond 64 bits.
    case malformedVarint
    /// Field number 0, or one beyond 2²⁹ − 1.
    case invalidFieldNumber(UInt64)
    /// A wire type this reader does not know (3 and 4 are groups; 6 and 7 do not exist).
    case unsupportedWireType(UInt8)
    /// A known field stored with a wire type other than its declared one.
    case wrongWireType(field: Int, found: UInt8)
    /// A value beyond the range of its declared type.
    case valueOutOfRange(field: Int)

    /// What went wrong, in a few words.
    public var message: String {
      switch self {
      case .truncated: return "a field runs past the end of its message"
      case .malformedVarint: return "malformed varint"
      case .invalidFieldNumber(let number): return "invalid field number \(number)"
      case .unsupportedWireType(let type): return "unsupported wire type \(type)"
      case .wrongWireType(let field, let found): return "field \(field) has the wrong wire type (\(found))"
      case .valueOutOfRange(let field): return "field \(field) is out of range"
      }
    }
  }

  /// One field of a message.
  public struct Field {
    /// How a field's value is stored.
    public enum Value {
      case varint(UInt64)
      case fixed64(UInt64)
      case lengthDelimited(Range<Int>)
      case fixed32(UInt32)
    }

    public var number: Int
    public var value: Value
    /// Byte offset of the field's tag.
    public var offset: Int
  }

  private let bytes: [UInt8]
  private var index: Int
  private let end: Int

  /// A reader of the message in `range` of `bytes` (the whole of `bytes` by default).
  public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
    self.bytes = bytes
    let range = range ?? 0..<bytes.count
    self.index = Swift.max(0, Swift.min(range.lowerBound, bytes.count))
    self.end = Swift.max(index, Swift.min(range.upperBound, bytes.count))
  }

  /// The byte offset of the next field (or the end of the message).
  public var offset: Int { index }

  /// The next field, or `nil` at the end of the message.
  public mutating func next() throws(Failure) -> Field? {
    guard index < end else { return nil }
    let start = index
    let tag = try readVarint()
    let number = tag >> 3
    guard number > 0, number < 1 << 29 else { throw .invalidFieldNumber(number) }
    let wireType = UInt8(tag & 7)
    let value: Field.Value
    switch wireType {
    case 0: value = .varint(try readVarint())
    case 1: value = .fixed64(try readLittleEndian(count: 8))
    case 2:
      let length = try readVarint()
      guard length <= UInt64(end - index) else { throw .truncated }
      let valueStart = index
      index += Int(length)
      value = .lengthDelimited(valueStart..<index)
    case 5: value = .fixed32(UInt32(truncatingIfNeeded: try readLittleEndian(count: 4)))
    default: throw .unsupportedWireType(wireType)
    }
    return Field(number: Int(number), value: value, offset: start)
  }

  /// The varints packed in `range` (a packed repeated field's payload).
  public static func packedVarints(_ bytes: [UInt8], range: Range<Int>) throws(Failure) -> [UInt64] {
    var reader = ProtobufReader(bytes, range: range)
    var values: [UInt64] = []
    // Each varint takes at least one byte, so the payload bounds the count.
    values.reserveCapacity(reader.end - reader.index)
    while reader.index < reader.end { values.append(try reader.readVarint()) }
    return values
  }

  /// Zigzag decoding, as `sint32` and `sint64` store signed numbers.
  public static func zigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }

  private mutating func readVarint() throws(Failure) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard index < end else { throw .truncated }
      let byte = bytes[index]
      index += 1
      guard shift < 64, shift < 63 || byte <= 1 else { throw .malformedVarint }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  private mutating func readLittleEndian(count: Int) throws(Failure) -> UInt64 {
    guard end - index >= count else { throw .truncated }
    var value: UInt64 = 0
    for k in 0..<count { value |= UInt64(bytes[index + k]) << (8 * UInt64(k)) }
    index += count
    return value
  }
}
