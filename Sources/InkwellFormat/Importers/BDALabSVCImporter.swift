import InkwellModel

/// Reads BDALab's SVC tables (the Wacom/WinTab layout): a first line with the sample count, then
/// one sample a line, `x y time pen_status azimuth altitude pressure`.
///
/// A stroke is a run of samples with pen_status 1 (on the surface); samples with 0 are the pen in
/// the air, which separate strokes and are not drawn. The header count is not trusted (BDALab's own
/// example says 606 and holds 607 samples): every sample line is read.
///
/// Two unit systems occur, told apart by pressure (see `Units`). Either way the tablet's y axis
/// points up, so y is flipped about the file's largest y, and positions end in points (1/72 in).
/// Azimuth and altitude are in tenths of a degree; WinTab measures azimuth clockwise from the
/// tablet's up direction, which becomes Inkwell's clockwise-from-+x by subtracting 90°.
public enum BDALabSVCImporter {
  /// The units of a file's x, y, time and pressure columns.
  public enum Units: Hashable, Sendable {
    /// Decide from the data: `.raw` when any pressure exceeds 1, else `.converted`.
    case automatic
    /// WinTab device units: x and y in counts of 1/5080 in, time in ms, pressure 0...32767.
    case raw
    /// BDALab's converted units: x and y in mm, time in s, pressure 0...1.
    case converted
  }

  /// A 2 pt pen: a fine felt tip.
  public static let defaultInk = ImportedDocument.pen(width: 2)

  /// Tablet resolution of raw files, counts per inch (BDALab's default for its Wacom tablets).
  public static let rawCountsPerInch: Float = 5080
  /// Full-scale raw pressure.
  public static let rawMaximumPressure: Float = 32767

  static let columns = "x y time pen_status azimuth altitude pressure"

  private struct Sample {
    var x, y: Float
    var time: Double
    var onSurface: Bool
    var azimuth, altitude, pressure: Float
  }

  /// - Throws: `DocumentError` with the line and column of a malformed header or sample.
  public static func load(
    _ bytes: [UInt8], units: Units = .automatic, ink: Ink = defaultInk
  ) throws(DocumentError) -> Document {
    let table = TextTable(bytes)
    guard let header = table.rows.first else { return ImportedDocument.make(strokes: [], ink: ink) }
    try table.expectColumns(header, 1, "sample count")
    guard isDecimalNumber(header.fields[0].text), Int(header.fields[0].text) != nil else {
      throw table.failure(.notAnInteger(header.fields[0].text, range: "0...\(Int.max)"), header, 0)
    }
    var samples: [Sample] = []
    samples.reserveCapacity(table.rows.count)
    for row in table.rows.dropFirst() {
      try table.expectColumns(row, 7, columns)
      let status = try table.double(row, 3)
      guard status == 0 || status == 1 else {
        throw table.failure(.valueOutOfRange(value: row.fields[3].text, allowed: "0 or 1"), row, 3)
      }
      let pressure = try table.float(row, 6)
      guard pressure >= 0 else {
        throw table.failure(.valueOutOfRange(value: row.fields[6].text, allowed: ">= 0"), row, 6)
      }
      samples.append(
        Sample(
          x: try table.float(row, 0), y: try table.float(row, 1), time: try table.double(row, 2),
          onSurface: status == 1, azimuth: try table.float(row, 4), altitude: try table.float(row, 5),
          pressure: pressure))
    }
    let isRaw: Bool
    switch units {
    case .raw: isRaw = true
    case .converted: isRaw = false
    case .automatic: isRaw = samples.contains { $0.pressure > 1 }
    }
    let pointsPerUnit: Float = isRaw ? 72 / rawCountsPerInch : 72 / 25.4
    let secondsPerUnit = isRaw ? 0.001 : 1
    let pressureScale: Float = isRaw ? 1 / rawMaximumPressure : 1
    let flipY = samples.map(\.y).max() ?? 0
    let radiansPerTenth = Float.pi / 1800

    var runs: [[StrokePoint]] = []
    var current: [StrokePoint] = []
    var strokeStart = 0.0
    for sample in samples {
      guard sample.onSurface else {
        if !current.isEmpty { runs.append(current) }
        current = []
        continue
      }
      if current.isEmpty { strokeStart = sample.time }
      var azimuth = (sample.azimuth - 900) * radiansPerTenth
      if azimuth < 0 { azimuth += 2 * .pi }
      current.append(
        StrokePoint(
          location: Point(x: sample.x * pointsPerUnit, y: (flipY - sample.y) * pointsPerUnit),
          timeOffset: Float((sample.time - strokeStart) * secondsPerUnit),
          size: Size(width: ink.width, height: ink.width),
          force: Swift.min(sample.pressure * pressureScale, 1),
          azimuth: azimuth,
          altitude: Swift.min(Swift.max(sample.altitude * radiansPerTenth, 0), .pi / 2)))
    }
    if !current.isEmpty { runs.append(current) }
    return ImportedDocument.make(strokes: runs, ink: ink)
  }
}
