import InkwellModel

/// Reads Rnote notes (`.rnote`): gzip-compressed JSON `{version, data}`, in document px (96 dpi)
/// with y down.
///
/// Rnote 0.6 and later keep strokes in `data.engine_snapshot.stroke_components`, 0.5 in
/// `data.store_snapshot.stroke_components`; each component's `value` is `null` (a deleted slot) or
/// one stroke kind. Only brush strokes are read; shapes, text and images are skipped. A brush
/// stroke's path is a start element and segments (`lineto`, `quadbez`, `cubbez`, each ending in an
/// element) in 0.6+, or a list of `dot`, `line`, `quadbez` and `cubbez` segments that repeat their
/// start element in 0.5. An element is `{pos: [x, y], pressure}`: the points are the first element
/// and each segment's end, and Bézier control points are dropped (the stroke's own B-spline runs
/// through the sampled elements, which Rnote records densely). Pressure becomes `force`; the style's
/// `stroke_width` and `stroke_color` become a pen ink. There is no time and no tilt.
public enum RnoteImporter {
  /// - Parameter sizeLimit: the largest decompressed size accepted, in bytes.
  /// - Throws: `DocumentError`; JSON locations are in the decompressed text.
  public static func load(_ bytes: [UInt8], sizeLimit: Int = Gzip.defaultSizeLimit) throws(DocumentError)
    -> Document
  {
    try load(bytes, sizeLimit: sizeLimit, readsSegmentsAside: true)
  }

  /// `load(_:sizeLimit:)`, with the paths' segments read aside (`JSONReader.parseRnote`) or, with
  /// `readsSegmentsAside` off, from the tree: the same document or the same error either way.
  static func load(_ bytes: [UInt8], sizeLimit: Int = Gzip.defaultSizeLimit, readsSegmentsAside: Bool)
    throws(DocumentError) -> Document
  {
    let text: [UInt8]
    do {
      text = try Gzip.decompress(bytes, sizeLimit: sizeLimit)
    } catch {
      throw DocumentError(.importFailure(error))
    }
    let json = readsSegmentsAside ? try ImportedJSON(rnote: text) : try ImportedJSON(text)
    let root = try json.object(json.root, "")
    let data = try json.required(root, "data", in: json.root, "")
    let dataMembers = try json.object(data, "data")
    let snapshotKey =
      json.member(dataMembers, "engine_snapshot") != nil ? "engine_snapshot" : "store_snapshot"
    let snapshot = try json.required(dataMembers, snapshotKey, in: data, "data")
    let snapshotPath = "data." + snapshotKey
    let snapshotMembers = try json.object(snapshot, snapshotPath)
    let componentsPath = snapshotPath + ".stroke_components"
    let components = try json.array(
      try json.required(snapshotMembers, "stroke_components", in: snapshot, snapshotPath), componentsPath)
    var strokes: [Stroke] = []
    for (i, component) in components.enumerated() {
      func componentPath() -> String { "\(componentsPath)[\(i)]" }
      let componentMembers = try json.object(component, componentPath())
      guard let value = json.member(componentMembers, "value"), value.content != .null else { continue }
      let kinds = try json.object(value, componentPath() + ".value")
      guard let brushstroke = json.member(kinds, "brushstroke") else { continue }
      strokes.append(try stroke(brushstroke, path: componentPath() + ".value.brushstroke", json: json))
    }
    return ImportedDocument.make(strokes: strokes.filter { !$0.path.isEmpty })
  }

