import InkwellModel

/// Reads InkML (W3C Recommendation "Ink Markup Language", 2011): `<ink>` documents of `<trace>`s,
/// optionally grouped in `<traceGroup>`s, drawn in the context (`<context>`, `<traceFormat>`,
/// `<inkSource>`, `<brush>`) that references and `<definitions>` give them.
///
/// A `<context>` directly in `<ink>` changes the current context for the traces that follow, from
/// the previous one unless it names another with `contextRef`; so does a bare `<traceFormat>` there.
/// Every `<trace>` outside `<definitions>` with at least one point is a stroke, in document order,
/// except pen-up traces (`type="penUp"`: the pen hovering). Channels map onto point fields:
///
/// * `X`, `Y`: the location. Physical units (`m`, `cm`, `mm`, `in`, `pt`, `pc`, `himetric`) become
///   points (1/72 in); `px`, `dev` and undeclared units stay as they are (document units). The
///   default orientation is x right, y down; `orientation="-ve"` negates the axis.
/// * `T`: time, in `ms` unless `units` says `s` or `us`; offsets restart at 0 for each trace.
/// * `F`: force, `(F − min) / (max − min)` when the channel declares `max` (`min` defaults to 0),
///   F/100 in `%`; otherwise kept if every force in the document is ≤ 1 and else divided by the
///   document's largest force.
/// * `OTx`, `OTy` (tilt, `deg` unless `rad`): azimuth and altitude, as Pointer Events converts
///   tilt. `OA` (azimuth) and `OE` (elevation) map directly; `OR` (rotation) is the roll angle.
/// * `W`: the tip width at each point, in X's units.
///
/// Other channels are read and dropped. A trace's brush gives its ink: `width` (converted like X
/// when it has physical units, else in X's units), `color`, `transparency` (0 opaque … 255 clear)
/// and `ignorePressure`. Without a brush, strokes are drawn with `defaultInk`.
public enum InkMLImporter {
  /// A 2-unit black pen.
  public static let defaultInk = Ink(type: .pen, color: .black, width: 2)

  /// How deep references (`contextRef` → `brushRef` → …) may chain before they count as a cycle.
  static let maximumReferenceDepth = 32

  /// - Throws: `DocumentError` with the location of the malformed element or trace value.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    let root: XMLElement
    do {
      root = try XMLReader.parse(bytes)
    } catch {
      throw DocumentError(error)
    }
    guard root.localName == "ink" else {
      throw DocumentError.importFailure(
        .wrongRootElement(found: root.name, expected: "ink"), at: root.offset, in: bytes)
    }
    var reader = InkMLDocumentReader(bytes: bytes, defaultInk: ink)
    reader.register(root)
    try reader.read(root)
    return ImportedDocument.make(strokes: reader.finishedStrokes())
  }
}

/// The state of one InkML read: the elements by id, the current context and the strokes so far.
private struct InkMLDocumentReader {
  struct Channel {
    var name: String
    var units: String?
    var minimum: Double?
    var maximum: Double?
    var negated = false
    var defaultValue: Double = 0
  }

  struct TraceFormat {
    var regular: [Channel]
    var intermittent: [Channel]

    static let standard = TraceFormat(regular: [Channel(name: "X"), Channel(name: "Y")], intermittent: [])
  }

  struct Brush {
    var width: Float?
    var widthUnits: String?
    var color: Color?
    var transparency: Float?
    var ignoresPressure = false
  }

  struct Context {
    var traceFormat = TraceFormat.standard
    var brush: Brush?
  }

  let bytes: [UInt8]
  let defaultInk: Ink
  var elementsByID: [String: XMLElement] = [:]
  var currentContext = Context()
  var strokes: [Stroke] = []
  /// Strokes whose force is a raw device value, to be scaled by the document's largest force.
  var rawForceStrokes: [Int] = []

  init(bytes: [UInt8], defaultInk: Ink) {
    self.bytes = bytes
    self.defaultInk = defaultInk
  }

  /// Records every element with an `xml:id` (or a bare `id`, as drafts wrote it); the first wins.
  mutating func register(_ element: XMLElement) {
    var stack = [element]
    while let next = stack.popLast() {
      if let id = next.attribute("xml:id") ?? next.attribute("id"), elementsByID[id] == nil {
        elementsByID[id] = next
      }
      stack.append(contentsOf: next.elements.reversed())
    }
  }

  func failure(_ failure: ImportFailure, _ offset: Int) -> DocumentError {
    DocumentError.importFailure(failure, at: offset, in: bytes)
  }

