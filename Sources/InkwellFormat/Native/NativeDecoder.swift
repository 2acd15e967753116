import InkwellModel

/// Turns a parsed native document into a `Document`, checking every value on the way.
struct NativeDecoder {
  let bytes: [UInt8]
  /// The strokes' point rows the reader read straight into floats, by the offset of their array
  /// (which the tree holds empty).
  var pointRows: [Int: JSONReader.NumberRows] = [:]
  /// The plain strokes the reader read into their parts, by the offset of their object (which
  /// the tree holds empty).
  var strokeParts: [Int: JSONReader.StrokeParts] = [:]

  /// Whether the reader sets the point rows aside (`false` reads every number into the tree, as
  /// the tests compare).
  let readsPointRows: Bool

  /// The last stroke's field names and fields: the strokes of a document nearly always list the
  /// same ones, and comparing the names costs a fraction of looking each one up.
  private let lastFields = LastPointFields()

  init(bytes: [UInt8], readsPointRows: Bool = true) {
    self.bytes = bytes
    self.readsPointRows = readsPointRows
  }

  func decode() throws(DocumentError) -> Document {
    let root: JSONValue
    var decoder = self
    do {
      if readsPointRows {
        let parse = try JSONReader.parseNative(bytes)
        root = parse.root
        decoder.pointRows = parse.pointRows
        decoder.strokeParts = parse.strokes
      } else {
        root = try JSONReader.parse(bytes)
      }
    } catch {
      throw DocumentError(
        .invalidJSON(error.reason), location: error.location,
        category: Self.looksNative(bytes) ? .malformedData : .incorrectFormat)
    }
    return try decoder.decode(root: root)
  }

  private func decode(root: JSONValue) throws(DocumentError) -> Document {
    let top: ObjectMembers
    do {
      top = try object(root, path: "")
    } catch {
      throw recategorized(error, as: .incorrectFormat)
    }
    let format: JSONValue
    do {
      format = try top.required("format", in: "")
    } catch {
      throw recategorized(error, as: .incorrectFormat)
    }
    let formatName = try string(format, path: "format")
    guard formatName == "inkwell" else {
      throw failure(.notInkwellDocument(format: formatName), "format", format)
    }
    // Read leniently before anything can fail, so that a too-new error can hand it back.
    var thumbnail: [UInt8]?
    if let value = top.optional("thumbnail"), case .string(let text) = value.content {
      thumbnail = Base64.decode(text)
    }
    let version = try checkVersion(try top.required("version", in: ""), thumbnail: thumbnail)
    if let value = top.optional("contentVersion") {
      let contentVersion = try integer(value, as: Int.self, path: "contentVersion")
      guard contentVersion >= 1 else {
        throw failure(.valueOutOfRange(value: value.numberText, allowed: ">= 1"), "contentVersion", value)
      }
      guard contentVersion <= FeatureSet.newestContentVersion else {
        throw DocumentError(
          .contentTooNew(found: contentVersion, supported: FeatureSet.newestContentVersion),
          path: "contentVersion", location: SourceLocation(offset: value.offset, in: bytes),
          thumbnailPNG: thumbnail)
      }
    }
    if let value = top.optional("thumbnail") {
      let text = try string(value, path: "thumbnail")
      guard Base64.decode(text) != nil else { throw failure(.invalidBase64, "thumbnail", value) }
    }
    let bounds = try top.optional("bounds").map { v throws(DocumentError) in try rect(v, path: "bounds") }
    var featureSet = FeatureSet.latest
    if let value = top.optional("featureSet") {
      featureSet = try self.featureSet(value, path: "featureSet", thumbnail: thumbnail)
    }
    var elements: [MarkupElement] = []
    if version == 1 {
      if let member = top.member("elements") { throw keyNotInVersion("elements", version, member) }
      let drawing = try self.drawing(try top.required("drawing", in: ""), path: "drawing", known: ["strokes"])
      elements = [.drawing(drawing)]
    } else {
      if let member = top.member("drawing") { throw keyNotInVersion("drawing", version, member) }
      let list = try array(try top.required("elements", in: ""), path: "elements")
      elements.reserveCapacity(list.count)
      for (index, value) in list.enumerated() {
        elements.append(try element(value, path: "elements[\(index)]"))
      }
    }
    let markup = Markup(bounds: bounds, featureSet: featureSet, elements: elements)
    return Document(
      markup: markup, thumbnailPNG: thumbnail, unknownFields: top.unknown(except: NativeKeys.document))
  }

