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
    guard isDecimalNumber(field.text), let value = nearestFloat(field.text) ?? Float(field.text) else {
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
  // Over the UTF-8 bytes in place (through the string's iterator, this was a fifth of loading a
  // libmypaint recording).
  var text = text
  return text.withUTF8 { bytes in
    var i = 0
    func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] &- 0x30 < 10 }
    if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i &+= 1 }
    let wholeStart = i
    while isDigit(i) { i &+= 1 }
    var digits = i &- wholeStart
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i &+= 1
      let fractionStart = i
      while isDigit(i) { i &+= 1 }
      digits &+= i &- fractionStart
    }
    guard digits > 0 else { return false }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i &+= 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i &+= 1 }
      guard isDigit(i) else { return false }
      while isDigit(i) { i &+= 1 }
    }
    return i == bytes.count
  }
}

/// The `Float` nearest the plain decimal `text` (as `isDecimalNumber` takes it) when a `Double`
/// computation decides it (`ShortDecimal.float`); `nil` leaves the text to `Float(_:)`. Recorders
/// print their values with up to 19 significant digits (`2.052445140000000094e+02`), more than
/// the JSON reader's exact one-operation conversion takes (the library's `strtof` was a third of
/// loading a libmypaint recording).
func nearestFloat(_ text: String) -> Float? {
  var text = text
  return text.withUTF8 { bytes -> Float? in
    var i = 0
    let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
    if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i &+= 1 }
    var significand: UInt64 = 0
    var significant = 0
    var exponent = 0
    var fraction = false
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: "."), !fraction {
        fraction = true
        i &+= 1
        continue
      }
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      if significand != 0 || digit != 0 {
        significant &+= 1
        guard significant <= 19 else { return nil }
        significand = significand &* 10 &+ UInt64(digit)
      }
      if fraction { exponent &-= 1 }
      i &+= 1
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i &+= 1
      var written = 0
      var writtenNegative = false
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        writtenNegative = bytes[i] == UInt8(ascii: "-")
        i &+= 1
      }
      var digits = 0
      while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
        written = written &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
        digits &+= 1
        guard digits <= 4 else { return nil }
        i &+= 1
      }
      exponent &+= writtenNegative ? -written : written
    }
    guard i == bytes.count, exponent >= -22, exponent <= 22 else { return nil }
    return ShortDecimal(negative: negative, significand: significand, exponent: exponent).float
  }
}
