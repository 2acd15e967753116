import InkwellModel

/// Reads BDALab's browser captures (`examples/html_data/signal.json`): one JSON object of parallel
/// arrays recorded from PointerEvents, `x`, `y` (CSS px, y down), `time` (ms), `pressure` (0...1),
/// `buttons`, and optionally `tiltX`, `tiltY` (degrees) and `twist` (degrees).
///
/// A stroke is a run of samples whose `buttons` has bit 0 set (pen touching); the others are the pen
/// hovering and only separate strokes. Positions stay in CSS px. Tilt becomes azimuth and altitude as
/// the Pointer Events specification converts them; twist becomes the roll angle.
public enum BDALabSignalJSONImporter {
  /// A 3 px pen.
  public static let defaultInk = ImportedDocument.pen(width: 3)

  /// - Throws: `DocumentError` with the JSON path and location of a missing or malformed array.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    let root: JSONValue
    do {
      root = try JSONReader.parse(bytes)
    } catch {
      throw DocumentError(.invalidJSON(error.reason), location: error.location)
    }
    return try load(bytes, root: root, ink: ink)
  }

  /// `load(_:ink:)` of `bytes` already parsed into `root`.
  static func load(_ bytes: [UInt8], root: JSONValue, ink: Ink = defaultInk) throws(DocumentError) -> Document
  {
    guard case .object(let members) = root.content else {
      throw DocumentError(
        .wrongType(expected: "an object", found: root.typeDescription), path: "",
        location: SourceLocation(offset: root.offset, in: bytes))
    }
    func column(_ key: String, required: Bool) throws(DocumentError) -> [JSONNumber]? {
      guard let member = members.last(where: { $0.key == key }) else {
        if !required { return nil }
        throw DocumentError(
          .missingKey(key), path: "", location: SourceLocation(offset: root.offset, in: bytes))
      }
      guard case .array(let elements) = member.value.content else {
        throw DocumentError(
          .wrongType(expected: "an array", found: member.value.typeDescription), path: key,
          location: SourceLocation(offset: member.value.offset, in: bytes))
      }
      var values: [JSONNumber] = []
      values.reserveCapacity(elements.count)
      for (i, element) in elements.enumerated() {
        guard case .number(let number) = element.content else {
          throw DocumentError(
            .wrongType(expected: "a number", found: element.typeDescription), path: "\(key)[\(i)]",
            location: SourceLocation(offset: element.offset, in: bytes))
        }
        guard number.floatValue.isFinite else {
          throw DocumentError(
            .numberOutOfRange(number.text), path: "\(key)[\(i)]",
            location: SourceLocation(offset: element.offset, in: bytes))
        }
        values.append(number)
      }
      return values
    }
    let x = try column("x", required: true)?.map(\.floatValue) ?? []
    let y = try column("y", required: true)?.map(\.floatValue) ?? []
    let time = try column("time", required: true)?.map(\.doubleValue) ?? []
    let pressure = try column("pressure", required: true)?.map(\.floatValue) ?? []
    let buttons = try column("buttons", required: true)?.map(\.doubleValue) ?? []
    let tiltX = try column("tiltX", required: false)?.map(\.floatValue)
    let tiltY = try column("tiltY", required: false)?.map(\.floatValue)
    let twist = try column("twist", required: false)?.map(\.floatValue)
    let lengths: [(String, Int?)] = [
      ("y", y.count), ("time", time.count), ("pressure", pressure.count), ("buttons", buttons.count),
      ("tiltX", tiltX?.count), ("tiltY", tiltY?.count), ("twist", twist?.count),
    ]
    for case (let name, let count?) in lengths where count != x.count {
      throw DocumentError(
        .mismatchedLengths("\"x\" has \(x.count) elements, \"\(name)\" has \(count)"), path: name,
        location: SourceLocation(offset: members.last { $0.key == name }?.value.offset ?? 0, in: bytes))
    }

    let degrees = Float.pi / 180
    var runs: [[StrokePoint]] = []
    var current: [StrokePoint] = []
    var strokeStart = 0.0
    for i in x.indices {
      let isDown = Int(exactly: buttons[i]).map { $0 & 1 == 1 } ?? false
      guard isDown else {
        if !current.isEmpty { runs.append(current) }
        current = []
        continue
      }
      if current.isEmpty { strokeStart = time[i] }
      let tilt = Self.azimuthAndAltitude(
        tiltX: (tiltX?[i] ?? 0) * degrees, tiltY: (tiltY?[i] ?? 0) * degrees)
      current.append(
        StrokePoint(
          location: Point(x: x[i], y: y[i]), timeOffset: Float((time[i] - strokeStart) / 1000),
          size: Size(width: ink.width, height: ink.width),
          force: Swift.min(Swift.max(pressure[i], 0), 1), azimuth: tilt.azimuth,
          altitude: tilt.altitude, rollAngle: (twist?[i] ?? 0) * degrees))
    }
    if !current.isEmpty { runs.append(current) }
    return ImportedDocument.make(strokes: runs, ink: ink)
  }

  /// Pointer Events tilt (radians, tiltX towards +x, tiltY towards +y) to azimuth (clockwise from
  /// +x, 0...2pi) and altitude (0...pi/2).
  static func azimuthAndAltitude(tiltX: Float, tiltY: Float) -> (azimuth: Float, altitude: Float) {
    guard tiltX != 0 || tiltY != 0 else { return (0, .pi / 2) }
    let tx = FloatMath.sin(tiltX) / FloatMath.cos(tiltX)
    let ty = FloatMath.sin(tiltY) / FloatMath.cos(tiltY)
    var azimuth = FloatMath.atan2(ty, tx)
    if azimuth < 0 { azimuth += 2 * .pi }
    let altitude = FloatMath.atan2(1, (tx * tx + ty * ty).squareRoot())
    return (azimuth, Swift.min(Swift.max(altitude, 0), .pi / 2))
  }
}
