import InkwellModel

extension ImportedDocument {
  /// A document of `strokes` (each with its own ink) on the canvas `bounds`, or, without one, the
  /// drawing's bounds grown by `margin` and rounded outwards, as `make(strokes:ink:)` sizes it.
  static func make(strokes: [Stroke], bounds: Rect? = nil) -> Document {
    let drawing = Drawing(strokes: strokes)
    if let bounds { return Document(bounds: bounds, drawing: drawing) }
    guard !strokes.isEmpty else { return Document(drawing: drawing) }
    let b = drawing.bounds
    let minX = (b.minX - margin).rounded(.down)
    let minY = (b.minY - margin).rounded(.down)
    let maxX = (b.maxX + margin).rounded(.up)
    let maxY = (b.maxY + margin).rounded(.up)
    return Document(
      bounds: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), drawing: drawing)
  }
}

/// Typed access to a parsed JSON tree for the JSON-based importers: each accessor either returns
/// the value it promises or throws a `DocumentError` with the value's path and location. Paths
/// are built only for an error: built for every point, they had been most of importing a large
/// document (an Rnote file's `data.engine_snapshot.stroke_components[812].value.brushstroke.path
/// .segments[40].lineto.end.pos[0]`, eight of them a point).
struct ImportedJSON {
  let bytes: [UInt8]
  let root: JSONValue
  /// Rnote path segments read aside (`JSONReader.parseRnote`), by the offset of their array,
  /// which the tree holds empty.
  let rnoteSegments: [Int: JSONReader.RnoteSegments]

  /// Parses `bytes`; syntax errors become `invalidJSON`.
  init(_ bytes: [UInt8]) throws(DocumentError) {
    self.bytes = bytes
    do {
      root = try JSONReader.parse(bytes)
    } catch {
      throw DocumentError(.invalidJSON(error.reason), location: error.location)
    }
    rnoteSegments = [:]
  }

  /// Parses the Rnote document `bytes`, its path segments aside when they have the shape
  /// `JSONReader.RnoteSegments` reads.
  init(rnote bytes: [UInt8]) throws(DocumentError) {
    self.bytes = bytes
    do {
      let parse = try JSONReader.parseRnote(bytes)
      root = parse.root
      rnoteSegments = parse.segments
    } catch {
      throw DocumentError(.invalidJSON(error.reason), location: error.location)
    }
  }

  /// `bytes` and `root`, the tree `JSONReader.parse` reads from them.
  init(_ bytes: [UInt8], root: JSONValue) {
    self.bytes = bytes
    self.root = root
    rnoteSegments = [:]
  }

  /// The tree of `value`, read again from the text where it was set aside (the tree holds it
  /// empty).
  func reread(_ value: JSONValue) throws(DocumentError) -> JSONValue {
    do {
      return try JSONReader.parseValue(bytes, at: value.offset)
    } catch {
      throw DocumentError(.invalidJSON(error.reason), location: error.location)
    }
  }

  func location(_ value: JSONValue) -> SourceLocation { SourceLocation(offset: value.offset, in: bytes) }

  func failure(_ kind: DocumentError.Kind, _ value: JSONValue, _ path: @autoclosure () -> String)
    -> DocumentError
  {
    DocumentError(kind, path: path(), location: location(value))
  }

  func wrongType(_ expected: String, _ value: JSONValue, _ path: @autoclosure () -> String) -> DocumentError {
    failure(.wrongType(expected: expected, found: value.typeDescription), value, path())
  }

  func object(_ value: JSONValue, _ path: @autoclosure () -> String) throws(DocumentError) -> [JSONMember] {
    guard case .object(let members) = value.content else { throw wrongType("an object", value, path()) }
    return members
  }

  func array(_ value: JSONValue, _ path: @autoclosure () -> String) throws(DocumentError) -> [JSONValue] {
    guard case .array(let elements) = value.content else { throw wrongType("an array", value, path()) }
    return elements
  }

  /// The value of `key` (its last occurrence), or `nil`.
  func member(_ members: [JSONMember], _ key: String) -> JSONValue? {
    // By index: a search by predicate copied every member it passed over.
    var i = members.endIndex
    while i > members.startIndex {
      i -= 1
      if members[i].key == key { return members[i].value }
    }
    return nil
  }

  func required(
    _ members: [JSONMember], _ key: String, in value: JSONValue, _ path: @autoclosure () -> String
  ) throws(DocumentError) -> JSONValue {
    guard let found = member(members, key) else { throw failure(.missingKey(key), value, path()) }
    return found
  }

  /// A number as a finite `Float`.
  func float(_ value: JSONValue, _ path: @autoclosure () -> String) throws(DocumentError) -> Float {
    guard case .number(let number) = value.content else { throw wrongType("a number", value, path()) }
    let float = number.floatValue
    guard float.isFinite else { throw failure(.numberOutOfRange(number.text), value, path()) }
    return float
  }

  /// A number as a finite `Double`.
  func double(_ value: JSONValue, _ path: @autoclosure () -> String) throws(DocumentError) -> Double {
    guard case .number(let number) = value.content else { throw wrongType("a number", value, path()) }
    let double = number.doubleValue
    guard double.isFinite else { throw failure(.numberOutOfRange(number.text), value, path()) }
    return double
  }

  /// A number that must lie in `range`.
  func float(
    _ value: JSONValue, _ path: @autoclosure () -> String, in range: ClosedRange<Float>
  ) throws(DocumentError) -> Float {
    let float = try self.float(value, path())
    guard range.contains(float) else {
      let text = if case .number(let number) = value.content { number.text } else { "\(float)" }
      throw failure(
        .valueOutOfRange(value: text, allowed: "\(range.lowerBound)...\(range.upperBound)"), value, path())
    }
    return float
  }

  func string(_ value: JSONValue, _ path: @autoclosure () -> String) throws(DocumentError) -> String {
    guard case .string(let text) = value.content else { throw wrongType("a string", value, path()) }
    return text
  }
}
