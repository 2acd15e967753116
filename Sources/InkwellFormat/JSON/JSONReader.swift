/// Parses JSON text (UTF-8 bytes) into a `JSONValue` tree; see the module head in `JSONValue.swift`.
public struct JSONReader {
  /// The deepest nesting of arrays and objects accepted.
  public static let defaultMaximumDepth = 256

  /// The text, for locating errors.
  private let source: [UInt8]
  /// The same bytes, read without bounds checks or reference counting: every read is guarded by
  /// `index < bytes.count`.
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private var index = 0
  /// Whether the points of a native document's strokes are read into `pointRows`.
  private var readsPointRows = false
  private var pointRows: [Int: NumberRows] = [:]
  private var strokes: [Int: StrokeParts] = [:]
  /// Whether the segments of an Rnote document's brush strokes are read into `rnoteSegments`.
  private var readsRnoteSegments = false
  private var rnoteSegments: [Int: RnoteSegments] = [:]

  private init(source: [UInt8], bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.source = source
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// Parses exactly one JSON value, surrounded by optional whitespace. A leading UTF-8 byte-order
  /// mark is skipped.
  /// - Throws: `JSONError` with the offset, line and column of the first problem.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONError) -> JSONValue {
    try reading(bytes, maximumDepth: maximumDepth) { reader throws(JSONError) in try reader.parseDocument() }
  }

