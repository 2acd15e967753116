// Importers: recorded pen input from other tools, turned into Inkwell documents.
//
// Each importer reads one permissively licensed recording format (libmypaint's event dumps,
// BDALab's SVC tables and browser captures) and makes strokes from the runs of pen-down samples.
// Hover and pen-up samples separate strokes and are otherwise not part of the drawing; that is the
// only data an importer leaves out, and it is documented per format in docs/format.md. A row that
// cannot be read is an error naming its line and column, never skipped.
//
// Units are converted to document units (points, 1/72 in, for physical tablet units; pixels as
// recorded for screen captures), y is flipped where the source is y-up, and time offsets restart at 0
// for each stroke. Every stroke gets the importer's ink, and the document's canvas is the drawing's
// bounds grown by a margin and rounded outwards to whole units.

import InkwellModel

/// What the importers share: the ink they draw with and how they size the canvas.
public enum ImportedDocument {
  /// The ink color of imported strokes: a dark blue-black, `#1a1a2e`.
  public static let inkColor = Color(red: 26 / 255, green: 26 / 255, blue: 46 / 255)

  /// The canvas margin around the drawing, in document units.
  public static let margin: Float = 20

  /// A pen of `width` document units in `inkColor`.
  public static func pen(width: Float) -> Ink {
    Ink(type: .pen, color: inkColor, width: width)
  }

  /// A document of one stroke per point run, with its canvas around the drawing.
  static func make(strokes runs: [[StrokePoint]], ink: Ink) -> Document {
    let strokes = runs.map { Stroke(ink: ink, path: StrokePath(controlPoints: $0)) }
    let drawing = Drawing(strokes: strokes)
    guard !strokes.isEmpty else { return Document(drawing: drawing) }
    let b = drawing.bounds
    let minX = (b.minX - margin).rounded(.down)
    let minY = (b.minY - margin).rounded(.down)
    let maxX = (b.maxX + margin).rounded(.up)
    let maxY = (b.maxY + margin).rounded(.up)
    return Document(
      bounds: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), drawing: drawing)
  }
}
