import InkwellModel

/// Builds the JSON tree of a native document, in the fixed key order of docs/format.md.
enum NativeEncoder {
  static func encode(_ document: Document) throws(DocumentError) -> JSONValue {
    var top: [JSONMember] = [
      member("format", .string("inkwell")),
      member("version", .number(JSONNumber(NativeFormat.version))),
    ]
    if let bounds = document.bounds {
      top.append(
        member(
          "bounds",
          try numbers([bounds.minX, bounds.minY, bounds.width, bounds.height], path: "bounds")))
    }
    var strokes: [JSONValue] = []
    for (index, stroke) in document.drawing.strokes.enumerated() {
      strokes.append(try encode(stroke, path: "drawing.strokes[\(index)]"))
    }
    top.append(member("drawing", .object([member("strokes", .array(strokes))])))
    return JSONValue(.object(top))
  }

  private static func encode(_ stroke: Stroke, path: String) throws(DocumentError) -> JSONValue {
    let ink = stroke.ink
    var members: [JSONMember] = [
      member(
        "ink",
        .object([
          member("type", .string(ink.type.rawValue)),
          member("color", try color(ink.color, path: path + ".ink.color")),
          member("width", try number(ink.width, path: path + ".ink.width")),
        ]))
    ]
    let t = stroke.transform
    if !t.isIdentity {
      members.append(
        member("transform", try numbers([t.a, t.b, t.c, t.d, t.tx, t.ty], path: path + ".transform")))
    }
    if stroke.randomSeed != 0 {
      members.append(member("randomSeed", .number(JSONNumber(stroke.randomSeed))))
    }
    if let date = stroke.path.creationDate {
      guard let number = JSONNumber(date) else {
        throw DocumentError(.nonFiniteValue, path: path + ".creationDate")
      }
      members.append(member("creationDate", .number(number)))
    }
    let points = stroke.path.controlPoints
    let fields = PointField.allCases.filter { field in
      if field.isRequired { return true }
      let fallback = field.defaultValue(for: ink)
      return points.contains { field.value(in: $0) != fallback }
    }
    members.append(member("fields", .array(fields.map { JSONValue(.string($0.rawValue)) })))
    var rows: [JSONValue] = []
    rows.reserveCapacity(points.count)
    for (r, point) in points.enumerated() {
      rows.append(try numbers(fields.map { $0.value(in: point) }, path: "\(path).points[\(r)]"))
    }
    members.append(member("points", .array(rows)))
    return JSONValue(.object(members))
  }

  /// `#rrggbbaa` when every component is exactly a multiple of 1/255 (as `Color(parsing:)` reads
  /// it back), otherwise `[r, g, b, a]`, so that the color round-trips exactly.
  private static func color(_ color: Color, path: String) throws(DocumentError) -> JSONValue {
    let components = [color.red, color.green, color.blue, color.alpha]
    let isByteExact = components.allSatisfy { c in
      guard c >= 0, c <= 1 else { return false }
      return Float(UInt8((c * 255).rounded())) / 255 == c
    }
    if isByteExact { return JSONValue(.string(color.hexString)) }
    return try numbers(components, path: path)
  }

  private static func number(_ value: Float, path: @autoclosure () -> String) throws(DocumentError)
    -> JSONValue
  {
    guard let number = JSONNumber(value) else { throw DocumentError(.nonFiniteValue, path: path()) }
    return JSONValue(.number(number))
  }

  private static func numbers(_ values: [Float], path: String) throws(DocumentError) -> JSONValue {
    var elements: [JSONValue] = []
    elements.reserveCapacity(values.count)
    for (i, value) in values.enumerated() { elements.append(try number(value, path: "\(path)[\(i)]")) }
    return JSONValue(.array(elements))
  }

  private static func member(_ key: String, _ content: JSONValue.Content) -> JSONMember {
    JSONMember(key: key, value: JSONValue(content))
  }

  private static func member(_ key: String, _ value: JSONValue) -> JSONMember {
    JSONMember(key: key, value: value)
  }
}
