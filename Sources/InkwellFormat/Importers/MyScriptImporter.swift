import InkwellModel

/// Reads MyScript iinkTS symbol lists: a JSON array (or an object wrapping one) of symbols, each
/// stroke `{"type": "stroke", "style": {color, width, opacity}, "pointerType"?, "pointers":
/// [{x, y, t?, p?}…]}`, in CSS px with y down.
///
/// Every object with a `pointers` array whose `type` is absent or `"stroke"` is one stroke, found
/// wherever it sits in the tree; other symbols (shapes, text) are skipped. `t` is an epoch time in
/// ms: each stroke's offsets count from its first pointer, and that pointer's time becomes the
/// path's creation date. `p` is not measured pressure unless the stroke says `pointerType: "pen"`
/// (iinkTS computes it from the distance between points), so it becomes `force` only then; every
/// other stroke has force 1.
public enum MyScriptImporter {
  /// iinkTS's default pen: 2 px, black.
  public static let defaultInk = Ink(type: .pen, color: .black, width: 2)

  /// Seconds between 1970-01-01 and 2001-01-01, the epoch of `StrokePath.creationDate`.
  static let unixTimeOfReferenceDate = 978_307_200.0

  /// - Throws: `DocumentError` with the JSON path and location of a malformed symbol.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    try load(ImportedJSON(bytes), ink: ink)
  }

  /// `load(_:ink:)` of a document already parsed.
  static func load(_ json: ImportedJSON, ink: Ink = defaultInk) throws(DocumentError) -> Document {
    switch json.root.content {
    case .array, .object: break
    default: throw json.wrongType("an array or an object", json.root, "")
    }
    var strokes: [Stroke] = []
    try collectStrokes(json.root, path: { "" }, json: json, ink: ink, into: &strokes)
    return ImportedDocument.make(strokes: strokes)
  }

  private static func collectStrokes(
    _ value: JSONValue, path: () -> String, json: ImportedJSON, ink: Ink, into strokes: inout [Stroke]
  ) throws(DocumentError) {
    switch value.content {
    case .array(let elements):
      for (i, element) in elements.enumerated() {
        try collectStrokes(element, path: { "\(path())[\(i)]" }, json: json, ink: ink, into: &strokes)
      }
    case .object(let members):
      if let pointers = json.member(members, "pointers") {
        let type = json.member(members, "type")
        if let type, (try json.string(type, path() + ".type")) != "stroke" { return }
        strokes.append(
          try stroke(members, pointers: pointers, path: path(), json: json, ink: ink))
        return
      }
      for member in members {
        func memberPath() -> String {
          let prefix = path()
          return prefix.isEmpty ? member.key : prefix + "." + member.key
        }
        try collectStrokes(member.value, path: memberPath, json: json, ink: ink, into: &strokes)
      }
    default: return
    }
  }

  private static func stroke(
    _ members: [JSONMember], pointers: JSONValue, path: @autoclosure () -> String, json: ImportedJSON,
    ink defaultInk: Ink
  ) throws(DocumentError) -> Stroke {
    var ink = defaultInk
    if let style = json.member(members, "style") {
      func stylePath() -> String { path() + ".style" }
      let styleMembers = try json.object(style, stylePath())
      if let color = json.member(styleMembers, "color") {
        let text = try json.string(color, stylePath() + ".color")
        guard let parsed = Color(parsing: text) else {
          throw json.failure(.invalidColor("\"\(text)\""), color, stylePath() + ".color")
        }
        ink.color = parsed
      }
      if let width = json.member(styleMembers, "width") {
        ink.width = try json.float(width, stylePath() + ".width", in: 0...Float.greatestFiniteMagnitude)
      }
      if let opacity = json.member(styleMembers, "opacity") {
        ink.color.alpha *= try json.float(opacity, stylePath() + ".opacity", in: 0...1)
      }
    }
    var isPen = false
    if let pointerType = json.member(members, "pointerType") {
      isPen = try json.string(pointerType, path() + ".pointerType") == "pen"
    }
    func pointersPath() -> String { path() + ".pointers" }
    let elements = try json.array(pointers, pointersPath())
    var points: [StrokePoint] = []
    points.reserveCapacity(elements.count)
    var startTime: Double?
    for (i, element) in elements.enumerated() {
      func pointPath() -> String { "\(pointersPath())[\(i)]" }
      let fields = try json.object(element, pointPath())
      let x = try json.float(try json.required(fields, "x", in: element, pointPath()), pointPath() + ".x")
      let y = try json.float(try json.required(fields, "y", in: element, pointPath()), pointPath() + ".y")
      var timeOffset: Float = 0
      if let t = json.member(fields, "t") {
        let time = try json.double(t, pointPath() + ".t")
        if let startTime {
          timeOffset = Swift.max(0, Float((time - startTime) / 1000))
        } else {
          startTime = time
        }
      }
      var force: Float = 1
      if let p = json.member(fields, "p") {
        let pressure = try json.float(p, pointPath() + ".p")
        if isPen { force = Swift.min(Swift.max(pressure, 0), 1) }
      }
      points.append(
        StrokePoint(
          location: Point(x: x, y: y), timeOffset: timeOffset,
          size: Size(width: ink.width, height: ink.width), force: force))
    }
    let creationDate = startTime.map { $0 / 1000 - unixTimeOfReferenceDate }
    return Stroke(ink: ink, path: StrokePath(controlPoints: points, creationDate: creationDate))
  }
}
