import InkwellFormat
import InkwellModel
import Testing

@Suite struct FormatImporterTests {
  // MARK: The corpus recordings

  struct Recording: CustomTestStringConvertible, Sendable {
    var path: String
    var format: DocumentFormat
    var strokes: Int
    var points: Int
    var testDescription: String { path }
  }

  /// Stroke and point counts as SOURCES.md states them.
  static let recordings = [
    Recording(path: FormatFixtures.mypaint, format: .libmypaintEvents, strokes: 30, points: 2_253),
    Recording(path: FormatFixtures.jack, format: .bdalabSVC, strokes: 3, points: 501),
    Recording(path: FormatFixtures.signalSVC, format: .bdalabSVC, strokes: 5, points: 819),
    Recording(path: FormatFixtures.signalJSON, format: .bdalabSignalJSON, strokes: 1, points: 148),
  ]

  @Test(
    .enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"),
    arguments: recordings)
  func importsTheStatedStrokeAndPointCounts(_ recording: Recording) throws {
    let bytes = try FormatFixtures.corpusBytes(recording.path)
    #expect(DocumentFormat.detect(path: recording.path, bytes: bytes) == recording.format)
    let document = try recording.format.load(bytes)
    let strokes = document.drawing.strokes
    #expect(strokes.count == recording.strokes)
    #expect(strokes.map(\.path.count).reduce(0, +) == recording.points)
    for stroke in strokes {
      #expect(stroke.path.controlPoints.first?.timeOffset == 0)
      for point in stroke.path.controlPoints {
        #expect(point.force >= 0 && point.force <= 1)
        #expect(point.altitude >= 0 && point.altitude <= .pi / 2)
        #expect(point.azimuth >= 0 && point.azimuth < 2 * .pi)
        #expect(point.timeOffset >= 0)
      }
    }
    let bounds = try #require(document.bounds)
    #expect(bounds.minX == bounds.minX.rounded() && bounds.width == bounds.width.rounded())
    #expect(bounds.minX < document.drawing.bounds.minX && bounds.maxY > document.drawing.bounds.maxY)
    // The import survives the native format unchanged.
    #expect(try NativeFormat.decode(try NativeFormat.encode(document)) == document)
  }

  @Test(
    .enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"),
    arguments: [
      (FormatFixtures.mypaint, "mypaint-painting.inkwell.json"),
      (FormatFixtures.jack, "bdalab-handwriting.inkwell.json"),
    ])
  func examplesMatchAFreshConversion(source: String, example: String) throws {
    let bytes = try FormatFixtures.corpusBytes(source)
    let format = try #require(DocumentFormat.detect(path: source, bytes: bytes))
    #expect(try NativeFormat.encode(try format.load(bytes)) == (try FormatFixtures.exampleBytes(example)))
  }