  mutating func finishedStrokes() -> [Stroke] {
    let largest = rawForceStrokes.flatMap { strokes[$0].path.controlPoints.map(\.force) }.max() ?? 0
    if largest > 1 {
      for index in rawForceStrokes {
        for k in strokes[index].path.controlPoints.indices {
          strokes[index].path.controlPoints[k].force /= largest
        }
      }
    }
    return strokes
  }

  // MARK: Walking the document

  mutating func read(_ ink: XMLElement) throws(DocumentError) {
    for child in ink.elements {
      switch child.localName {
      case "context":
        currentContext = try context(child, base: currentContext, depth: 0)
      case "traceFormat":
        // Not in the Recommendation's content model, but common (CROHME, many exporters): a trace
        // format directly in <ink> sets the format of the traces that follow.
        currentContext.traceFormat = try traceFormat(child, depth: 0)
      case "trace":
        try trace(child, context: currentContext, brush: nil)
      case "traceGroup":
        try traceGroup(child, context: currentContext, brush: nil, depth: 0)
      default:
        continue
      }
    }
  }

  mutating func traceGroup(
    _ group: XMLElement, context inherited: Context, brush inheritedBrush: Brush?, depth: Int
  ) throws(DocumentError) {
    var context = inherited
    var brush = inheritedBrush
    if let reference = group.attribute("contextRef") {
      context = try self.context(try resolve(reference, at: group), base: Context(), depth: 1)
      brush = nil
    }
    if let reference = group.attribute("brushRef") {
      brush = try self.brush(try resolve(reference, at: group), depth: 1)
    }
    for child in group.elements {
      switch child.localName {
      case "trace": try trace(child, context: context, brush: brush)
      case "traceGroup": try traceGroup(child, context: context, brush: brush, depth: depth + 1)
      default: continue
      }
    }
  }

  // MARK: Definitions

  func resolve(_ reference: String, at element: XMLElement) throws(DocumentError) -> XMLElement {
    let id = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
    guard let target = elementsByID[id] else {
      let offset = element.attributes.first { $0.value == reference }?.offset ?? element.offset
      throw failure(.undefinedReference(reference), offset)
    }
    return target
  }

  func guardDepth(_ depth: Int, _ element: XMLElement) throws(DocumentError) {
    guard depth <= InkMLImporter.maximumReferenceDepth else {
      throw failure(.circularReference(element.attribute("xml:id") ?? element.localName), element.offset)
    }
  }

  /// A context: `base` (or the one `contextRef` names), then the referenced ink source, trace
  /// format and brush, then the elements it contains.
  func context(_ element: XMLElement, base: Context, depth: Int) throws(DocumentError) -> Context {
    try guardDepth(depth, element)
    guard element.localName == "context" else {
      throw failure(
        .unsupportedContent("contextRef names a <\(element.localName)>, not a <context>"), element.offset)
    }
    var context = base
    if let reference = element.attribute("contextRef") {
      context = try self.context(try resolve(reference, at: element), base: Context(), depth: depth + 1)
    }
    if let reference = element.attribute("inkSourceRef"),
      let format = try inkSourceFormat(try resolve(reference, at: element), depth: depth + 1)
    {
      context.traceFormat = format
    }
    if let reference = element.attribute("traceFormatRef") {
      context.traceFormat = try traceFormat(try resolve(reference, at: element), depth: depth + 1)
    }
    if let reference = element.attribute("brushRef") {
      context.brush = try brush(try resolve(reference, at: element), depth: depth + 1)
    }
    for child in element.elements {
      switch child.localName {
      case "inkSource":
        if let format = try inkSourceFormat(child, depth: depth + 1) { context.traceFormat = format }
      case "traceFormat": context.traceFormat = try traceFormat(child, depth: depth + 1)
      case "brush": context.brush = try brush(child, depth: depth + 1)
      default: continue
      }
    }
    return context
  }

  func inkSourceFormat(_ element: XMLElement, depth: Int) throws(DocumentError) -> TraceFormat? {
    try guardDepth(depth, element)
    guard let format = element.elements.first(where: { $0.localName == "traceFormat" }) else { return nil }
    return try traceFormat(format, depth: depth + 1)
  }

  func traceFormat(_ element: XMLElement, depth: Int) throws(DocumentError) -> TraceFormat {
    try guardDepth(depth, element)
    if element.localName == "inkSource", let format = try inkSourceFormat(element, depth: depth + 1) {
      return format
    }
    guard element.localName == "traceFormat" else {
      throw failure(.unsupportedContent("traceFormatRef names a <\(element.localName)>"), element.offset)
    }
    if let reference = element.attribute("href") ?? element.attribute("traceFormatRef") {
      return try traceFormat(try resolve(reference, at: element), depth: depth + 1)
    }
    var format = TraceFormat(regular: [], intermittent: [])
    for child in element.elements {
      switch child.localName {
      case "channel": format.regular.append(try channel(child))
      case "intermittentChannels":
        for intermittent in child.elements where intermittent.localName == "channel" {
          format.intermittent.append(try channel(intermittent))
        }
      default: continue
      }
    }
    return format
  }