  /// Whether bytes that are not valid JSON still look like a native document (its `"format"` and
  /// `"inkwell"` strings near the start), so that the error says "broken" rather than "not ours".
  static func looksNative(_ bytes: [UInt8]) -> Bool {
    let head = Array(bytes.prefix(4096))
    return contains(head, Array(#""format""#.utf8)) && contains(head, Array(#""inkwell""#.utf8))
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
      if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
    }
    return false
  }

  private func recategorized(_ error: DocumentError, as category: DocumentError.Category) -> DocumentError {
    var error = error
    error.category = category
    return error
  }

  private func keyNotInVersion(_ key: String, _ version: Int, _ member: JSONMember) -> DocumentError {
    DocumentError(
      .keyNotInVersion(key: key, version: version), path: "",
      location: SourceLocation(offset: member.keyOffset, in: bytes))
  }

  // MARK: Document parts

  private func checkVersion(_ value: JSONValue, thumbnail: [UInt8]?) throws(DocumentError) -> Int {
    guard case .number(let number) = value.content else {
      throw failure(.wrongType(expected: "a number", found: value.typeDescription), "version", value)
    }
    guard let version = number.integerValue(as: Int.self), version >= 1 else {
      throw failure(.invalidVersion(number.text), "version", value)
    }
    guard version <= NativeFormat.version else {
      throw DocumentError(
        .unsupportedVersion(found: version, supported: NativeFormat.version), path: "version",
        location: SourceLocation(offset: value.offset, in: bytes), thumbnailPNG: thumbnail)
    }
    return version
  }

  private func element(_ value: JSONValue, path: String) throws(DocumentError) -> MarkupElement {
    let members = try object(value, path: path)
    let kindValue = try members.required("kind", in: path)
    let kind = try string(kindValue, path: path + ".kind")
    if kind == "drawing" { return .drawing(try drawing(value, path: path, known: ["kind", "strokes"])) }
    return .unknown(UnknownElement(kind: kind, fields: members.unknown(except: ["kind"])))
  }

  private func drawing(_ value: JSONValue, path: String, known: [String]) throws(DocumentError) -> Drawing {
    let members = try object(value, path: path)
    let strokeValues = try array(try members.required("strokes", in: path), path: path + ".strokes")
    var strokes: [Stroke] = []
    strokes.reserveCapacity(strokeValues.count)
    for (index, value) in strokeValues.enumerated() {
      strokes.append(try stroke(value, path: "\(path).strokes[\(index)]"))
    }
    return Drawing(strokes: strokes, unknownFields: members.unknown(except: known))
  }

  private func featureSet(_ value: JSONValue, path: String, thumbnail: [UInt8]?) throws(DocumentError)
    -> FeatureSet
  {
    let members = try object(value, path: path)
    let versionValue = try members.required("contentVersion", in: path)
    let contentVersion = try integer(versionValue, as: Int.self, path: path + ".contentVersion")
    guard contentVersion >= 1 else {
      throw failure(
        .valueOutOfRange(value: versionValue.numberText, allowed: ">= 1"), path + ".contentVersion",
        versionValue)
    }
    guard contentVersion <= FeatureSet.newestContentVersion else {
      throw DocumentError(
        .contentTooNew(found: contentVersion, supported: FeatureSet.newestContentVersion),
        path: path + ".contentVersion", location: SourceLocation(offset: versionValue.offset, in: bytes),
        thumbnailPNG: thumbnail)
    }
    func names<T>(_ key: String, _ make: (String) -> T?, known: [String]) throws(DocumentError) -> [T] {
      let list = try array(try members.required(key, in: path), path: "\(path).\(key)")
      var result: [T] = []
      for (i, element) in list.enumerated() {
        let name = try string(element, path: "\(path).\(key)[\(i)]")
        guard let item = make(name) else {
          throw failure(.unknownName(name, known: known), "\(path).\(key)[\(i)]", element)
        }
        result.append(item)
      }
      return result
    }
    let features = try names(
      "features", { FeatureSet.Feature(rawValue: $0) }, known: FeatureSet.Feature.allCases.map(\.rawValue))
    let inks = try names("inks", { InkType(rawValue: $0) }, known: InkType.allCases.map(\.rawValue))
    let shapes = try names("shapes", { ShapeType(rawValue: $0) }, known: ShapeType.allCases.map(\.rawValue))
    let markers = try names(
      "lineMarkers", { LineMarkerPositions(name: $0) }, known: LineMarkerPositions.names)
    let exposureValue = try members.required("colorMaximumLinearExposure", in: path)
    let exposure = try float(exposureValue, path: path + ".colorMaximumLinearExposure")
    guard exposure >= 1 else {
      throw failure(
        .valueOutOfRange(value: exposureValue.numberText, allowed: ">= 1"),
        path + ".colorMaximumLinearExposure", exposureValue)
    }
    return FeatureSet(
      features: Set(features), inks: Set(inks), shapes: Set(shapes),
      lineMarkerPositions: markers.reduce([]) { $0.union($1) }, colorMaximumLinearExposure: exposure,
      contentVersion: contentVersion, unknownFields: members.unknown(except: NativeKeys.featureSet))
  }

  private func stroke(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> Stroke {
    if let parts = strokeParts[value.offset], case .object(let placeholder) = value.content,
      placeholder.isEmpty
    {
      if let stroke = stroke(parts) { return stroke }
      // Something in it is not a value of its member: the tree says what and where.
      return try stroke(try tree(of: value, path: path()), path: path())
    }
    let members = try object(value, path: path())
    let ink = try ink(try members.required("ink", in: path()), path: path() + ".ink")
    var transform = AffineTransform.identity
    if let v = members.optional("transform") {
      let n = try floats(v, count: 6, elements: "a, b, c, d, tx, ty", path: path() + ".transform")
      transform = AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
    }
    var seed: UInt32 = 0
    if let v = members.optional("randomSeed") {
      seed = try integer(v, as: UInt32.self, path: path() + ".randomSeed")
    }
    var creationDate: Double?
    if let v = members.optional("creationDate") {
      creationDate = try double(v, path: path() + ".creationDate")
    }
    let mask = try members.optional("mask").map { v throws(DocumentError) in
      try self.mask(v, path: path() + ".mask")
    }
    let fields = try pointFields(try members.required("fields", in: path()), path: path() + ".fields")
    let points = try self.points(
      try members.required("points", in: path()), fields: fields, ink: ink, path: path() + ".points")
    return Stroke(
      ink: ink, path: StrokePath(controlPoints: points, creationDate: creationDate),
      transform: transform, randomSeed: seed, mask: mask,
      unknownFields: members.unknown(except: NativeKeys.stroke))
  }

  private func mask(_ value: JSONValue, path: String) throws(DocumentError) -> StrokeMask {
    let members = try object(value, path: path)
    var clip: [[Point]]?
    if let v = members.optional("clip") {
      let polygons = try array(v, path: path + ".clip")
      var result: [[Point]] = []
      for (i, polygon) in polygons.enumerated() {
        let p = "\(path).clip[\(i)]"
        let n = try floatList(polygon, path: p)
        guard n.count % 2 == 0 else {
          throw failure(
            .wrongArrayLength(expected: n.count + 1, found: n.count, elements: "x, y pairs"), p, polygon)
        }
        result.append(stride(from: 0, to: n.count, by: 2).map { Point(x: n[$0], y: n[$0 + 1]) })
      }
      clip = result
    }
    var fillRule = FillRule.nonZero
    if let v = members.optional("fillRule") {
      let name = try string(v, path: path + ".fillRule")
      guard let rule = FillRule(rawValue: name) else {
        throw failure(.unknownName(name, known: FillRule.allCases.map(\.rawValue)), path + ".fillRule", v)
      }
      fillRule = rule
    }
    var erasures: [EraserSweep] = []
    if let v = members.optional("erasures") {
      for (i, sweep) in try array(v, path: path + ".erasures").enumerated() {
        let p = "\(path).erasures[\(i)]"
        let n = try floatList(sweep, path: p)
        guard n.count % 3 == 0 else {
          throw failure(
            .wrongArrayLength(
              expected: n.count + 3 - n.count % 3, found: n.count, elements: "x, y, radius triples"),
            p, sweep)
        }
        var centers: [Point] = []
        var radii: [Float] = []
        for k in stride(from: 0, to: n.count, by: 3) {
          guard n[k + 2] >= 0 else {
            throw failure(.valueOutOfRange(value: "\(n[k + 2])", allowed: ">= 0 for a radius"), p, sweep)
          }
          centers.append(Point(x: n[k], y: n[k + 1]))
          radii.append(n[k + 2])
        }
        erasures.append(EraserSweep(centers: centers, radii: radii))
      }
    }
    return StrokeMask(
      clip: clip, fillRule: fillRule, erasures: erasures,
      unknownFields: members.unknown(except: NativeKeys.mask))
  }

  private func ink(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> Ink {
    let members = try object(value, path: path())
    let typeValue = try members.required("type", in: path())
    let typeName = try string(typeValue, path: path() + ".type")
    guard let type = InkType(rawValue: typeName) else {
      throw failure(.unknownInkType(typeName), path() + ".type", typeValue)
    }
    var color = try self.color(try members.required("color", in: path()), path: path() + ".color")
    if let v = members.optional("colorSpace") {
      let name = try string(v, path: path() + ".colorSpace")
      guard let space = ColorSpace(rawValue: name) else {
        throw failure(
          .unknownName(name, known: ColorSpace.allCases.map(\.rawValue)), path() + ".colorSpace", v)
      }
      color.colorSpace = space
    }
    if let v = members.optional("exposure") {
      let exposure = try float(v, path: path() + ".exposure")
      guard exposure >= 1 else {
        throw failure(.valueOutOfRange(value: v.numberText, allowed: ">= 1"), path() + ".exposure", v)
      }
      color.linearExposure = exposure
    }
    var width: Float?
    if let v = members.optional("width") {
      width = try float(v, path: path() + ".width")
      if let w = width, w < 0 {
        throw failure(.valueOutOfRange(value: v.numberText, allowed: ">= 0"), path() + ".width", v)
      }
    }
    return Ink(type: type, color: color, width: width, unknownFields: members.unknown(except: NativeKeys.ink))
  }

  private func color(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> Color {
    switch value.content {
    case .string(let text):
      guard let color = Self.color(hex: text) else {
        throw failure(.invalidColor("\"\(text)\""), path(), value)
      }
      return color
    case .array(let elements):
      guard elements.count == 4 else {
        throw failure(
          .wrongArrayLength(expected: 4, found: elements.count, elements: "r, g, b, a"), path(), value)
      }
      var components = SIMD4<Float>()
      for (i, element) in elements.enumerated() {
        let component = try float(element, path: "\(path())[\(i)]")
        guard component >= 0, component <= 1 else {
          throw failure(.invalidColor(element.numberText), "\(path())[\(i)]", element)
        }
        components[i] = component
      }
      return Color(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    default:
      throw failure(
        .wrongType(expected: "a string or an array", found: value.typeDescription), path(), value)
    }
  }

  /// The stroke `stroke(_:path:)` makes of a stroke object with these parts; `nil` when a part
  /// is not a value of its member (the tree path then reports it).
  private func stroke(_ parts: JSONReader.StrokeParts) -> Stroke? {
    guard let type = InkType(rawValue: parts.inkType) else { return nil }
    let color: Color
    if let text = parts.colorText {
      guard let parsed = Self.color(hex: text) else { return nil }
      color = parsed
    } else {
      let c = parts.components
      // Written so that a NaN fails too.
      guard all(c .>= 0 .& c .<= 1) else { return nil }
      color = Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    if let width = parts.width, !(width >= 0) { return nil }
    let ink = Ink(type: type, color: color, width: parts.width, unknownFields: UnknownFields())
    guard let fields = pointFields(names: parts.fields),
      let points = Self.points(parts.rows, fields: fields, template: Self.template(for: ink))
    else { return nil }
    return Stroke(
      ink: ink, path: StrokePath(controlPoints: points, creationDate: nil), transform: .identity,
      randomSeed: 0,
      mask: nil, unknownFields: UnknownFields())
  }

  /// The color a `#RRGGBB` or `#RRGGBBAA` string names; `nil` for any other string.
  private static func color(hex text: String) -> Color? {
    let hex = text.utf8.dropFirst()
    guard text.utf8.first == UInt8(ascii: "#"), hex.count == 6 || hex.count == 8,
      hex.allSatisfy({ isASCIIHexDigit($0) })
    else { return nil }
    return Color(parsing: text)
  }

  private func rect(_ value: JSONValue, path: String) throws(DocumentError) -> Rect {
    let n = try floats(value, count: 4, elements: "x, y, width, height", path: path)
    for i in 2..<4 where n[i] < 0 {
      guard case .array(let elements) = value.content else { break }
      throw failure(
        .valueOutOfRange(value: elements[i].numberText, allowed: ">= 0"), "\(path)[\(i)]", elements[i])
    }
    return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
  }

  private func pointFields(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError)
    -> [PointField]
  {
    let elements = try array(value, path: path())
    let names = elements.compactMap { element -> String? in
      guard case .string(let name) = element.content else { return nil }
      return name
    }
    if names.count == elements.count, let fields = pointFields(names: names) { return fields }
    // Something in the list is not a field, or one is missing: say what, in the list's order.
    var fields: [PointField] = []
    for (i, element) in elements.enumerated() {
      let name = try string(element, path: "\(path())[\(i)]")
      guard let field = PointField(rawValue: name) else {
        throw failure(.unknownField(name), "\(path())[\(i)]", element)
      }
      guard !fields.contains(field) else { throw failure(.duplicateField(name), "\(path())[\(i)]", element) }
      fields.append(field)
    }
    for required in PointField.allCases where required.isRequired && !fields.contains(required) {
      throw failure(.missingField(required.rawValue), path(), value)
    }
    return fields
  }

  /// The fields the names list, as `pointFields(_:path:)` reads them; `nil` where it would
  /// report a problem.
  private func pointFields(names: [String]) -> [PointField]? {
    if !names.isEmpty, names == lastFields.names { return lastFields.fields }
    var fields: [PointField] = []
    fields.reserveCapacity(names.count)
    for name in names {
      guard let field = PointField(rawValue: name), !fields.contains(field) else { return nil }
      fields.append(field)
    }
    guard PointField.allCases.allSatisfy({ !$0.isRequired || fields.contains($0) }) else { return nil }
    lastFields.names = names
    lastFields.fields = fields
    return fields
  }

  /// A point of a stroke drawn with `ink` with every field at its default.
  private static func template(for ink: Ink) -> StrokePoint {
    var template = StrokePoint(location: .zero, size: Size(width: ink.width, height: ink.width))
    for field in PointField.allCases { field.set(field.defaultValue(for: ink), in: &template) }
    return template
  }

  private func points(
    _ value: JSONValue, fields: [PointField], ink: Ink, path: @autoclosure () -> String
  ) throws(DocumentError) -> [StrokePoint] {
    let template = Self.template(for: ink)
    if let numberRows = pointRows[value.offset], case .array(let placeholder) = value.content,
      placeholder.isEmpty
    {
      if let points = Self.points(numberRows, fields: fields, template: template) { return points }
      // Something is wrong with a value: the tree says what and where.
      return try points(try tree(of: value, path: path()), fields: fields, template: template, path: path())
    }
    return try points(value, fields: fields, template: template, path: path())
  }

  /// The points of rows the reader read into floats; `nil` when a row has the wrong length or a
  /// value is not finite or, for a field that cannot be, negative. Every point starts as
  /// `template`, and each column is written straight to its field's place in the points.
  private static func points(
    _ rows: JSONReader.NumberRows, fields: [PointField], template: StrokePoint
  ) -> [StrokePoint]? {
    let width = fields.count
    guard rows.width == width, width > 0 else { return nil }
    let count = rows.values.count / width
    var points = [StrokePoint](repeating: template, count: count)
    let stride = MemoryLayout<StrokePoint>.stride
    let valid = rows.values.withUnsafeBufferPointer { values in
      points.withUnsafeMutableBytes { raw in
        for (c, field) in fields.enumerated() {
          let nonNegative = field.isNonNegative
          var k = c
          guard let offset = field.byteOffset else {
            // Not a stored float of the point (never so far): set through the field instead.
            for r in 0..<count {
              let value = values[k]
              guard value.isFinite, value >= 0 || !nonNegative else { return false }
              raw.withMemoryRebound(to: StrokePoint.self) { field.set(value, in: &$0[r]) }
              k &+= width
            }
            continue
          }
          for r in 0..<count {
            let value = values[k]
            guard value.isFinite, value >= 0 || !nonNegative else { return false }
            raw.storeBytes(of: value, toByteOffset: r &* stride &+ offset, as: Float.self)
            k &+= width
          }
        }
        return true
      }
    }
    return valid ? points : nil
  }

  private func points(
    _ value: JSONValue, fields: [PointField], template: StrokePoint, path: String
  ) throws(DocumentError) -> [StrokePoint] {
    let rows = try array(value, path: path)
    var points: [StrokePoint] = []
    points.reserveCapacity(rows.count)
    // The cells are read in place (a cell copied out for each number, and its row for each row,
    // was a tenth of loading a document); any problem is reported by `cellFailure`.
    for r in rows.indices {
      guard case .array(let cells) = rows[r].content, cells.count == fields.count else {
        throw rowFailure(rows[r], fields: fields, path: "\(path)[\(r)]")
      }
      var point = template
      for c in cells.indices {
        let field = fields[c]
        guard case .number(let number) = cells[c].content else {
          throw cellFailure(cells[c], field: field, path: "\(path)[\(r)][\(c)]")
        }
        let value = number.floatValue
        guard value.isFinite, value >= 0 || !field.isNonNegative else {
          throw cellFailure(cells[c], field: field, path: "\(path)[\(r)][\(c)]")
        }
        field.set(value, in: &point)
      }
      points.append(point)
    }
    return points
  }

  /// The tree of the value the reader set aside in place of `value` (a placeholder at its offset).
  private func tree(of value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> JSONValue {
    do {
      return try JSONReader.parseValue(bytes, at: value.offset)
    } catch {
      throw failure(.invalidJSON(error.reason), path(), value)
    }
  }

  /// Why `row` is not a point row of `fields`.
  private func rowFailure(_ row: JSONValue, fields: [PointField], path: String) -> DocumentError {
    guard case .array(let cells) = row.content else {
      return failure(
        .wrongType(expected: "an array of \(fields.count) numbers", found: row.typeDescription), path, row)
    }
    return failure(
      .wrongRowLength(expected: fields.count, found: cells.count, fields: fields.map(\.rawValue)), path, row)
  }

  /// Why `cell` is not a value of `field`.
  private func cellFailure(_ cell: JSONValue, field: PointField, path: String) -> DocumentError {
    do throws(DocumentError) {
      _ = try float(cell, path: path)
    } catch {
      return error
    }
    return failure(
      .valueOutOfRange(value: cell.numberText, allowed: ">= 0 for \(field.rawValue)"), path, cell)
  }

  // MARK: Typed access

  private func object(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError)
    -> ObjectMembers
  {
    guard case .object(let members) = value.content else {
      throw failure(.wrongType(expected: "an object", found: value.typeDescription), path(), value)
    }
    func duplicate(_ member: JSONMember) -> DocumentError {
      DocumentError(
        .duplicateKey(member.key), path: path(), location: SourceLocation(offset: member.keyOffset, in: bytes)
      )
    }
    // A stroke's or an ink's few members are searched in order (a dictionary for each was a tenth
    // of loading a document); a large object gets its dictionary.
    guard members.count > ObjectMembers.searchedInOrder else {
      for i in members.indices where members[..<i].contains(where: { $0.key == members[i].key }) {
        throw duplicate(members[i])
      }
      return ObjectMembers(decoder: self, value: value, members: members, byKey: nil)
    }
    var byKey: [String: JSONMember] = [:]
    for member in members {
      guard byKey.updateValue(member, forKey: member.key) == nil else { throw duplicate(member) }
    }
    return ObjectMembers(decoder: self, value: value, members: members, byKey: byKey)
  }

  private func array(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> [JSONValue]
  {
    guard case .array(let elements) = value.content else {
      throw failure(.wrongType(expected: "an array", found: value.typeDescription), path(), value)
    }
    return elements
  }

  private func string(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> String {
    guard case .string(let text) = value.content else {
      throw failure(.wrongType(expected: "a string", found: value.typeDescription), path(), value)
    }
    return text
  }

  private func float(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> Float {
    guard case .number(let number) = value.content else {
      throw failure(.wrongType(expected: "a number", found: value.typeDescription), path(), value)
    }
    let result = number.floatValue
    guard result.isFinite else { throw failure(.numberOutOfRange(number.text), path(), value) }
    return result
  }

  private func double(_ value: JSONValue, path: @autoclosure () -> String) throws(DocumentError) -> Double {
    guard case .number(let number) = value.content else {
      throw failure(.wrongType(expected: "a number", found: value.typeDescription), path(), value)
    }
    let result = number.doubleValue
    guard result.isFinite else { throw failure(.numberOutOfRange(number.text), path(), value) }
    return result
  }

  private func integer<I: FixedWidthInteger>(
    _ value: JSONValue, as type: I.Type, path: @autoclosure () -> String
  ) throws(DocumentError) -> I {
    guard case .number(let number) = value.content else {
      throw failure(.wrongType(expected: "a number", found: value.typeDescription), path(), value)
    }
    guard let result = number.integerValue(as: I.self) else {
      throw failure(.notAnInteger(number.text, range: "\(I.min)...\(I.max)"), path(), value)
    }
    return result
  }

  private func floatList(_ value: JSONValue, path: String) throws(DocumentError) -> [Float] {
    let elements = try array(value, path: path)
    var result: [Float] = []
    result.reserveCapacity(elements.count)
    for (i, element) in elements.enumerated() { result.append(try float(element, path: "\(path)[\(i)]")) }
    return result
  }

  private func floats(
    _ value: JSONValue, count: Int, elements names: String, path: String
  ) throws(DocumentError) -> [Float] {
    let elements = try array(value, path: path)
    guard elements.count == count else {
      throw failure(.wrongArrayLength(expected: count, found: elements.count, elements: names), path, value)
    }
    var result: [Float] = []
    for (i, element) in elements.enumerated() { result.append(try float(element, path: "\(path)[\(i)]")) }
    return result
  }

  fileprivate func failure(_ kind: DocumentError.Kind, _ path: String, _ value: JSONValue) -> DocumentError {
    DocumentError(kind, path: path, location: SourceLocation(offset: value.offset, in: bytes))
  }
}

/// The fields of the last stroke whose field names were valid, and those names.
private final class LastPointFields {
  var names: [String] = []
  var fields: [PointField] = []
}

/// An object's members by key.
private struct ObjectMembers {
  let decoder: NativeDecoder
  let value: JSONValue
  let members: [JSONMember]
  /// The members by key, for objects of more than `searchedInOrder` members.
  let byKey: [String: JSONMember]?

  /// Members up to which an object is searched in order rather than through a dictionary.
  static let searchedInOrder = 12

  /// The member named `key`.
  func member(_ key: String) -> JSONMember? {
    if let byKey { return byKey[key] }
    return members.first { $0.key == key }
  }

  func optional(_ key: String) -> JSONValue? { member(key)?.value }

  /// The members whose keys are not in `known`, in source order, as compact JSON text.
  func unknown(except known: [String]) -> UnknownFields {
    guard case .object(let members) = value.content, members.contains(where: { !known.contains($0.key) })
    else { return UnknownFields() }
    // Read again from the text when the reader set point rows aside: an unknown element's strokes
    // hold them as empty arrays in the tree.
    return UnknownFields(
      members.filter { !known.contains($0.key) }.map {
        let value =
          decoder.pointRows.isEmpty && decoder.strokeParts.isEmpty
          ? $0.value : (try? JSONReader.parseValue(decoder.bytes, at: $0.value.offset)) ?? $0.value
        return UnknownFields.Field(name: $0.key, json: JSONWriter.write(value, style: .compact))
      })
  }

  /// The value of member `key` of the object at `path`.
  func required(_ key: String, in path: @autoclosure () -> String) throws(DocumentError) -> JSONValue {
    guard let member = member(key) else { throw decoder.failure(.missingKey(key), path(), value) }
    return member.value
  }
}

extension JSONValue {
  /// The number's text, or the type's description for other values.
  fileprivate var numberText: String {
    if case .number(let number) = content { return number.text }
    return typeDescription
  }
}

private func isASCIIHexDigit(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
    UInt8(ascii: "A")...UInt8(ascii: "F"):
    return true
  default: return false
  }
}

extension PointField {
  /// Where the field's value sits in a `StrokePoint`, in bytes; `nil` if it were not a stored
  /// float.
  fileprivate var byteOffset: Int? {
    switch self {
    case .x: return PointFieldOffsets.x
    case .y: return PointFieldOffsets.y
    case .t: return PointFieldOffsets.t
    case .width: return PointFieldOffsets.width
    case .height: return PointFieldOffsets.height
    case .opacity: return PointFieldOffsets.opacity
    case .force: return PointFieldOffsets.force
    case .azimuth: return PointFieldOffsets.azimuth
    case .altitude: return PointFieldOffsets.altitude
    case .roll: return PointFieldOffsets.roll
    case .secondaryScale: return PointFieldOffsets.secondaryScale
    case .threshold: return PointFieldOffsets.threshold
    case .lateralJitter: return PointFieldOffsets.lateralJitter
    }
  }
}

/// The byte offsets of a `StrokePoint`'s fields, each a stored `Float`.
private enum PointFieldOffsets {
  static let x = offset(\.location.x)
  static let y = offset(\.location.y)
  static let t = offset(\.timeOffset)
  static let width = offset(\.size.width)
  static let height = offset(\.size.height)
  static let opacity = offset(\.opacity)
  static let force = offset(\.force)
  static let azimuth = offset(\.azimuth)
  static let altitude = offset(\.altitude)
  static let roll = offset(\.rollAngle)
  static let secondaryScale = offset(\.secondaryScale)
  static let threshold = offset(\.threshold)
  static let lateralJitter = offset(\.lateralJitter)

  private static func offset(_ path: WritableKeyPath<StrokePoint, Float>) -> Int? {
    MemoryLayout<StrokePoint>.offset(of: path)
  }
}