  private static func stroke(
    _ value: JSONValue, path: @autoclosure () -> String, json: ImportedJSON
  ) throws(DocumentError) -> Stroke {
    let members = try json.object(value, path())
    var ink = Ink(type: .pen, color: .black)
    if let style = json.member(members, "style") {
      // One key names the style (`smooth`, `rough`, `textured`); its object holds the settings.
      for variant in try json.object(style, path() + ".style") {
        func variantPath() -> String { path() + ".style." + variant.key }
        guard case .object(let settings) = variant.value.content else { continue }
        if let width = json.member(settings, "stroke_width") {
          ink.width = try json.float(
            width, variantPath() + ".stroke_width", in: 0...Float.greatestFiniteMagnitude)
        }
        if let color = json.member(settings, "stroke_color") ?? json.member(settings, "color") {
          ink.color = try self.color(color, path: variantPath() + ".stroke_color", json: json)
        }
      }
    }
    let pathValue = try json.required(members, "path", in: value, path())
    func pathPath() -> String { path() + ".path" }
    var points: [StrokePoint] = []
    func append(_ element: JSONValue, _ elementPath: () -> String) throws(DocumentError) {
      let fields = try json.object(element, elementPath())
      let pos = try json.required(fields, "pos", in: element, elementPath())
      let xy = try json.array(pos, elementPath() + ".pos")
      guard xy.count == 2 else {
        throw json.failure(
          .wrongArrayLength(expected: 2, found: xy.count, elements: "x, y"), pos, elementPath() + ".pos")
      }
      var force: Float = 1
      if let pressure = json.member(fields, "pressure") {
        force = Swift.min(Swift.max(try json.float(pressure, elementPath() + ".pressure"), 0), 1)
      }
      points.append(
        StrokePoint(
          location: Point(
            x: try json.float(xy[0], elementPath() + ".pos[0]"),
            y: try json.float(xy[1], elementPath() + ".pos[1]")),
          size: Size(width: ink.width, height: ink.width), force: force))
    }
    /// Appends an element read aside: x, y and pressure from `values` at `at`.
    func append(_ values: [Float], at: Int) {
      points.append(
        StrokePoint(
          location: Point(x: values[at], y: values[at + 1]), size: Size(width: ink.width, height: ink.width),
          force: Swift.min(Swift.max(values[at + 2], 0), 1)))
    }
    typealias Segments = JSONReader.RnoteSegments
    switch pathValue.content {
    case .object(let pathMembers):
      // 0.6 and later: {start, segments: [{lineto|quadbez|cubbez: {…, end}}]}.
      try append(try json.required(pathMembers, "start", in: pathValue, pathPath())) { pathPath() + ".start" }
      if var segments = json.member(pathMembers, "segments") {
        if let aside = json.rnoteSegments[segments.offset] {
          // Every segment's end; without one the tree says what is missing where.
          if aside.kinds.allSatisfy({ $0 & Segments.end != 0 }) {
            var at = 0
            for kinds in aside.kinds {
              if kinds & Segments.start != 0 { at += 3 }
              append(aside.values, at: at)
              at += 3
              if kinds & Segments.element != 0 { at += 3 }
            }
            break  // out of the switch: the path is read
          }
          segments = try json.reread(segments)
        }
        for (i, segment) in try json.array(segments, pathPath() + ".segments").enumerated() {
          func segmentPath() -> String { "\(pathPath()).segments[\(i)]" }
          for kind in try json.object(segment, segmentPath()) {
            func kindPath() -> String { segmentPath() + "." + kind.key }
            let kindMembers = try json.object(kind.value, kindPath())
            let end = try json.required(kindMembers, "end", in: kind.value, kindPath())
            try append(end) { kindPath() + ".end" }
          }
        }
      }
    case .array(var segments):
      // 0.5: [{dot: {element}} | {line|quadbez|cubbez: {start, …, end}}].
      if let aside = json.rnoteSegments[pathValue.offset] {
        // A segment is its element, or its end after its start; without them the tree says
        // what is missing where.
        let complete = Segments.start | Segments.end
        if aside.kinds.allSatisfy({ $0 & Segments.element != 0 || $0 & complete == complete }) {
          var at = 0
          for kinds in aside.kinds {
            let start = at
            let end = kinds & Segments.start != 0 ? at + 3 : at
            let element = kinds & Segments.end != 0 ? end + 3 : end
            at = kinds & Segments.element != 0 ? element + 3 : element
            if kinds & Segments.element != 0 {
              if points.isEmpty { append(aside.values, at: element) }
              continue
            }
            if points.isEmpty { append(aside.values, at: start) }
            append(aside.values, at: end)
          }
          break  // out of the switch: the path is read
        }
        guard case .array(let tree) = try json.reread(pathValue).content else { break }
        segments = tree
      }
      for (i, segment) in segments.enumerated() {
        func segmentPath() -> String { "\(pathPath())[\(i)]" }
        for kind in try json.object(segment, segmentPath()) {
          func kindPath() -> String { segmentPath() + "." + kind.key }
          let kindMembers = try json.object(kind.value, kindPath())
          if let element = json.member(kindMembers, "element") {
            if points.isEmpty { try append(element) { kindPath() + ".element" } }
            continue
          }
          if points.isEmpty {
            try append(try json.required(kindMembers, "start", in: kind.value, kindPath())) {
              kindPath() + ".start"
            }
          }
          try append(try json.required(kindMembers, "end", in: kind.value, kindPath())) {
            kindPath() + ".end"
          }
        }
      }
    default:
      throw json.wrongType("an object or an array", pathValue, pathPath())
    }
    for i in points.indices { points[i].size = Size(width: ink.width, height: ink.width) }
    return Stroke(ink: ink, path: StrokePath(controlPoints: points))
  }

  /// `{r, g, b, a}`, each in 0…1.
  private static func color(
    _ value: JSONValue, path: @autoclosure () -> String, json: ImportedJSON
  ) throws(DocumentError) -> Color {
    let members = try json.object(value, path())
    var components: [Float] = []
    for key in ["r", "g", "b", "a"] {
      components.append(
        try json.float(try json.required(members, key, in: value, path()), path() + "." + key, in: 0...1))
    }
    return Color(red: components[0], green: components[1], blue: components[2], alpha: components[3])
  }
}