  /// `body` with a reader over `bytes`, which it may set up before it reads.
  private static func reading<Value>(
    _ bytes: [UInt8], maximumDepth: Int, _ body: (inout JSONReader) throws(JSONError) -> Value
  ) throws(JSONError) -> Value {
    let result: Result<Value, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(source: bytes, bytes: buffer, maximumDepth: maximumDepth)
      do throws(JSONError) {
        return .success(try body(&reader))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Rows of numbers read straight into floats, each number converted as
  /// `JSONNumber.floatValue` converts it: `width` numbers a row, row after row.
  struct NumberRows {
    let width: Int
    let values: [Float]
  }

  /// The parts of a stroke object in the shape the native writer gives a plain stroke, read
  /// without a tree: `{"ink": {"type": T, "color": C, "width": W}, "fields": [F, …], "points":
  /// ROWS}`, those keys in that order and no others, `width` optional, `C` four numbers or a
  /// string, the strings printable ASCII without escapes, the numbers finite floats and `ROWS`
  /// `NumberRows`. Whether they make a stroke is the decoder's to say.
  struct StrokeParts {
    let inkType: String
    /// The color when it is a string; `nil` when it is `components`.
    let colorText: String?
    let components: SIMD4<Float>
    let width: Float?
    let fields: [String]
    let rows: NumberRows
  }

  /// What `parseNative` reads: the tree, and what it set aside by the offset of its value.
  struct NativeParse {
    let root: JSONValue
    let pointRows: [Int: NumberRows]
    let strokes: [Int: StrokeParts]
  }

  /// `parse(_:maximumDepth:)` of a native document, with the `points` array of each stroke
  /// (`drawing.strokes[i].points`, or `elements[i].strokes[j].points`) read into `NumberRows`
  /// when it is one or more rows of one length of numbers, keyed by the offset of its `[`; the
  /// tree holds an empty array at that offset in its place. Any other array is read into the
  /// tree as usual. Building a tree of every point's numbers was most of loading a document.
  /// A stroke of the plain shape (`StrokeParts`) is read whole into its parts, keyed by the
  /// offset of its `{`, and the tree holds an empty object there: the tree of a stroke's other
  /// members, and picking them out of it, had been most of the rest.
  static func parseNative(
    _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONError) -> NativeParse {
    try reading(bytes, maximumDepth: maximumDepth) { reader throws(JSONError) in
      reader.readsPointRows = true
      let root = try reader.parseDocument()
      return NativeParse(root: root, pointRows: reader.pointRows, strokes: reader.strokes)
    }
  }

  /// The segments of an Rnote brush stroke's path, read without a tree: an array of one or more
  /// objects `{KIND: {NAME: ELEMENT, …}}`, one kind each, its names among `start`, `end`,
  /// `element`, `cp`, `cp1` and `cp2`, the first three at most once, each element `{"pos": [X,
  /// Y], "pressure": P}` with finite floats, the strings printable ASCII without escapes. The
  /// control points (`cp…`, elements or bare `[X, Y]`) are checked and dropped. Whether they
  /// make a path is the importer's to say.
  struct RnoteSegments {
    static let start: UInt8 = 1
    static let end: UInt8 = 2
    static let element: UInt8 = 4
    /// Which of `start`, `end` and `element` each segment holds.
    let kinds: [UInt8]
    /// The x, y and pressure of the elements each segment holds, in the order start, end,
    /// element, segment after segment.
    let values: [Float]
  }

  /// What `parseRnote` reads: the tree, and the segments it set aside by the offset of their
  /// array.
  struct RnoteParse {
    let root: JSONValue
    let segments: [Int: RnoteSegments]
  }

  /// `parse(_:maximumDepth:)` of an Rnote document, with the value of each member `segments`
  /// and `path` read into `RnoteSegments` when it has their shape, keyed by the offset of its
  /// `[`; the tree holds an empty array at that offset in its place. A point of an Rnote path is
  /// three objects and an array deep: their trees had been nearly all of loading a document.
  static func parseRnote(
    _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONError) -> RnoteParse {
    try reading(bytes, maximumDepth: maximumDepth) { reader throws(JSONError) in
      reader.readsRnoteSegments = true
      let root = try reader.parseDocument()
      return RnoteParse(root: root, segments: reader.rnoteSegments)
    }
  }

  /// The tree of the one value that starts at `offset` of `bytes`, as `parse` reads it.
  static func parseValue(_ bytes: [UInt8], at offset: Int) throws(JSONError) -> JSONValue {
    try reading(bytes, maximumDepth: defaultMaximumDepth) { reader throws(JSONError) in
      reader.index = offset
      return try reader.parseValue(depth: 0)
    }
  }

  private mutating func parseDocument() throws(JSONError) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    skipWhitespace()
    let value = try parseValue(depth: 0, context: readsPointRows ? .root : .other)
    skipWhitespace()
    if index < bytes.count { throw error(.trailingCharacters) }
    return value
  }

  /// Where a value sits in a native document, as far as finding the strokes' points needs.
  private enum Context {
    case other
    case root
    /// `elements`.
    case elements
    /// An object that may hold `strokes`: the drawing, or an element.
    case drawing
    /// `strokes`.
    case strokes
    case stroke
  }

  /// The context of the value of member `key` of an object in `context`.
  private static func context(ofMember key: String, in context: Context) -> Context {
    switch (context, key) {
    case (.root, "drawing"): return .drawing
    case (.root, "elements"): return .elements
    case (.drawing, "strokes"): return .strokes
    default: return .other
    }
  }

  /// Reads the array at `index` as `NumberRows` when it is one; otherwise leaves `index` where
  /// it was and returns `nil`, and the array is read as a tree (which reports any error in it).
  private mutating func parseNumberRows(depth: Int) -> NumberRows? {
    let start = index
    guard depth &+ 1 < maximumDepth else { return nil }
    var values: [Float] = []
    values.reserveCapacity(256)
    var width = -1
    index &+= 1
    skipWhitespace()
    while true {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { break }
      index &+= 1
      skipWhitespace()
      var cells = 0
      var rowEnded = false
      while index < bytes.count {
        guard let value = floatNumber() else { break }
        values.append(value)
        cells &+= 1
        // The separator as the writer prints it, a comma and one space, before anything else.
        if index &+ 2 < bytes.count, bytes[index] == UInt8(ascii: ","),
          bytes[index &+ 1] == UInt8(ascii: " "),
          bytes[index &+ 2] > UInt8(ascii: " ")
        {
          index &+= 2
          continue
        }
        skipWhitespace()
        guard index < bytes.count else { break }
        if bytes[index] == UInt8(ascii: ",") {
          index &+= 1
          skipWhitespace()
          continue
        }
        if bytes[index] == UInt8(ascii: "]") {
          index &+= 1
          rowEnded = true
        }
        break
      }
      guard rowEnded, width < 0 || cells == width else { break }
      width = cells
      skipWhitespace()
      guard index < bytes.count else { break }
      if bytes[index] == UInt8(ascii: ",") {
        index &+= 1
        skipIndentation()
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { break }
      index &+= 1
      return NumberRows(width: width, values: values)
    }
    index = start
    return nil
  }

  // MARK: Strokes

  /// Reads the stroke object at `index` (at `depth`) as `StrokeParts` when it has their shape;
  /// otherwise leaves `index` where it was and returns `nil`, and the object is read as a tree.
  private mutating func parseStrokeParts(depth: Int) -> StrokeParts? {
    let start = index
    guard depth &+ 3 < maximumDepth, let parts = readStrokeParts(depth: depth) else {
      index = start
      return nil
    }
    return parts
  }

  private mutating func readStrokeParts(depth: Int) -> StrokeParts? {
    index &+= 1
    guard key("ink"), token(UInt8(ascii: "{")), key("type"), let inkType = plainString(),
      token(UInt8(ascii: ",")),
      key("color")
    else { return nil }
    var colorText: String?
    var components = SIMD4<Float>()
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      guard let text = plainString() else { return nil }
      colorText = text
    } else {
      guard token(UInt8(ascii: "[")) else { return nil }
      for i in 0..<4 {
        guard i == 0 || token(UInt8(ascii: ",")), let component = finiteFloat() else { return nil }
        components[i] = component
      }
      guard token(UInt8(ascii: "]")) else { return nil }
    }
    var width: Float?
    if token(UInt8(ascii: ",")) {
      guard key("width"), let value = finiteFloat() else { return nil }
      width = value
    }
    guard token(UInt8(ascii: "}")), token(UInt8(ascii: ",")), key("fields"), token(UInt8(ascii: "[")) else {
      return nil
    }
    var fields: [String] = []
    repeat {
      guard let name = plainString() else { return nil }
      fields.append(name)
    } while token(UInt8(ascii: ","))
    guard token(UInt8(ascii: "]")), token(UInt8(ascii: ",")), key("points") else { return nil }
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "["),
      let rows = parseNumberRows(depth: depth &+ 1),
      token(UInt8(ascii: "}"))
    else { return nil }
    return StrokeParts(
      inkType: inkType, colorText: colorText, components: components, width: width, fields: fields, rows: rows
    )
  }