  func channel(_ element: XMLElement) throws(DocumentError) -> Channel {
    guard let name = element.attribute("name") else {
      throw failure(.missingAttribute(element: "channel", attribute: "name"), element.offset)
    }
    var channel = Channel(name: name, units: element.attribute("units"))
    channel.negated = element.attribute("orientation") == "-ve"
    channel.minimum = try number(element, "min")
    channel.maximum = try number(element, "max")
    if let value = element.attribute("default") {
      channel.defaultValue = value == "T" ? 1 : value == "F" ? 0 : try number(element, "default") ?? 0
    }
    return channel
  }

  func number(_ element: XMLElement, _ name: String) throws(DocumentError) -> Double? {
    guard let text = element.attribute(name) else { return nil }
    let trimmed = text.split(separator: " ").first.map(String.init) ?? ""
    guard isDecimalNumber(trimmed), let value = Double(trimmed), value.isFinite else {
      let offset = element.attributes.first { $0.name == name }?.offset ?? element.offset
      throw DocumentError(.notANumber(text), location: SourceLocation(offset: offset, in: bytes))
    }
    return value
  }

  /// A brush: the one `brushRef` names, then its own properties.
  func brush(_ element: XMLElement, depth: Int) throws(DocumentError) -> Brush {
    try guardDepth(depth, element)
    guard element.localName == "brush" else {
      throw failure(
        .unsupportedContent("brushRef names a <\(element.localName)>, not a <brush>"), element.offset)
    }
    var brush = Brush()
    if let reference = element.attribute("brushRef") {
      brush = try self.brush(try resolve(reference, at: element), depth: depth + 1)
    }
    for property in element.elements where property.localName == "brushProperty" {
      guard let name = property.attribute("name"), let value = property.attribute("value") else { continue }
      switch name {
      case "width":
        guard let width = try number(property, "value"), width >= 0 else {
          throw DocumentError(
            .valueOutOfRange(value: value, allowed: ">= 0"),
            location: SourceLocation(offset: property.offset, in: bytes))
        }
        brush.width = Float(width)
        brush.widthUnits = property.attribute("units")
      case "color":
        guard let color = Color(parsing: value) else {
          throw DocumentError(
            .invalidColor("\"\(value)\""), location: SourceLocation(offset: property.offset, in: bytes))
        }
        brush.color = color
      case "transparency":
        guard let transparency = try number(property, "value"), (0...255).contains(transparency) else {
          throw DocumentError(
            .valueOutOfRange(value: value, allowed: "0...255"),
            location: SourceLocation(offset: property.offset, in: bytes))
        }
        brush.transparency = Float(transparency)
      case "ignorePressure":
        brush.ignoresPressure = value == "true" || value == "1" || value == "T"
      default: continue
      }
    }
    return brush
  }

  // MARK: Traces

  /// Points per physical unit; `nil` for units kept as they are.
  static func pointsPerUnit(_ units: String?) -> Double? {
    switch units {
    case "pt": return 1
    case "in": return 72
    case "cm": return 72 / 2.54
    case "mm": return 72 / 25.4
    case "m": return 7200 / 2.54
    case "pc": return 12
    case "himetric": return 72 / 2540
    default: return nil
    }
  }

  static func radiansPerUnit(_ units: String?) -> Double {
    units == "rad" ? 1 : .pi / 180
  }

