import InkwellModel

/// Reads libmypaint's recorded event files (`tests/events/painting30sec.dat`): one event a line,
/// `time_s x y pressure`, in canvas pixels with y down.
///
/// A stroke is a run of events with pressure > 0; pressure becomes `force`, and time offsets count
/// from each stroke's first event. Events with pressure 0 are the pen hovering or lifted: they end
/// the current stroke and are not drawn.
public enum LibMyPaintEventsImporter {
  /// A 3 px pen.
  public static let defaultInk = ImportedDocument.pen(width: 3)

  /// The columns of an event line.
  static let columns = "time x y pressure"

  /// - Throws: `DocumentError` with the line and column of a malformed event.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    let table = TextTable(bytes)
    var runs: [[StrokePoint]] = []
    var current: [StrokePoint] = []
    var strokeStart = 0.0
    for row in table.rows {
      try table.expectColumns(row, 4, columns)
      let time = try table.double(row, 0)
      let x = try table.float(row, 1)
      let y = try table.float(row, 2)
      let pressure = try table.float(row, 3)
      guard pressure >= 0, pressure <= 1 else {
        throw table.failure(.valueOutOfRange(value: row.fields[3].text, allowed: "0...1"), row, 3)
      }
      guard pressure > 0 else {
        if !current.isEmpty { runs.append(current) }
        current = []
        continue
      }
      if current.isEmpty { strokeStart = time }
      current.append(
        StrokePoint(
          location: Point(x: x, y: y), timeOffset: Float(time - strokeStart),
          size: Size(width: ink.width, height: ink.width), force: pressure))
    }
    if !current.isEmpty { runs.append(current) }
    return ImportedDocument.make(strokes: runs, ink: ink)
  }
}