  @Test(.enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"))
  func rawWinTabUnitsAreScaledAndFlipped() throws {
    let document = try BDALabSVCImporter.load(try FormatFixtures.corpusBytes(FormatFixtures.jack))
    let first = try #require(document.drawing.strokes.first?.path.controlPoints.first)
    // First sample: 4034 7509 354642400 1 1190 720 10852; the file's largest y is 15567.
    #expect(first.location.x == 4034 * (72 / BDALabSVCImporter.rawCountsPerInch))
    #expect(first.location.y == (15567 - 7509) * (72 / BDALabSVCImporter.rawCountsPerInch))
    #expect(first.force == 10852 / BDALabSVCImporter.rawMaximumPressure)
    #expect(abs(first.azimuth - (119 - 90) * .pi / 180) < 1e-6)
    #expect(abs(first.altitude - 72 * .pi / 180) < 1e-6)
    let second = try #require(document.drawing.strokes.first?.path.controlPoints.dropFirst().first)
    #expect(abs(second.timeOffset - 0.008) < 1e-6)
  }

  @Test(.enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"))
  func truncatedRecordingsNeverTrap() throws {
    for recording in Self.recordings {
      let bytes = try FormatFixtures.corpusBytes(recording.path)
      for length in stride(from: 0, to: bytes.count, by: Swift.max(1, bytes.count / 97)) {
        _ = try? recording.format.load(Array(bytes[..<length]))
      }
    }
  }

  // MARK: Malformed input

  struct Failure: CustomTestStringConvertible, Sendable {
    var name: String
    var format: DocumentFormat
    var text: String
    var kind: DocumentError.Kind
    var line: Int
    var column: Int
    var testDescription: String { name }
  }

  static let failures = [
    Failure(
      name: "mypaint: three columns", format: .libmypaintEvents, text: "0 1 2 0.5\n0.1 1 2\n",
      kind: .wrongColumnCount(expected: 4, found: 3, columns: "time x y pressure"), line: 2, column: 1),
    Failure(
      name: "mypaint: word", format: .libmypaintEvents, text: "0 1 abc 0.5\n",
      kind: .notANumber("abc"), line: 1, column: 5),
    Failure(
      name: "mypaint: nan", format: .libmypaintEvents, text: "0 1 2 nan\n", kind: .notANumber("nan"),
      line: 1, column: 7),
    Failure(
      name: "mypaint: overflow", format: .libmypaintEvents, text: "0 1e39 2 0.5\n",
      kind: .numberOutOfRange("1e39"), line: 1, column: 3),
    Failure(
      name: "mypaint: pressure above 1", format: .libmypaintEvents, text: "0 1 2 1.5\n",
      kind: .valueOutOfRange(value: "1.5", allowed: "0...1"), line: 1, column: 7),
    Failure(
      name: "svc: no header", format: .bdalabSVC, text: "1 2 3 1 0 900 5\n",
      kind: .wrongColumnCount(expected: 1, found: 7, columns: "sample count"), line: 1, column: 1),
    Failure(
      name: "svc: header not a count", format: .bdalabSVC, text: "2.5\n1 2 3 1 0 900 5\n",
      kind: .notAnInteger("2.5", range: "0...\(Int.max)"), line: 1, column: 1),
    Failure(
      name: "svc: short row", format: .bdalabSVC, text: "2\n1 2 3 1 0 900 5\n1 2 3 1 0 900\n",
      kind: .wrongColumnCount(
        expected: 7, found: 6, columns: "x y time pen_status azimuth altitude pressure"),
      line: 3, column: 1),
    Failure(
      name: "svc: pen status 2", format: .bdalabSVC, text: "1\n1 2 3 2 0 900 5\n",
      kind: .valueOutOfRange(value: "2", allowed: "0 or 1"), line: 2, column: 7),
    Failure(
      name: "svc: negative pressure", format: .bdalabSVC, text: "1\r\n1 2 3 1 0 900 -5\r\n",
      kind: .valueOutOfRange(value: "-5", allowed: ">= 0"), line: 2, column: 15),
    Failure(
      name: "signal: not JSON", format: .bdalabSignalJSON, text: "{\"x\": [1,",
      kind: .invalidJSON(.unexpectedEnd(expected: "a value")), line: 1, column: 10),
    Failure(
      name: "signal: missing buttons", format: .bdalabSignalJSON,
      text: #"{"x": [1], "y": [1], "time": [0], "pressure": [0.5]}"#, kind: .missingKey("buttons"), line: 1,
      column: 1),
    Failure(
      name: "signal: lengths differ", format: .bdalabSignalJSON,
      text: #"{"x": [1, 2], "y": [1], "time": [0, 1], "pressure": [0.5, 0.5], "buttons": [1, 1]}"#,
      kind: .mismatchedLengths("\"x\" has 2 elements, \"y\" has 1"), line: 1, column: 20),
    Failure(
      name: "signal: string sample", format: .bdalabSignalJSON,
      text: #"{"x": [1], "y": ["1"], "time": [0], "pressure": [0.5], "buttons": [1]}"#,
      kind: .wrongType(expected: "a number", found: "a string"), line: 1, column: 18),
  ]

  @Test(arguments: failures)
  func reportsMalformedRowsWithTheirLocation(_ failure: Failure) {
    #expect {
      _ = try failure.format.load(Array(failure.text.utf8))
    } throws: { error in
      guard let error = error as? DocumentError else { return false }
      #expect(error.kind == failure.kind)
      #expect(error.location?.line == failure.line)
      #expect(error.location?.column == failure.column)
      return true
    }
  }

  // MARK: Stroke segmentation and units

  @Test(
    "detecting and loading at once reads what detecting and then loading reads",
    arguments: [
      #"[{"pointers":[{"x":1,"y":2,"t":5,"p":0.5},{"x":3,"y":4,"t":9}],"style":{"width":2}}]"#,
      #"{"symbols":[{"type":"stroke","pointers":[{"x":1,"y":"2"}]}]}"#,
      "[[1, 2, 0.5], [3, 4, 0.75], [5, 6]]", #"{"a": [[1, 2], [3, 4]], "b": [{"x": 5, "y": 6}]}"#,
      #"[{"x": 1, "y": 2, "pressure": "high"}]"#,
      #"{"x": [1, 2], "y": [3, 4], "time": [0, 8], "pressure": [0.5, 0.6], "buttons": [1, 1]}"#,
      #"{"x": [1, 2], "y": [1], "time": [0, 1], "pressure": [0.5, 0.5], "buttons": [1, 1]}"#,
      #"{"format": "inkwell", "version": 1, "drawing": {"strokes": []}}"#, "1\n1 2 3 1 0 900 5\n", "[1, 2",
    ])
  func detectsAndLoadsAtOnce(text: String) {
    let bytes = Array(text.utf8)
    let separate = Result { () throws(DocumentError) -> (DocumentFormat, Document)? in
      guard let format = DocumentFormat.detect(path: "a.json", bytes: bytes) else { return nil }
      return (format, try format.load(bytes))
    }
    let together = Result { () throws(DocumentError) -> (DocumentFormat, Document)? in
      guard let (format, document) = try DocumentFormat.detectAndLoad(path: "a.json", bytes: bytes) else {
        return nil
      }
      return (format, document)
    }
    switch (separate, together) {
    case (.success(let a), .success(let b)):
      #expect(a?.0 == b?.0 && a?.1 == b?.1, "\(text)")
    case (.failure(let a), .failure(let b)):
      #expect(a.kind == b.kind && a.path == b.path && a.location == b.location, "\(text): \(a) / \(b)")
    default: Issue.record("\(text): \(separate) / \(together)")
    }
  }

  @Test func libmypaintStrokesAreRunsOfPressure() throws {
    let text = "0 0 0 0\n0.5 1 1 0.25\n0.75 2 2 0.5\n1 3 3 0\n1.5 4 4 1\n"
    let document = try LibMyPaintEventsImporter.load(Array(text.utf8))
    let strokes = document.drawing.strokes.map(\.path.controlPoints)
    #expect(strokes.map(\.count) == [2, 1])
    #expect(strokes[0].map(\.timeOffset) == [0, 0.25])
    #expect(strokes[0].map(\.force) == [0.25, 0.5])
    #expect(strokes[1][0].location == Point(x: 4, y: 4))
    #expect(document.drawing.strokes[0].ink == LibMyPaintEventsImporter.defaultInk)
  }

  @Test func convertedSVCKeepsMillimetresAsPoints() throws {
    let text = "3\n10 20 0.5 1 900 900 0.5\n11 22 0.51 1 2700 450 1\n12 20 0.52 0 0 900 0\n"
    let document = try BDALabSVCImporter.load(Array(text.utf8))
    let points = try #require(document.drawing.strokes.first?.path.controlPoints)
    #expect(points.count == 2)
    let pointsPerMillimetre: Float = 72 / 25.4
    #expect(points[0].location == Point(x: 10 * pointsPerMillimetre, y: 2 * pointsPerMillimetre))
    #expect(points[1].location == Point(x: 11 * pointsPerMillimetre, y: 0))
    #expect(abs(points[1].timeOffset - 0.01) < 1e-6)
    #expect(points.map(\.force) == [0.5, 1])
    #expect(points[0].azimuth == 0)
    #expect(abs(points[1].azimuth - .pi) < 1e-6)
    #expect(abs(points[1].altitude - .pi / 4) < 1e-6)
  }

  @Test func signalTiltBecomesAzimuthAndAltitude() throws {
    let text = """
      {"x": [0, 1, 2, 3], "y": [0, 0, 0, 0], "time": [1000, 1010, 1020, 1030],
       "pressure": [0, 0.5, 0.5, 0], "buttons": [0, 1, 1, 0],
       "tiltX": [0, 0, 45, 0], "tiltY": [0, 45, 0, 0], "twist": [0, 90, 0, 0]}
      """
    let document = try BDALabSignalJSONImporter.load(Array(text.utf8))
    let points = try #require(document.drawing.strokes.first?.path.controlPoints)
    #expect(document.drawing.strokes.count == 1)
    #expect(points.count == 2)
    #expect(abs(points[0].azimuth - .pi / 2) < 1e-5)
    #expect(abs(points[0].altitude - .pi / 4) < 1e-5)
    #expect(abs(points[0].rollAngle - .pi / 2) < 1e-5)
    #expect(abs(points[1].azimuth) < 1e-5)
    #expect(abs(points[1].timeOffset - 0.01) < 1e-6)
  }

  @Test func emptyInputsGiveEmptyDocuments() throws {
    #expect(try LibMyPaintEventsImporter.load([]).drawing.strokes.isEmpty)
    #expect(try BDALabSVCImporter.load(Array("0\n".utf8)).drawing.strokes.isEmpty)
  }
}