  // MARK: Rnote segments

  /// Reads the array at `index` (at `depth`) as `RnoteSegments` when it has their shape;
  /// otherwise leaves `index` where it was and returns `nil`, and the array is read as a tree.
  private mutating func parseRnoteSegments(depth: Int) -> RnoteSegments? {
    let start = index
    guard depth &+ 5 < maximumDepth, let segments = readRnoteSegments() else {
      index = start
      return nil
    }
    return segments
  }

  private mutating func readRnoteSegments() -> RnoteSegments? {
    index &+= 1
    var kinds: [UInt8] = []
    var values: [Float] = []
    values.reserveCapacity(256)
    repeat {
      guard token(UInt8(ascii: "{")), plainStringRange() != nil, token(UInt8(ascii: ":")),
        token(UInt8(ascii: "{"))
      else { return nil }
      var held: UInt8 = 0
      var elements = (SIMD3<Float>(), SIMD3<Float>(), SIMD3<Float>())
      repeat {
        guard let member = plainStringRange(), token(UInt8(ascii: ":")) else { return nil }
        if bytes[member.lowerBound] == UInt8(ascii: "c") {
          // A control point: an element (0.6) or a bare [x, y] (0.5).
          guard name(member, is: "cp") || name(member, is: "cp1") || name(member, is: "cp2"),
            rnoteElement() != nil || pair()
          else { return nil }
          continue
        }
        guard let element = rnoteElement() else { return nil }
        if name(member, is: "end") {
          guard held & RnoteSegments.end == 0 else { return nil }
          held |= RnoteSegments.end
          elements.1 = element
        } else if name(member, is: "start") {
          guard held & RnoteSegments.start == 0 else { return nil }
          held |= RnoteSegments.start
          elements.0 = element
        } else if name(member, is: "element") {
          guard held & RnoteSegments.element == 0 else { return nil }
          held |= RnoteSegments.element
          elements.2 = element
        } else {
          return nil
        }
      } while token(UInt8(ascii: ","))
      guard token(UInt8(ascii: "}")), token(UInt8(ascii: "}")) else { return nil }
      kinds.append(held)
      if held & RnoteSegments.start != 0 { append(elements.0, to: &values) }
      if held & RnoteSegments.end != 0 { append(elements.1, to: &values) }
      if held & RnoteSegments.element != 0 { append(elements.2, to: &values) }
    } while token(UInt8(ascii: ","))
    guard token(UInt8(ascii: "]")) else { return nil }
    return RnoteSegments(kinds: kinds, values: values)
  }

