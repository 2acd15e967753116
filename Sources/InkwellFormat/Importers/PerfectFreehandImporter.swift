import InkwellModel

/// Reads perfect-freehand point lists, in screen px with y down: a JSON array of points (one
/// stroke), or an object whose members are point lists (one stroke each, in member order; empty
/// lists are skipped). A point is `[x, y]`, `[x, y, pressure]`, `[x, y, pressure, time_ms]` or
/// `{x, y, pressure?}`.
///
/// Pressure 0.5 is what a mouse reports (perfect-freehand then simulates pressure from speed), so a
/// list whose pressures are all 0.5 has force 1; otherwise pressure becomes `force`. Time offsets
/// count from each list's first point.
public enum PerfectFreehandImporter {
  /// A 4 px pen, about what perfect-freehand's examples draw with at their default size.
  public static let defaultInk = ImportedDocument.pen(width: 4)

  /// The pressure a mouse reports.
  static let mousePressure: Float = 0.5

  /// - Throws: `DocumentError` with the JSON path and location of a malformed point.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    try load(ImportedJSON(bytes), ink: ink)
  }

  /// `load(_:ink:)` of a document already parsed.
  static func load(_ json: ImportedJSON, ink: Ink = defaultInk) throws(DocumentError) -> Document {
    var runs: [[StrokePoint]] = []
    switch json.root.content {
    case .array(let elements):
      runs.append(try points(elements, path: "", json: json, ink: ink))
    case .object(let members):
      for member in members {
        let list = try json.array(member.value, member.key)
        if list.isEmpty { continue }
        runs.append(try points(list, path: member.key, json: json, ink: ink))
      }
    default:
      throw json.wrongType("an array or an object", json.root, "")
    }
    return ImportedDocument.make(strokes: runs.filter { !$0.isEmpty }, ink: ink)
  }

  private static func points(
    _ elements: [JSONValue], path: String, json: ImportedJSON, ink: Ink
  ) throws(DocumentError) -> [StrokePoint] {
    var points: [StrokePoint] = []
    points.reserveCapacity(elements.count)
    var startTime: Double?
    var allMousePressure = true
    for (i, element) in elements.enumerated() {
      func pointPath() -> String { "\(path)[\(i)]" }
      var x: Float
      var y: Float
      var pressure: Float?
      var time: Double?
      switch element.content {
      case .array(let values):
        guard (2...4).contains(values.count) else {
          throw json.failure(
            .wrongArrayLength(
              expected: values.count < 2 ? 2 : 4, found: values.count, elements: "x, y, p, t"),
            element, pointPath())
        }
        x = try json.float(values[0], pointPath() + "[0]")
        y = try json.float(values[1], pointPath() + "[1]")
        if values.count > 2 { pressure = try json.float(values[2], pointPath() + "[2]") }
        if values.count > 3 { time = try json.double(values[3], pointPath() + "[3]") }
      case .object(let fields):
        x = try json.float(try json.required(fields, "x", in: element, pointPath()), pointPath() + ".x")
        y = try json.float(try json.required(fields, "y", in: element, pointPath()), pointPath() + ".y")
        if let p = json.member(fields, "pressure") { pressure = try json.float(p, pointPath() + ".pressure") }
      default:
        throw json.wrongType("an array or an object", element, pointPath())
      }
      if let pressure, pressure != mousePressure { allMousePressure = false }
      var timeOffset: Float = 0
      if let time {
        if let startTime {
          timeOffset = Swift.max(0, Float((time - startTime) / 1000))
        } else {
          startTime = time
        }
      }
      points.append(
        StrokePoint(
          location: Point(x: x, y: y), timeOffset: timeOffset,
          size: Size(width: ink.width, height: ink.width),
          force: pressure.map { Swift.min(Swift.max($0, 0), 1) } ?? 1))
    }
    if allMousePressure {
      for i in points.indices { points[i].force = 1 }
    }
    return points
  }
}
