import InkwellModel

/// Builds the JSON tree of a native document, in the fixed key order of docs/format.md.
///
/// It writes the oldest format version that holds the document: version 1 for a single drawing with
/// nothing that version 1 lacks, version 2 otherwise. A file read from version 1 is thus written
/// back byte for byte, and readers that only know version 1 can still read what it can express.
enum NativeEncoder {
  static func encode(_ document: Document) throws(DocumentError) -> JSONValue {
    let markup = document.markup
    let version = formatVersion(of: document)
    var top: [JSONMember] = [
      member("format", .string("inkwell")),
      member("version", .number(JSONNumber(version))),
    ]
    if version >= 2 {
      top.append(member("contentVersion", .number(JSONNumber(markup.requiredContentVersion))))
    }
    if let bounds = markup.bounds {
      top.append(
        member(
          "bounds",
          try numbers([bounds.minX, bounds.minY, bounds.width, bounds.height], path: "bounds")))
    }
    if markup.featureSet != .latest {
      top.append(member("featureSet", try encode(markup.featureSet, path: "featureSet")))
    }
    if version == 1, case .drawing(let drawing) = markup.elements[0] {
      top.append(member("drawing", try encode(drawing, kind: false, path: "drawing")))
    } else {
      var elements: [JSONValue] = []
      for (index, element) in markup.elements.enumerated() {
        let path = "elements[\(index)]"
        switch element {
        case .drawing(let drawing):
          elements.append(try encode(drawing, kind: true, path: path))
        case .unknown(let unknown):
          var members = [member("kind", .string(unknown.kind))]
          try append(unknown.fields, reserved: ["kind"], to: &members, path: path)
          elements.append(JSONValue(.object(members)))
        }
      }
      top.append(member("elements", .array(elements)))
    }
    if let thumbnail = document.thumbnailPNG {
      top.append(member("thumbnail", .string(Base64.encode(thumbnail))))
    }
    try append(document.unknownFields, reserved: NativeKeys.document, to: &top, path: "")
    return JSONValue(.object(top))
  }

  /// 1 when the document fits version 1, else 2.
  static func formatVersion(of document: Document) -> Int {
    let markup = document.markup
    guard document.thumbnailPNG == nil, markup.featureSet == .latest, markup.elements.count == 1,
      case .drawing(let drawing) = markup.elements[0]
    else { return 2 }
    for stroke in drawing.strokes {
      if stroke.mask != nil { return 2 }
      for field in PointField.allCases where field.formatVersion > 1 {
        let fallback = field.defaultValue(for: stroke.ink)
        if stroke.path.controlPoints.contains(where: { field.value(in: $0) != fallback }) { return 2 }
      }
    }
    return 1
  }

  private static func encode(_ drawing: Drawing, kind: Bool, path: String) throws(DocumentError) -> JSONValue
  {
    var strokes: [JSONValue] = []
    strokes.reserveCapacity(drawing.strokes.count)
    for (index, stroke) in drawing.strokes.enumerated() {
      strokes.append(try encode(stroke, path: "\(path).strokes[\(index)]"))
    }
    var members: [JSONMember] = kind ? [member("kind", .string("drawing"))] : []
    members.append(member("strokes", .array(strokes)))
    try append(
      drawing.unknownFields, reserved: kind ? NativeKeys.drawingElement : ["strokes"], to: &members,
      path: path)
    return JSONValue(.object(members))
  }

  private static func encode(_ set: FeatureSet, path: String) throws(DocumentError) -> JSONValue {
    func names(_ list: [String]) -> JSONValue { JSONValue(.array(list.map { JSONValue(.string($0)) })) }
    var members = [
      member("features", names(FeatureSet.Feature.allCases.filter(set.features.contains).map(\.rawValue))),
      member("inks", names(InkType.allCases.filter(set.inks.contains).map(\.rawValue))),
      member("shapes", names(ShapeType.allCases.filter(set.shapes.contains).map(\.rawValue))),
      member(
        "lineMarkers",
        names(
          LineMarkerPositions.names.filter {
            LineMarkerPositions(name: $0).map(set.lineMarkerPositions.contains) ?? false
          })),
      member(
        "colorMaximumLinearExposure",
        try number(set.colorMaximumLinearExposure, path: path + ".colorMaximumLinearExposure")),
      member("contentVersion", .number(JSONNumber(set.contentVersion))),
    ]
    try append(set.unknownFields, reserved: NativeKeys.featureSet, to: &members, path: path)
    return JSONValue(.object(members))
  }

  private static func encode(_ stroke: Stroke, path: String) throws(DocumentError) -> JSONValue {
    let ink = stroke.ink
    var inkMembers: [JSONMember] = [
      member("type", .string(ink.type.rawValue)),
      member("color", try color(ink.color, path: path + ".ink.color")),
    ]
    // Written only when not the defaults (sRGB, exposure 1), so SDR documents keep their bytes.
    if ink.color.colorSpace != .sRGB {
      inkMembers.append(member("colorSpace", .string(ink.color.colorSpace.rawValue)))
    }
    if ink.color.linearExposure != 1 {
      inkMembers.append(
        member("exposure", try number(ink.color.linearExposure, path: path + ".ink.exposure")))
    }
    inkMembers.append(member("width", try number(ink.width, path: path + ".ink.width")))
    try append(ink.unknownFields, reserved: NativeKeys.ink, to: &inkMembers, path: path + ".ink")
    var members: [JSONMember] = [member("ink", .object(inkMembers))]
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
    if let mask = stroke.mask {
      members.append(member("mask", try encode(mask, path: path + ".mask")))
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
    try append(stroke.unknownFields, reserved: NativeKeys.stroke, to: &members, path: path)
    return JSONValue(.object(members))
  }

  private static func encode(_ mask: StrokeMask, path: String) throws(DocumentError) -> JSONValue {
    var members: [JSONMember] = []
    if let clip = mask.clip {
      var polygons: [JSONValue] = []
      for (i, polygon) in clip.enumerated() {
        polygons.append(try numbers(polygon.flatMap { [$0.x, $0.y] }, path: "\(path).clip[\(i)]"))
      }
      members.append(member("clip", .array(polygons)))
    }
    if mask.fillRule != .nonZero { members.append(member("fillRule", .string(mask.fillRule.rawValue))) }
    if !mask.erasures.isEmpty {
      var sweeps: [JSONValue] = []
      for (i, sweep) in mask.erasures.enumerated() {
        let count = Swift.min(sweep.centers.count, sweep.radii.count)
        let values = (0..<count).flatMap { [sweep.centers[$0].x, sweep.centers[$0].y, sweep.radii[$0]] }
        sweeps.append(try numbers(values, path: "\(path).erasures[\(i)]"))
      }
      members.append(member("erasures", .array(sweeps)))
    }
    try append(mask.unknownFields, reserved: NativeKeys.mask, to: &members, path: path)
    return JSONValue(.object(members))
  }

  /// Appends preserved fields, refusing names the format uses at this level and values that are not
  /// JSON.
  private static func append(
    _ fields: UnknownFields, reserved: [String], to members: inout [JSONMember], path: String
  ) throws(DocumentError) {
    for field in fields.fields {
      let fieldPath = path.isEmpty ? field.name : path + "." + field.name
      guard !reserved.contains(field.name), !members.contains(where: { $0.key == field.name }) else {
        throw DocumentError(.reservedFieldName(field.name), path: fieldPath)
      }
      guard let value = try? JSONReader.parse(field.json) else {
        throw DocumentError(.invalidPreservedField(field.name), path: fieldPath)
      }
      members.append(member(field.name, value))
    }
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