  @inline(__always)
  private func append(_ element: SIMD3<Float>, to values: inout [Float]) {
    values.append(element.x)
    values.append(element.y)
    values.append(element.z)
  }

  /// The bytes between the quotes of the string that comes next, after any whitespace, when it
  /// is printable ASCII without escapes; `index` moves past it.
  private mutating func plainStringRange() -> Range<Int>? {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    let quote = index
    index &+= 1
    skipPlainRun()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      index = quote
      return nil
    }
    index &+= 1
    return (quote &+ 1)..<(index &- 1)
  }

  /// Whether the bytes of `range` are `text`.
  private func name(_ range: Range<Int>, is text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    for k in 0..<range.count where bytes[range.lowerBound &+ k] != expected[k] { return false }
    return true
  }

  /// Whether `[X, Y]` of finite floats comes next, after any whitespace; moves past it when it
  /// does.
  private mutating func pair() -> Bool {
    let start = index
    guard token(UInt8(ascii: "[")), finiteFloat() != nil, token(UInt8(ascii: ",")), finiteFloat() != nil,
      token(UInt8(ascii: "]"))
    else {
      index = start
      return false
    }
    return true
  }

  /// The element `{"pos": [X, Y], "pressure": P}` that comes next, after any whitespace, as x, y
  /// and pressure, when its numbers are finite floats.
  private mutating func rnoteElement() -> SIMD3<Float>? {
    guard token(UInt8(ascii: "{")), key("pos"), token(UInt8(ascii: "[")), let x = finiteFloat(),
      token(UInt8(ascii: ",")), let y = finiteFloat(), token(UInt8(ascii: "]")), token(UInt8(ascii: ",")),
      key("pressure"), let pressure = finiteFloat(), token(UInt8(ascii: "}"))
    else { return nil }
    return SIMD3(x, y, pressure)
  }

  /// Whether `byte` comes next, after any whitespace; moves past it when it does.
  private mutating func token(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index &+= 1
    return true
  }

  /// Whether the key `name` and its colon come next, after any whitespace; moves past them when
  /// they do.
  private mutating func key(_ name: StaticString) -> Bool {
    skipWhitespace()
    let count = name.utf8CodeUnitCount
    guard index &+ count &+ 2 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
      bytes[index &+ count &+ 1] == UInt8(ascii: "\"")
    else { return false }
    let text = UnsafeBufferPointer(start: name.utf8Start, count: count)
    for k in 0..<count where bytes[index &+ 1 &+ k] != text[k] { return false }
    index &+= count &+ 2
    return token(UInt8(ascii: ":"))
  }

  /// The string that comes next, after any whitespace, when it is printable ASCII without
  /// escapes.
  private mutating func plainString() -> String? {
    plainStringRange().map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
  }

  /// The number that comes next, after any whitespace, as `JSONNumber.floatValue` converts it,
  /// when that is finite.
  private mutating func finiteFloat() -> Float? {
    skipWhitespace()
    guard index < bytes.count else { return nil }
    let start = index
    guard let value = floatNumber(), value.isFinite else {
      index = start
      return nil
    }
    return value
  }

  /// The number at `index` as `JSONNumber.floatValue` converts it, with `index` moved past it;
  /// `nil`, with `index` where it was, where no number starts there.
  @inline(__always)
  private mutating func floatNumber() -> Float? {
    if let value = JSONNumberScanner.plainFloat(bytes, &index) { return value }
    guard index < bytes.count else { return nil }
    let first = bytes[index]
    guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
      let (end, packed) = try? JSONNumberScanner.scan(bytes, from: index)
    else { return nil }
    let value = JSONNumber(validatedUTF8: UnsafeBufferPointer(rebasing: bytes[index..<end]), packed: packed)
      .floatValue
    index = end
    return value
  }

  // MARK: Values

  private mutating func parseValue(depth: Int, context: Context = .other) throws(JSONError) -> JSONValue {
    guard index < bytes.count else { throw error(.unexpectedEnd(expected: "a value")) }
    let start = index
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth, context: context)
    case UInt8(ascii: "["): return try parseArray(depth: depth, context: context)
    case UInt8(ascii: "\""): return JSONValue(.string(try parseString()), offset: start)
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "N"): throw nonFinite("NaN")
    case UInt8(ascii: "I"): throw nonFinite("Infinity")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if index &+ 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index &+ 1] == UInt8(ascii: "I") {
        throw nonFinite("-Infinity")
      }
      return try parseNumber()
    default:
      throw unexpected(expected: "a value")
    }
  }

  private mutating func parseObject(depth: Int, context: Context = .other) throws(JSONError) -> JSONValue {
    let start = index
    guard depth < maximumDepth else { throw error(.nestingTooDeep(limit: maximumDepth)) }
    if context == .stroke, let parts = parseStrokeParts(depth: depth) {
      strokes[start] = parts
      return JSONValue(.object([]), offset: start)
    }
    index &+= 1
    var members: [JSONMember] = []
    // Room for two members at once (a point's x and y, an Rnote point's position and pressure).
    members.reserveCapacity(2)
    skipWhitespace()
    if try peek(expected: "a key or '}'") == UInt8(ascii: "}") {
      index &+= 1
      return JSONValue(.object(members), offset: start)
    }
    while true {
      skipWhitespace()
      guard try peek(expected: "a key") == UInt8(ascii: "\"") else { throw unexpected(expected: "a key") }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      try expect(UInt8(ascii: ":"), "':'")
      skipWhitespace()
      let value: JSONValue
      let valueStart = index
      if context == .stroke, key == "points", index < bytes.count, bytes[index] == UInt8(ascii: "["),
        let rows = parseNumberRows(depth: depth &+ 1)
      {
        value = JSONValue(.array([]), offset: valueStart)
        pointRows[valueStart] = rows
      } else if readsRnoteSegments, key == "segments" || key == "path", index < bytes.count,
        bytes[index] == UInt8(ascii: "["), let segments = parseRnoteSegments(depth: depth &+ 1)
      {
        value = JSONValue(.array([]), offset: valueStart)
        rnoteSegments[valueStart] = segments
      } else {
        value = try parseValue(
          depth: depth &+ 1, context: context == .other ? .other : Self.context(ofMember: key, in: context))
      }
      members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
      skipWhitespace()
      let next = try peek(expected: "',' or '}'")
      index &+= 1
      if next == UInt8(ascii: "}") { return JSONValue(.object(members), offset: start) }
      if next != UInt8(ascii: ",") {
        index &-= 1
        throw unexpected(expected: "',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int, context: Context = .other) throws(JSONError) -> JSONValue {
    let start = index
    guard depth < maximumDepth else { throw error(.nestingTooDeep(limit: maximumDepth)) }
    index &+= 1
    var elements: [JSONValue] = []
    // Room for a pair (a point's x and y) at once. Room for eight had been kept for point rows,
    // which a native document reads aside: an Rnote file's pairs took four times their room
    // (the tree of `rnote/lecture_note_1.rnote` 0.86× the peak memory, the same instructions).
    elements.reserveCapacity(2)
    skipWhitespace()
    if try peek(expected: "a value or ']'") == UInt8(ascii: "]") {
      index &+= 1
      return JSONValue(.array(elements), offset: start)
    }
    // The elements of `elements` may hold strokes; those of `strokes` are strokes.
    let elementContext: Context = context == .elements ? .drawing : (context == .strokes ? .stroke : .other)
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth &+ 1, context: elementContext))
      skipWhitespace()
      let next = try peek(expected: "',' or ']'")
      index &+= 1
      if next == UInt8(ascii: "]") { return JSONValue(.array(elements), offset: start) }
      if next != UInt8(ascii: ",") {
        index &-= 1
        throw unexpected(expected: "',' or ']'")
      }
    }
  }

  private mutating func parseLiteral(
    _ word: StaticString, _ content: JSONValue.Content
  ) throws(JSONError) -> JSONValue {
    let start = index
    let expected = "'\(word)'"
    for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
      guard index < bytes.count else { throw error(.unexpectedEnd(expected: expected)) }
      guard bytes[index] == byte else { throw unexpected(expected: expected) }
      index &+= 1
    }
    return JSONValue(content, offset: start)
  }

  private mutating func parseNumber() throws(JSONError) -> JSONValue {
    let start = index
    let packed: UInt64
    do {
      (index, packed) = try JSONNumberScanner.scan(bytes, from: start)
    } catch {
      switch error {
      case .leadingZero(let at):
        index = at
        throw self.error(.leadingZero)
      case .expectedDigit(let at):
        index = at
        throw unexpected(expected: "a digit")
      }
    }
    return JSONValue(
      .number(JSONNumber(validatedUTF8: UnsafeBufferPointer(rebasing: bytes[start..<index]), packed: packed)),
      offset: start)
  }

  // MARK: Strings

  private mutating func parseString() throws(JSONError) -> String {
    index &+= 1  // the opening quote
    // Keys and names are short printable ASCII: read in place, without a buffer.
    let start = index
    skipPlainRun()
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      index &+= 1
      return text
    }
    var utf8 = Array(bytes[start..<index])
    while true {
      guard index < bytes.count else { throw error(.unexpectedEnd(expected: "'\"' closing the string")) }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index &+= 1
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &utf8)
      case 0..<0x20:
        throw error(.controlCharacterInString)
      case 0x20..<0x80:
        utf8.append(byte)
        index &+= 1
      default:
        let length = try validatedUTF8SequenceLength()
        utf8.append(contentsOf: bytes[index..<(index &+ length)])
        index &+= length
      }
      // The plain text up to the next quote, escape, control or non-ASCII byte, at once.
      let run = index
      skipPlainRun()
      if index > run { utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
    }
  }

  /// Moves `index` past the printable ASCII at it other than a quote and a backslash: eight bytes
  /// at a time, then a byte at a time. A string a byte at a time had been a fifth of loading an
  /// Rnote page with an embedded image and drawings (1.4 MB of base64, 1.1 MB of escaped SVG).
  private mutating func skipPlainRun() {
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while index &+ 8 <= bytes.count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        // A byte's high bit marks it when it is 0x80 or above, below 0x20, a quote or a
        // backslash; the lowest marked byte is exact (a borrow only marks the bytes above it).
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let special =
          (word | ((word &- ones &* 0x20) & ~word) | ((quotes &- ones) & ~quotes)
            | ((backslashes &- ones) & ~backslashes)) & highs
        guard special == 0 else {
          index &+= special.trailingZeroBitCount >> 3
          return
        }
        index &+= 8
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return }
      index &+= 1
    }
  }

  /// The length of the valid UTF-8 sequence for one scalar at `index`, which is not ASCII.
  private func validatedUTF8SequenceLength() throws(JSONError) -> Int {
    let lead = bytes[index]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0  // no overlong forms
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F  // no UTF-16 surrogates
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F  // nothing above U+10FFFF
    default: throw error(.invalidUTF8)
    }
    for k in 1..<length {
      let at = index &+ k
      guard at < bytes.count else { throw error(.invalidUTF8) }
      let byte = bytes[at]
      let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
      guard byte >= lo, byte <= hi else { throw error(.invalidUTF8) }
    }
    return length
  }

  private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONError) {
    let start = index
    index &+= 1
    guard index < bytes.count else { throw error(.unexpectedEnd(expected: "an escape sequence")) }
    let simple: UInt8?
    switch bytes[index] {
    case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
    case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"): simple = nil
    default:
      index = start
      throw error(.invalidEscape)
    }
    if let simple {
      utf8.append(simple)
      index &+= 1
      return
    }
    index &+= 1
    let first = try hexQuad(escapeStart: start)
    var scalarValue = UInt32(first)
    if (0xD800...0xDBFF).contains(first) {
      let second = index
      guard second &+ 1 < bytes.count, bytes[second] == UInt8(ascii: "\\"),
        bytes[second &+ 1] == UInt8(ascii: "u")
      else {
        index = start
        throw error(.loneSurrogate)
      }
      index &+= 2
      let low = try hexQuad(escapeStart: second)
      guard (0xDC00...0xDFFF).contains(low) else {
        index = start
        throw error(.loneSurrogate)
      }
      scalarValue = 0x10000 &+ ((UInt32(first) &- 0xD800) << 10) &+ (UInt32(low) &- 0xDC00)
    } else if (0xDC00...0xDFFF).contains(first) {
      index = start
      throw error(.loneSurrogate)
    }
    guard let scalar = Unicode.Scalar(scalarValue) else {
      index = start
      throw error(.loneSurrogate)
    }
    utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
  }

  private mutating func hexQuad(escapeStart: Int) throws(JSONError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw error(.unexpectedEnd(expected: "four hex digits")) }
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default:
        index = escapeStart
        throw error(.invalidEscape)
      }
      value = value << 4 | UInt16(digit)
      index &+= 1
    }
    return value
  }

  // MARK: Helpers

  /// `skipWhitespace` where a line break and a run of spaces are likely (between point rows):
  /// the spaces eight at a time.
  private mutating func skipIndentation() {
    if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index &+= 1 }
    if let base = bytes.baseAddress {
      // The spaces leading each eight bytes, counted at once: the bytes that are not a space
      // are the non-zero ones after an exclusive or with spaces.
      while index &+ 8 <= bytes.count {
        let other =
          UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
          ^ 0x2020_2020_2020_2020
        guard other == 0 else {
          index &+= other.trailingZeroBitCount >> 3
          break
        }
        index &+= 8
      }
    }
    skipWhitespace()
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index &+= 1
      default: return
      }
    }
  }

  private func peek(expected: String) throws(JSONError) -> UInt8 {
    guard index < bytes.count else { throw error(.unexpectedEnd(expected: expected)) }
    return bytes[index]
  }

  private mutating func expect(_ byte: UInt8, _ expected: String) throws(JSONError) {
    guard try peek(expected: expected) == byte else { throw unexpected(expected: expected) }
    index &+= 1
  }

  private func error(_ reason: JSONError.Reason) -> JSONError {
    JSONError(reason: reason, location: SourceLocation(offset: index, in: source))
  }

  private func nonFinite(_ literal: String) -> JSONError {
    error(.nonFiniteNumber(literal))
  }

  /// An `unexpectedCharacter` error naming the byte at `index` (or an invalid UTF-8 error).
  private func unexpected(expected: String) -> JSONError {
    guard index < bytes.count else { return error(.unexpectedEnd(expected: expected)) }
    let byte = bytes[index]
    if byte < 0x80 {
      let shown = byte < 0x20 || byte == 0x7F ? "control character" : "'\(Character(Unicode.Scalar(byte)))'"
      return error(.unexpectedCharacter(found: shown, expected: expected))
    }
    guard (try? validatedUTF8SequenceLength()) != nil else { return error(.invalidUTF8) }
    return error(.unexpectedCharacter(found: "non-ASCII character", expected: expected))
  }
}
