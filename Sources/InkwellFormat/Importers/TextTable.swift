/// Whitespace-separated text, read as rows of fields with their byte offsets, for the text-based
/// importers. Blank lines are skipped; `\r\n` line ends are accepted.
struct TextTable {
  struct Field {
    let text: String
    let offset: Int
  }

  struct Row {
    /// 1-based line number.
    let line: Int
    let fields: [Field]
  }

  let bytes: [UInt8]
  let rows: [Row]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var rows: [Row] = []
    var fields: [Field] = []
    var line = 1
    var fieldStart: Int?
    func endField(at end: Int) {
      if let start = fieldStart {
        fields.append(Field(text: String(decoding: bytes[start..<end], as: UTF8.self), offset: start))
        fieldStart = nil
      }
    }
    for (index, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        endField(at: index)
      case UInt8(ascii: "\n"):
        endField(at: index)
        if !fields.isEmpty { rows.append(Row(line: line, fields: fields)) }
        fields = []
        line &+= 1
      default:
        if fieldStart == nil { fieldStart = index }
      }
    }
    endField(at: bytes.count)
    if !fields.isEmpty { rows.append(Row(line: line, fields: fields)) }
    self.rows = rows
  }

  func location(_ offset: Int) -> SourceLocation { SourceLocation(offset: offset, in: bytes) }

  /// Fails unless `row` has exactly `count` fields; `columns` names them for the message.
  func expectColumns(_ row: Row, _ count: Int, _ columns: String) throws(DocumentError) {
    guard row.fields.count == count else {
      throw DocumentError(
        .wrongColumnCount(expected: count, found: row.fields.count, columns: columns),
        location: location(row.fields.first?.offset ?? 0))
    }
  }

  /// Field `index` of `row` as a finite `Double`.
  func double(_ row: Row, _ index: Int) throws(DocumentError) -> Double {
    let field = row.fields[index]
    guard isDecimalNumber(field.text), let value = Double(field.text) else {
      throw DocumentError(.notANumber(field.text), location: location(field.offset))
    }
    guard value.isFinite else {
      throw DocumentError(.numberOutOfRange(field.text), location: location(field.offset))
    }
    return value
  }

  /// Field `index` of `row` as a finite `Float`, rounded once from the text.
  func float(_ row: Row, _ index: Int) throws(DocumentError) -> Float {
    let field = row.fields[index]
    guard isDecimalNumber(field.text), let value = Float(field.text) else {
      throw DocumentError(.notANumber(field.text), location: location(field.offset))
    }
    guard value.isFinite else {
      throw DocumentError(.numberOutOfRange(field.text), location: location(field.offset))
    }
    return value
  }

  /// An error about field `index` of `row`.
  func failure(_ kind: DocumentError.Kind, _ row: Row, _ index: Int) -> DocumentError {
    DocumentError(kind, location: location(row.fields[index].offset))
  }
}

/// A plain decimal number: `[+-]digits[.digits][e[+-]digits]`, also `.5` and `5.`; no hex, `nan`
/// or `inf`, which `Double(_:)` would otherwise accept.
func isDecimalNumber(_ text: String) -> Bool {
  var digitsBefore = 0
  var digitsAfter = 0
  var iterator = text.utf8.makeIterator()
  var byte = iterator.next()
  func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
  if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = iterator.next() }
  while isDigit(byte) {
    digitsBefore &+= 1
    byte = iterator.next()
  }
  if byte == UInt8(ascii: ".") {
    byte = iterator.next()
    while isDigit(byte) {
      digitsAfter &+= 1
      byte = iterator.next()
    }
  }
  guard digitsBefore > 0 || digitsAfter > 0 else { return false }
  if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
    byte = iterator.next()
    if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = iterator.next() }
    guard isDigit(byte) else { return false }
    while isDigit(byte) { byte = iterator.next() }
  }
  return byte == nil
}