  mutating func trace(_ element: XMLElement, context inherited: Context, brush groupBrush: Brush?)
    throws(DocumentError)
  {
    if element.attribute("type") == "penUp" { return }
    var context = inherited
    var brush = groupBrush ?? context.brush
    if let reference = element.attribute("contextRef") {
      context = try self.context(try resolve(reference, at: element), base: Context(), depth: 1)
      brush = context.brush
    }
    if let reference = element.attribute("brushRef") {
      brush = try self.brush(try resolve(reference, at: element), depth: 1)
    }
    let format = context.traceFormat
    let channels = format.regular + format.intermittent
    var decoder = InkMLTraceDecoder(
      channelNames: channels.map(\.name), regularCount: format.regular.count,
      defaults: channels.map(\.defaultValue))
    let (text, textOffset) = element.text
    let rows: [[Double]]
    do {
      rows = try decoder.decode(Array(text.utf8))
    } catch {
      throw failure(error.failure, textOffset + error.offset)
    }
    guard !rows.isEmpty else { return }

    func index(_ name: String) -> Int? { channels.firstIndex { $0.name == name } }
    guard let xIndex = index("X"), let yIndex = index("Y") else {
      throw failure(.unsupportedContent("the trace format has no X and Y channels"), element.offset)
    }
    let unitScale = Self.pointsPerUnit(channels[xIndex].units) ?? 1
    let xScale = channels[xIndex].negated ? -unitScale : unitScale
    let yUnitScale = Self.pointsPerUnit(channels[yIndex].units) ?? 1
    let yScale = channels[yIndex].negated ? -yUnitScale : yUnitScale

    var ink = defaultInk
    if let brush {
      if let width = brush.width {
        ink.width = Float(Double(width) * (Self.pointsPerUnit(brush.widthUnits) ?? unitScale))
      }
      if let color = brush.color { ink.color = color }
      if let transparency = brush.transparency { ink.color.alpha *= 1 - transparency / 255 }
    }
    guard ink.width.isFinite else {
      throw failure(.unsupportedContent("the brush width is out of range"), element.offset)
    }

    let timeIndex = index("T")
    let secondsPerUnit: Double =
      switch timeIndex.flatMap({ channels[$0].units }) {
      case "s": 1
      case "us", "µs": 1e-6
      default: 1e-3
      }
    let forceIndex = index("F")
    var forceIsRaw = false
    var forceTransform: (Double) -> Double = { $0 }
    if let forceIndex {
      let channel = channels[forceIndex]
      if let maximum = channel.maximum, maximum > (channel.minimum ?? 0) {
        let minimum = channel.minimum ?? 0
        forceTransform = { ($0 - minimum) / (maximum - minimum) }
      } else if channel.units == "%" {
        forceTransform = { $0 / 100 }
      } else {
        forceIsRaw = true
      }
    }
    let tiltX = index("OTx")
    let tiltY = index("OTy")
    let azimuthIndex = index("OA")
    let elevationIndex = index("OE")
    let rotationIndex = index("OR")
    let widthIndex = index("W")
    func radians(_ index: Int) -> Double { Self.radiansPerUnit(channels[index].units) }

    let startTime = timeIndex.map { rows[0][$0] } ?? 0
    var points: [StrokePoint] = []
    points.reserveCapacity(rows.count)
    for row in rows {
      let x = Float(row[xIndex] * xScale)
      let y = Float(row[yIndex] * yScale)
      guard x.isFinite, y.isFinite else {
        throw failure(
          .unsupportedContent("a trace coordinate is beyond the range of a 32-bit float"), textOffset)
      }
      var point = StrokePoint(location: Point(x: x, y: y), size: Size(width: ink.width, height: ink.width))
      if let timeIndex {
        point.timeOffset = Float(Swift.max(0, (row[timeIndex] - startTime) * secondsPerUnit))
      }
      if let forceIndex, brush?.ignoresPressure != true {
        let force = Float(forceTransform(row[forceIndex]))
        point.force =
          forceIsRaw ? Swift.max(force.isFinite ? force : 0, 0) : Swift.min(Swift.max(force, 0), 1)
      }
      if tiltX != nil || tiltY != nil {
        let tilt = BDALabSignalJSONImporter.azimuthAndAltitude(
          tiltX: Float((tiltX.map { row[$0] * radians($0) }) ?? 0),
          tiltY: Float((tiltY.map { row[$0] * radians($0) }) ?? 0))
        point.azimuth = tilt.azimuth
        point.altitude = tilt.altitude
      }
      if let azimuthIndex {
        var azimuth = Float(row[azimuthIndex] * radians(azimuthIndex)).truncatingRemainder(
          dividingBy: 2 * .pi)
        if azimuth < 0 { azimuth += 2 * .pi }
        point.azimuth = azimuth.isFinite && azimuth < 2 * .pi ? azimuth : 0
      }
      if let elevationIndex {
        let altitude = Float(row[elevationIndex] * radians(elevationIndex))
        point.altitude = altitude.isFinite ? Swift.min(Swift.max(altitude, 0), .pi / 2) : .pi / 2
      }
      if let rotationIndex {
        let roll = Float(row[rotationIndex] * radians(rotationIndex))
        point.rollAngle = roll.isFinite ? roll : 0
      }
      if let widthIndex {
        let width = Float(row[widthIndex] * unitScale)
        if width.isFinite, width >= 0 { point.size = Size(width: width, height: width) }
      }
      points.append(point)
    }
    if forceIsRaw { rawForceStrokes.append(strokes.count) }
    strokes.append(Stroke(ink: ink, path: StrokePath(controlPoints: points)))
  }
}
