import Foundation
import InkwellFormat
import InkwellModel
import Testing

/// Every importer against the recordings in ../shared/corpus: detection, and the stroke and point
/// counts SOURCES.md states (or, where it leaves a count open, the reading docs/importers.md chose).
@Suite(.enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"))
struct ImporterCorpusTests {
  struct Recording: CustomTestStringConvertible, Sendable {
    var path: String
    var format: DocumentFormat
    var strokes: Int
    var points: Int
    var testDescription: String { path }
  }

  static let recordings = [
    Recording(path: "xournalpp/README-Eraser-and-padded-box.xopp", format: .xournal, strokes: 6, points: 945),
    Recording(path: "xournalpp/Setsquare_annotations.xopp", format: .xournal, strokes: 52, points: 248),
    // 7 pen, 1 eraser (a white stroke painted over), 4 highlighter.
    Recording(path: "xournalpp/strokes.xopp", format: .xournal, strokes: 12, points: 1_698),
    Recording(path: "xournalpp/suite.xopp", format: .xournal, strokes: 7, points: 1_219),
    Recording(path: "xournalpp/preview-test2.xoj", format: .xournal, strokes: 1, points: 190),
    Recording(path: "rnote/lecture_note_1.rnote", format: .rnote, strokes: 490, points: 42_671),
    Recording(path: "rnote/lecture_note_2.rnote", format: .rnote, strokes: 601, points: 63_925),
    Recording(path: "rnote/overview.rnote", format: .rnote, strokes: 409, points: 21_023),
    // 0.5.5 repeats each segment's start element: 1,105 dots + 3,049 lines + 18,384 curves.
    Recording(path: "rnote/v0-5-5-test.rnote", format: .rnote, strokes: 1_105, points: 22_538),
    Recording(path: "google-ink/spring_shape.binarypb", format: .googleInk, strokes: 1, points: 167),
    Recording(path: "google-ink/straight_line.binarypb", format: .googleInk, strokes: 1, points: 32),
    // onePoint 1, twoPoints 2, twoEqualPoints 2, numberPairs 5, objectPairs 5, withDuplicates 18,
    // manyPoints 97, hey 302, he2 294, waves 272, corners 368, scribble 675.
    Recording(path: "perfect-freehand/inputs.json", format: .perfectFreehand, strokes: 12, points: 2_041),
    Recording(path: "perfect-freehand/corners.json", format: .perfectFreehand, strokes: 1, points: 368),
    Recording(path: "perfect-freehand/sample.json", format: .perfectFreehand, strokes: 1, points: 360),
    Recording(path: "perfect-freehand/flash.json", format: .perfectFreehand, strokes: 1, points: 135),
  ]

  /// SOURCES.md's MyScript table: file, strokes, points.
  static let myscriptTable: [(String, Int, Int)] = [
    ("datas/count-to-50-pointers.json", 102, 970),
    ("datas/demo.json", 145, 2333),
    ("datas/diagram-pointers-1.json", 46, 910),
    ("datas/diagram-pointers-2.json", 40, 1053),
    ("datas/diagram-with-shape.json", 1, 127),
    ("datas/hello-multiple-lines.json", 6, 382),
    ("datas/hello-my-friend.json", 10, 422),
    ("datas/shakespeare-quotes.json", 352, 3309),
    ("dataset/1.json", 1, 20),
    ("dataset/1943.json", 5, 101),
    ("dataset/1993.json", 6, 114),
    ("dataset/abrausorus.json", 1, 238),
    ("dataset/buenosAires.json", 13, 167),
    ("dataset/centralProcessingUnit.json", 27, 276),
    ("dataset/covfefe.json", 9, 121),
    ("dataset/equation.json", 9, 162),
    ("dataset/fence.json", 5, 163),
    ("dataset/h.json", 1, 38),
    ("dataset/helloInsert.json", 2, 144),
    ("dataset/helloMultipleStrokes.json", 5, 116),
    ("dataset/helloOneStroke.json", 1, 71),
    ("dataset/helloOneStrokeSurrounded.json", 2, 201),
    ("dataset/helloStrike.json", 2, 92),
    ("dataset/ja_JP-1Column.json", 32, 303),
    ("dataset/ja_JP-2Columns.json", 20, 226),
    ("dataset/line.json", 1, 11),
    ("dataset/madrid.json", 10, 83),
    ("dataset/math_context_menu._1frac0.json", 5, 56),
    ("dataset/math_context_menu._2x+5=.json", 9, 77),
    ("dataset/math_context_menu._fx=x2.json", 11, 94),
    ("dataset/math_context_menu._sqrt_5.json", 5, 68),
    ("dataset/math_dependencies.json", 13, 134),
    ("dataset/math_dependencies_overriding_source.json", 12, 132),
    ("dataset/math_variables_a+b=.json", 8, 100),
    ("dataset/math_variables_chained_var.json", 17, 231),
    ("dataset/numbers/0.json", 1, 131),
    ("dataset/numbers/1.json", 1, 49),
    ("dataset/numbers/10.json", 2, 145),
    ("dataset/numbers/11.json", 2, 93),
    ("dataset/numbers/12.json", 2, 151),
    ("dataset/numbers/13.json", 2, 155),
    ("dataset/numbers/14.json", 3, 152),
    ("dataset/numbers/15.json", 3, 156),
    ("dataset/numbers/16.json", 2, 170),
    ("dataset/numbers/17.json", 2, 131),
    ("dataset/numbers/18.json", 2, 165),
    ("dataset/numbers/19.json", 2, 160),
    ("dataset/numbers/2.json", 1, 97),
    ("dataset/numbers/20.json", 2, 218),
    ("dataset/numbers/3.json", 1, 116),
    ("dataset/numbers/4.json", 2, 112),
    ("dataset/numbers/5.json", 2, 112),
    ("dataset/numbers/6.json", 1, 116),
    ("dataset/numbers/7.json", 1, 92),
    ("dataset/numbers/8.json", 1, 150),
    ("dataset/numbers/9.json", 1, 135),
    ("dataset/paris.json", 2, 81),
    ("dataset/playbackDemo.json", 2, 5),
    ("dataset/ponyErase.json", 2, 102),
    ("dataset/rectangle.json", 2, 79),
    ("dataset/rectangleShape.json", 2, 79),
    ("dataset/rome.json", 1, 71),
    ("dataset/sum.json", 6, 50),
    ("dataset/threeScratchOut.json", 2, 90),
    ("dataset/tokyo.json", 6, 90),
  ]

  static var myscriptRecordings: [Recording] {
    myscriptTable.map {
      Recording(path: "myscript-iinkts/" + $0.0, format: .myscript, strokes: $0.1, points: $0.2)
    }
  }

  static func check(_ recording: Recording) throws -> Document {
    let bytes = try FormatFixtures.corpusBytes(recording.path)
    #expect(DocumentFormat.detect(path: recording.path, bytes: bytes) == recording.format)
    #expect(
      DocumentFormat.detect(path: "", bytes: bytes) == recording.format || recording.format == .googleInk)
    let document = try recording.format.load(bytes)
    let strokes = document.drawing.strokes
    #expect(strokes.count == recording.strokes)
    #expect(strokes.map(\.path.count).reduce(0, +) == recording.points)
    for stroke in strokes {
      #expect(stroke.ink.width.isFinite && stroke.ink.width > 0)
      #expect(stroke.path.controlPoints.first?.timeOffset == 0)
      for point in stroke.path.controlPoints {
        #expect(point.location.x.isFinite && point.location.y.isFinite)
        #expect(point.force >= 0 && point.force <= 1)
        #expect(point.altitude >= 0 && point.altitude <= .pi / 2)
        #expect(point.azimuth >= 0 && point.azimuth < 2 * .pi)
        #expect(point.timeOffset >= 0)
      }
    }
    #expect(document.bounds != nil)
    #expect(try NativeFormat.decode(try NativeFormat.encode(document)) == document)
    return document
  }

  @Test(arguments: recordings)
  func importsTheStatedCounts(_ recording: Recording) throws {
    _ = try Self.check(recording)
  }

  @Test(arguments: myscriptRecordings)
  func importsMyScriptCounts(_ recording: Recording) throws {
    _ = try Self.check(recording)
  }

  @Test func myscriptTotalsMatchSources() throws {
    let folder = FormatFixtures.corpus.appendingPathComponent("myscript-iinkts")
    let files =
      FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".json") }.sorted() ?? []
    #expect(files == Self.myscriptTable.map(\.0).sorted())
    var strokes = 0
    var points = 0
    for file in files {
      let document = try MyScriptImporter.load(try FormatFixtures.corpusBytes("myscript-iinkts/" + file))
      strokes += document.drawing.strokes.count
      points += document.drawing.strokes.map(\.path.count).reduce(0, +)
    }
    #expect(files.count == 65)
    #expect(strokes == 995)
    #expect(points == 16_498)
  }

  @Test func xournalMapsToolsWidthsAndPages() throws {
    let document = try XournalImporter.load(try FormatFixtures.corpusBytes("xournalpp/strokes.xopp"))
    let strokes = document.drawing.strokes
    #expect(strokes.filter { $0.ink.type == .marker }.count == 4)
    #expect(strokes.filter { $0.ink.type == .pen }.count == 8)
    // The whiteout eraser: a white pen stroke of 393 points, 8.5 pt wide.
    let eraser = try #require(strokes.first { $0.path.count == 393 })
    #expect(eraser.ink.color == .white)
    #expect(eraser.ink.width == 8.5)
    // Highlighters keep their translucent colors.
    #expect(
      strokes.filter { $0.ink.type == .marker }.allSatisfy { abs($0.ink.color.alpha - 127 / 255) < 1e-6 })
    // The 69-point pressure stroke: W = 2.26, segment widths 0.419… up to 1.057; forces are w / W.
    let pressure = try #require(strokes.first { $0.path.count == 69 })
    #expect(pressure.ink.width == 2.26)
    let forces = pressure.path.controlPoints.map(\.force)
    #expect(abs(forces[0] - 0.41932136 / 2.26) < 1e-6)
    #expect(forces[67] == forces[68])
    #expect(document.bounds == Rect(x: 0, y: 0, width: 595.27559, height: 841.88976))

    let pages = try XournalImporter.load(
      try FormatFixtures.corpusBytes("xournalpp/Setsquare_annotations.xopp"))
    let pageHeight: Float = 841.889_764
    #expect(
      pages.bounds
        == Rect(x: 0, y: 0, width: 595.275_591, height: 4 * pageHeight + 3 * XournalImporter.pageGap))
    // README: widths above W (Xournal++'s pressure multiplier) set the reference width instead.
    let readme = try XournalImporter.load(
      try FormatFixtures.corpusBytes("xournalpp/README-Eraser-and-padded-box.xopp"))
    let wide = try #require(readme.drawing.strokes.first { $0.path.count == 593 })
    #expect(wide.ink.width > 0.85)
    #expect(wide.path.controlPoints.map(\.force).max() == 1)
  }

  @Test func googleInkChannels() throws {
    let document = try GoogleInkImporter.load(
      try FormatFixtures.corpusBytes("google-ink/spring_shape.binarypb"))
    let points = try #require(document.drawing.strokes.first?.path.controlPoints)
    let forces = points.map(\.force)
    #expect(forces.min()! >= 0.42 && forces.max()! <= 0.71)
    // Tilt 0.30–0.34 rad from upright: altitude π/2 − tilt.
    #expect(points.allSatisfy { $0.altitude > .pi / 2 - 0.35 && $0.altitude < .pi / 2 - 0.29 })
    #expect(points.allSatisfy { $0.azimuth > 4.33 && $0.azimuth < 4.56 })
    #expect(points.last!.timeOffset > 0.69 && points.last!.timeOffset <= 0.72)
  }

  @Test func myscriptPressureOnlyForPens() throws {
    let document = try MyScriptImporter.load(
      try FormatFixtures.corpusBytes("myscript-iinkts/datas/count-to-50-pointers.json"))
    let strokes = document.drawing.strokes
    #expect(strokes.contains { $0.path.controlPoints.contains { $0.force < 1 } })
    let synthetic = try MyScriptImporter.load(
      try FormatFixtures.corpusBytes("myscript-iinkts/dataset/1.json"))
    #expect(synthetic.drawing.strokes.allSatisfy { $0.path.controlPoints.allSatisfy { $0.force == 1 } })
    #expect(synthetic.drawing.strokes[0].path.creationDate != nil)
  }
}
