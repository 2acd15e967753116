import Foundation
import InkwellModel
import Testing

@testable import InkwellFormat

@Suite struct FormatNativeTests {
  // MARK: Round trips

  static func randomDocument(seed: UInt64) -> Document {
    var random = SplitMix64(seed: seed)
    func strokeCount() -> Int { Int(random.next() % 5) }
    var strokes: [Stroke] = []
    for _ in 0..<strokeCount() {
      let type = InkType.allCases[Int(random.next() % UInt64(InkType.allCases.count))]
      let color: Color
      if random.next() % 2 == 0 {
        color = Color(
          red: Float(random.next() % 256) / 255, green: Float(random.next() % 256) / 255,
          blue: Float(random.next() % 256) / 255, alpha: Float(random.next() % 256) / 255)
      } else {
        color = Color(
          red: Float.random(in: 0...1, using: &random), green: Float.random(in: 0...1, using: &random),
          blue: Float.random(in: 0...1, using: &random), alpha: Float.random(in: 0...1, using: &random))
      }
      let ink = Ink(type: type, color: color, width: random.next() % 3 == 0 ? nil : random.float(in: 0...40))
      // Each attribute is either constant at its default or varies, so column selection is exercised.
      let varies = (0..<8).map { _ in random.next() % 2 == 0 }
      var points: [StrokePoint] = []
      for _ in 0..<Int(random.next() % 40) {
        var point = StrokePoint(
          location: Point(x: random.float(in: -500...500), y: random.float(in: -500...500)),
          size: Size(width: ink.width, height: ink.width))
        if varies[0] { point.timeOffset = random.float(in: 0...10) }
        if varies[1] { point.size.width = random.float(in: 0...30) }
        if varies[2] { point.size.height = random.float(in: 0...30) }
        if varies[3] { point.opacity = random.float(in: 0...2) }
        if varies[4] { point.force = random.float(in: 0...1) }
        if varies[5] { point.azimuth = random.float(in: -7...7) * (random.next() % 2 == 0 ? 1 : -1) }
        if varies[6] { point.altitude = random.float(in: 0...1.5707964) }
        if varies[7] { point.rollAngle = random.float(in: -7...7) }
        points.append(point)
      }
      let transform =
        random.next() % 2 == 0
        ? AffineTransform.identity
        : AffineTransform(
          a: random.float(in: -2...2), b: random.float(in: -2...2), c: random.float(in: -2...2),
          d: random.float(in: -2...2), tx: random.float(in: -100...100), ty: random.float(in: -100...100))
      let date: Double? =
        random.next() % 2 == 0 ? nil : Double.random(in: -1e9...1e9, using: &random)
      strokes.append(
        Stroke(
          ink: ink, path: StrokePath(controlPoints: points, creationDate: date), transform: transform,
          randomSeed: random.next() % 2 == 0 ? 0 : UInt32(truncatingIfNeeded: random.next())))
    }
    let bounds: Rect? =
      random.next() % 2 == 0
      ? nil
      : Rect(
        x: random.float(in: -100...100), y: random.float(in: -100...100),
        width: random.float(in: 0...2000), height: random.float(in: 0...2000))
    return Document(bounds: bounds, drawing: Drawing(strokes: strokes))
  }

  @Test(arguments: 0..<200)
  func randomDocumentsRoundTripExactly(seed: Int) throws {
    let document = Self.randomDocument(seed: UInt64(seed))
    let first = try NativeFormat.encode(document)
    let decoded = try NativeFormat.decode(first)
    #expect(decoded == document)
    let second = try NativeFormat.encode(decoded)
    #expect(first == second)
  }

  @Test func writesTheDocumentedLayout() throws {
    let ink = Ink(type: .pen, color: Color(parsing: "#1a1a1a")!, width: 3)
    let points = [
      StrokePoint(location: Point(x: 10, y: 20), timeOffset: 0, size: Size(width: 3, height: 3), force: 0.5),
      StrokePoint(location: Point(x: 11.5, y: 20), timeOffset: 0.01, size: Size(width: 3, height: 3)),
    ]
    let document = Document(
      bounds: Rect(x: 0, y: 0, width: 100, height: 50),
      drawing: Drawing(strokes: [
        Stroke(ink: ink, path: StrokePath(controlPoints: points), randomSeed: 7)
      ]))
    let expected = """
      {
        "format": "inkwell",
        "version": 1,
        "bounds": [0, 0, 100, 50],
        "drawing": {
          "strokes": [
            {
              "ink": {"type": "pen", "color": "#1a1a1aff", "width": 3},
              "randomSeed": 7,
              "fields": ["x", "y", "t", "force"],
              "points": [
                [10, 20, 0, 0.5],
                [11.5, 20, 0.01, 1]
              ]
            }
          ]
        }
      }

      """
    #expect(String(decoding: try NativeFormat.encode(document), as: UTF8.self) == expected)
  }

  @Test func writesInexactColorsAsArrays() throws {
    let color = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
    let document = Document(
      drawing: Drawing(strokes: [
        Stroke(ink: Ink(type: .marker, color: color), path: StrokePath(controlPoints: []))
      ]))
    let text = String(decoding: try NativeFormat.encode(document), as: UTF8.self)
    #expect(text.contains(#""color": [0.1, 0.2, 0.3, 1]"#))
    #expect(try NativeFormat.decode(Array(text.utf8)).drawing.strokes[0].ink.color == color)
  }

  @Test func refusesToWriteNonFiniteValues() {
    let point = StrokePoint(location: Point(x: .nan, y: 0), size: Size(width: 1, height: 1))
    let document = Document(
      drawing: Drawing(strokes: [
        Stroke(ink: Ink(type: .pen, color: .black), path: StrokePath(controlPoints: [point]))
      ]))
    #expect {
      _ = try NativeFormat.encode(document)
    } throws: { error in
      let error = error as? DocumentError
      return error?.kind == .nonFiniteValue && error?.path == "drawing.strokes[0].points[0][0]"
    }
  }

  @Test func fillsDefaultsForAbsentFieldsAndKeys() throws {
    let text = """
      {"format": "inkwell", "version": 1, "extra": {"ignored": [1]},
       "drawing": {"strokes": [{"ink": {"type": "pencil", "color": "#ff000080"},
         "fields": ["y", "x"], "points": [[2, 1]], "future": true}]}}
      """
    let document = try NativeFormat.decode(Array(text.utf8))
    #expect(document.bounds == nil)
    let stroke = try #require(document.drawing.strokes.first)
    #expect(stroke.ink.width == InkType.pencil.defaultWidth)
    #expect(stroke.ink.color == Color(red: 1, green: 0, blue: 0, alpha: 128 / 255))
    #expect(stroke.transform == .identity)
    #expect(stroke.randomSeed == 0)
    #expect(stroke.path.creationDate == nil)
    let point = try #require(stroke.path.controlPoints.first)
    #expect(
      point
        == StrokePoint(
          location: Point(x: 1, y: 2), size: Size(width: 3, height: 3), opacity: 1, force: 1, azimuth: 0,
          altitude: .pi / 2, rollAngle: 0))
  }

  // MARK: Errors

  struct Failure: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var kind: DocumentError.Kind
    var path: String?
    var line: Int
    var column: Int
    var testDescription: String { name }
  }

  /// A valid document with `stroke` as its only stroke's members.
  static func document(stroke: String, version: String = "1") -> String {
    """
    {"format": "inkwell", "version": \(version), "drawing": {"strokes": [
    {\(stroke)}
    ]}}
    """
  }

  static let ink = ##""ink": {"type": "pen", "color": "#000000"}"##

  static let failures: [Failure] = [
    Failure(
      name: "not JSON", text: "{\"format\": ", kind: .invalidJSON(.unexpectedEnd(expected: "a value")),
      path: nil, line: 1, column: 12),
    Failure(
      name: "top level array", text: "[]", kind: .wrongType(expected: "an object", found: "an array"),
      path: "", line: 1, column: 1),
    Failure(
      name: "missing format", text: #"{"version": 1}"#, kind: .missingKey("format"), path: "", line: 1,
      column: 1),
    Failure(
      name: "other format", text: #"{"format": "svg", "version": 1}"#,
      kind: .notInkwellDocument(format: "svg"), path: "format", line: 1, column: 12),
    Failure(
      name: "format not a string", text: #"{"format": 1}"#,
      kind: .wrongType(expected: "a string", found: "a number"), path: "format", line: 1, column: 12),
    Failure(
      name: "missing version", text: #"{"format": "inkwell"}"#, kind: .missingKey("version"), path: "",
      line: 1, column: 1),
    Failure(
      name: "newer version", text: #"{"format": "inkwell", "version": 3, "drawing": {}}"#,
      kind: .unsupportedVersion(found: 3, supported: 2), path: "version", line: 1, column: 34),
    Failure(
      name: "version zero", text: #"{"format": "inkwell", "version": 0}"#, kind: .invalidVersion("0"),
      path: "version", line: 1, column: 34),
    Failure(
      name: "fractional version", text: #"{"format": "inkwell", "version": 1.5}"#,
      kind: .invalidVersion("1.5"), path: "version", line: 1, column: 34),
    Failure(
      name: "version string", text: #"{"format": "inkwell", "version": "1"}"#,
      kind: .wrongType(expected: "a number", found: "a string"), path: "version", line: 1, column: 34),
    Failure(
      name: "duplicate key", text: #"{"format": "inkwell", "format": "inkwell"}"#,
      kind: .duplicateKey("format"), path: "", line: 1, column: 23),
    Failure(
      name: "missing drawing", text: #"{"format": "inkwell", "version": 1}"#, kind: .missingKey("drawing"),
      path: "", line: 1, column: 1),
    Failure(
      name: "strokes not an array", text: #"{"format": "inkwell", "version": 1, "drawing": {"strokes": {}}}"#,
      kind: .wrongType(expected: "an array", found: "an object"), path: "drawing.strokes", line: 1,
      column: 60),
    Failure(
      name: "bounds too short", text: #"{"format": "inkwell", "version": 1, "bounds": [0, 0, 1]}"#,
      kind: .wrongArrayLength(expected: 4, found: 3, elements: "x, y, width, height"), path: "bounds",
      line: 1, column: 47),
    Failure(
      name: "bounds negative size", text: #"{"format": "inkwell", "version": 1, "bounds": [0, 0, 1, -2]}"#,
      kind: .valueOutOfRange(value: "-2", allowed: ">= 0"), path: "bounds[3]", line: 1, column: 57),
    Failure(
      name: "missing ink", text: document(stroke: #""fields": ["x", "y"], "points": []"#),
      kind: .missingKey("ink"), path: "drawing.strokes[0]", line: 2, column: 1),
    Failure(
      name: "unknown ink type",
      text: document(
        stroke: ##""ink": {"type": "quill", "color": "#000"}, "fields": ["x", "y"], "points": []"##),
      kind: .unknownInkType("quill"), path: "drawing.strokes[0].ink.type", line: 2, column: 18),
    Failure(
      name: "bad color",
      text: document(
        stroke: ##""ink": {"type": "pen", "color": "#12345"}, "fields": ["x", "y"], "points": []"##),
      kind: .invalidColor("\"#12345\""), path: "drawing.strokes[0].ink.color", line: 2, column: 34),
    Failure(
      name: "color name",
      text: document(stroke: #""ink": {"type": "pen", "color": "red"}, "fields": ["x", "y"], "points": []"#),
      kind: .invalidColor("\"red\""), path: "drawing.strokes[0].ink.color", line: 2, column: 34),
    Failure(
      name: "color component out of range",
      text: document(
        stroke: #""ink": {"type": "pen", "color": [0, 0, 2, 1]}, "fields": ["x", "y"], "points": []"#),
      kind: .invalidColor("2"), path: "drawing.strokes[0].ink.color[2]", line: 2, column: 41),
    Failure(
      name: "negative width",
      text: document(
        stroke:
          ##""ink": {"type": "pen", "color": "#000000", "width": -1}, "fields": ["x", "y"], "points": []"##
      ),
      kind: .valueOutOfRange(value: "-1", allowed: ">= 0"), path: "drawing.strokes[0].ink.width", line: 2,
      column: 54),
    Failure(
      name: "transform too long",
      text: document(
        stroke: ink + #", "transform": [1, 0, 0, 1, 0, 0, 0], "fields": ["x", "y"], "points": []"#),
      kind: .wrongArrayLength(expected: 6, found: 7, elements: "a, b, c, d, tx, ty"),
      path: "drawing.strokes[0].transform", line: 2, column: 59),
    Failure(
      name: "seed negative",
      text: document(stroke: ink + #", "randomSeed": -1, "fields": ["x", "y"], "points": []"#),
      kind: .notAnInteger("-1", range: "0...4294967295"), path: "drawing.strokes[0].randomSeed", line: 2,
      column: 60),
    Failure(
      name: "seed too large",
      text: document(stroke: ink + #", "randomSeed": 4294967296, "fields": ["x", "y"], "points": []"#),
      kind: .notAnInteger("4294967296", range: "0...4294967295"), path: "drawing.strokes[0].randomSeed",
      line: 2, column: 60),
    Failure(
      name: "seed fractional",
      text: document(stroke: ink + #", "randomSeed": 0.5, "fields": ["x", "y"], "points": []"#),
      kind: .notAnInteger("0.5", range: "0...4294967295"), path: "drawing.strokes[0].randomSeed", line: 2,
      column: 60),
    Failure(
      name: "creation date overflow",
      text: document(stroke: ink + #", "creationDate": 1e400, "fields": ["x", "y"], "points": []"#),
      kind: .numberOutOfRange("1e400"), path: "drawing.strokes[0].creationDate", line: 2, column: 62),
    Failure(
      name: "missing fields", text: document(stroke: ink + #", "points": []"#), kind: .missingKey("fields"),
      path: "drawing.strokes[0]", line: 2, column: 1),
    Failure(
      name: "unknown field", text: document(stroke: ink + #", "fields": ["x", "y", "z"], "points": []"#),
      kind: .unknownField("z"), path: "drawing.strokes[0].fields[2]", line: 2, column: 67),
    Failure(
      name: "duplicate field", text: document(stroke: ink + #", "fields": ["x", "y", "x"], "points": []"#),
      kind: .duplicateField("x"), path: "drawing.strokes[0].fields[2]", line: 2, column: 67),
    Failure(
      name: "missing y", text: document(stroke: ink + #", "fields": ["x", "t"], "points": []"#),
      kind: .missingField("y"), path: "drawing.strokes[0].fields", line: 2, column: 56),
    Failure(
      name: "field not a string", text: document(stroke: ink + #", "fields": ["x", "y", 3], "points": []"#),
      kind: .wrongType(expected: "a string", found: "a number"), path: "drawing.strokes[0].fields[2]",
      line: 2, column: 67),
    Failure(
      name: "missing points", text: document(stroke: ink + #", "fields": ["x", "y"]"#),
      kind: .missingKey("points"), path: "drawing.strokes[0]", line: 2, column: 1),
    Failure(
      name: "short row",
      text: document(stroke: ink + #", "fields": ["x", "y", "t"], "points": [[1, 2, 3],\#n  [1, 2]]"#),
      kind: .wrongRowLength(expected: 3, found: 2, fields: ["x", "y", "t"]),
      path: "drawing.strokes[0].points[1]", line: 3, column: 3),
    Failure(
      name: "row not an array", text: document(stroke: ink + #", "fields": ["x", "y"], "points": [3]"#),
      kind: .wrongType(expected: "an array of 2 numbers", found: "a number"),
      path: "drawing.strokes[0].points[0]", line: 2, column: 79),
    Failure(
      name: "string in row", text: document(stroke: ink + #", "fields": ["x", "y"], "points": [[1, "2"]]"#),
      kind: .wrongType(expected: "a number", found: "a string"), path: "drawing.strokes[0].points[0][1]",
      line: 2, column: 83),
    Failure(
      name: "overflowing number",
      text: document(stroke: ink + #", "fields": ["x", "y"], "points": [[1e39, 0]]"#),
      kind: .numberOutOfRange("1e39"), path: "drawing.strokes[0].points[0][0]", line: 2, column: 80),
    Failure(
      name: "negative force",
      text: document(stroke: ink + #", "fields": ["x", "y", "force"], "points": [[0, 0, -0.5]]"#),
      kind: .valueOutOfRange(value: "-0.5", allowed: ">= 0 for force"),
      path: "drawing.strokes[0].points[0][2]",
      line: 2, column: 95),
    Failure(
      name: "negative point width",
      text: document(stroke: ink + #", "fields": ["x", "y", "width"], "points": [[0, 0, -1]]"#),
      kind: .valueOutOfRange(value: "-1", allowed: ">= 0 for width"), path: "drawing.strokes[0].points[0][2]",
      line: 2, column: 95),
  ]

  @Test(arguments: [2, 20])
  func duplicateKeysAreFoundInSmallAndLargeObjects(extraMembers: Int) throws {
    // Few members are searched in order, many through a dictionary: both report the second key.
    let extra = (0..<extraMembers).map { #""x\#($0)": \#($0), "# }.joined()
    let ink = ##""ink": {"type": "pen", "color": "#000000", \##(extra)"color": "#ffffff"}"##
    let text = Self.document(stroke: ink + #", "fields": ["x", "y"], "points": []"#)
    let bytes = Array(text.utf8)
    let second = try #require(text.utf8.indices.last { text.utf8[$0...].starts(with: #""color""#.utf8) })
    #expect {
      _ = try NativeFormat.decode(bytes)
    } throws: { error in
      guard let error = error as? DocumentError else { return false }
      return error.kind == .duplicateKey("color") && error.path == "drawing.strokes[0].ink"
        && error.location?.offset == text.utf8.distance(from: text.utf8.startIndex, to: second)
    }
  }

  /// `original` with one to `edits` bytes replaced, removed or inserted (from `replacements`) at
  /// random places.
  static func damaged(
    _ original: [UInt8], edits: UInt64, from replacements: [UInt8], _ random: inout SplitMix64
  ) -> [UInt8] {
    var bytes = original
    for _ in 0..<(1 + random.next() % edits) {
      let index = Int(random.next() % UInt64(bytes.count))
      switch random.next() % 3 {
      case 0: bytes[index] = replacements[Int(random.next() % UInt64(replacements.count))]
      case 1: bytes.remove(at: index)
      default: bytes.insert(replacements[Int(random.next() % UInt64(replacements.count))], at: index)
      }
    }
    return bytes
  }

  /// Expects the decoder that reads point rows and plain strokes aside to give the same document
  /// as the one that reads the tree, or the same error at the same place.
  static func expectSameDecoding(_ bytes: [UInt8], _ label: String) {
    let aside = Result { () throws(DocumentError) in try NativeDecoder(bytes: bytes).decode() }
    let tree = Result { () throws(DocumentError) in
      try NativeDecoder(bytes: bytes, readsPointRows: false).decode()
    }
    switch (aside, tree) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(label)")
    case (.failure(let a), .failure(let b)):
      #expect(a.kind == b.kind && a.path == b.path && a.location == b.location, "\(label): \(a) / \(b)")
    default: Issue.record("\(label): \(aside) / \(tree)")
    }
  }

  @Test func pointRowsReadAsideDecodeAsTheTreeDoes() throws {
    // Damage aimed at the numbers of the point rows: the decoder that reads them aside must give
    // the same document, or the same error at the same place, as the one that reads the tree.
    var rows: [String] = []
    for i in 0..<12 { rows.append("[\(Float(i) * 1.25 + 0.5), -\(Float(i) / 3), \(Float(i) * 0.01), 0.5]") }
    let text = Self.document(
      stroke: Self.ink + #", "fields": ["x", "y", "t", "force"], "points": ["#
        + rows.joined(separator: ",\n ")
        + "], \"extra\": {\"points\": [[1, 2]]}")
    let original = Array(text.utf8)
    let replacements = Array("-0.9e+E[],x\" ".utf8) + [UInt8(ascii: "1")]
    var random = SplitMix64(seed: 0x5EED)
    for trial in 0..<1500 {
      let bytes = Self.damaged(original, edits: 3, from: replacements, &random)
      Self.expectSameDecoding(bytes, "trial \(trial)")
    }
  }

  @Test func plainStrokesReadAsideDecodeAsTheTreeDoes() throws {
    // Damage aimed at strokes of the plain shape, which the reader reads into their parts: the
    // decoder must give the same document, or the same error at the same place, as the one that
    // reads the tree. The third stroke lists the first one's fields again.
    let strokes = [
      #"{"ink": {"type": "pen", "color": [0.25, 0.5, 0.125, 1], "width": 3.5}, "fields": ["x", "y", "t", "force"], "#
        + #""points": [[1.5, 2.25, 0, 0.5], [3, 4.5, 0.01, 0.75], [5, -6, 0.02, 1]]}"#,
      ##"{"ink": {"type": "marker", "color": "#336699"}, "fields": ["x", "y"], "points": [[1, 2], [3, 4]]}"##,
      #"{"ink": {"type": "pencil", "color": [1, 0, 0, 0.5], "width": 2}, "fields": ["x", "y", "t", "force"], "#
        + #""points": [[7, 8, 0, 0.25], [9, 10, 0.5, 0.5]]}"#,
    ]
    let text =
      #"{"format": "inkwell", "version": 1, "drawing": {"strokes": [\#n"# + strokes.joined(separator: ",\n")
      + "\n]}}"
    // Edits a damage would seldom make by chance, each a value or a shape the parts must not take.
    let edits = [
      ("\"width\": 3.5", "\"width\": -3.5"), ("\"width\": 3.5", "\"width\": 1e39"),
      ("\"width\": 3.5", "\"width\": 35e-1"), ("0.125, 1]", "1.125, 1]"), ("[0.25,", "[-0.25,"),
      ("0.125, 1]", "0.125, 1, 1]"), ("0.125, 1]", "0.125]"), ("\"pen\"", "\"quill\""),
      ("\"pen\"", "\"p\\u0065n\""),
      ("\"#336699\"", "\"#3366\""), ("\"#336699\"", "\"#33669G\""), ("\"#336699\"", "\"#336699CC\""),
      ("[\"x\", \"y\"]", "[\"y\"]"), ("[\"x\", \"y\"]", "[\"x\", \"x\"]"),
      ("[\"x\", \"y\"]", "[\"x\", \"z\"]"),
      ("[\"x\", \"y\"]", "[]"), ("[[1, 2], [3, 4]]", "[]"), ("[[1, 2], [3, 4]]", "[[1, 2], [3]]"),
      ("0.02, 1]", "0.02, -1]"), ("\"width\": 2}", "\"width\": 2, \"exposure\": 2}"),
      ("\"width\": 2}", "\"width\": 2, \"colorSpace\": \"displayP3\"}"),
      ("\"width\": 2}", "\"width\": 2, \"extra\": 1}"),
      ("[[7, 8", "[[7e0, 8"),
      ("{\"ink\": {\"type\": \"marker\"", "{\"randomSeed\": 4, \"ink\": {\"type\": \"marker\""),
      ("0.5]]}", "0.5]], \"creationDate\": 5}"),
      (
        "{\"type\": \"pencil\", \"color\": [1, 0, 0, 0.5]",
        "{\"color\": [1, 0, 0, 0.5], \"type\": \"pencil\""
      ), ("\"width\": 2}", "\"width\": 2, \"width\": 3}"),
    ]
    for (target, replacement) in edits {
      #expect(text.contains(target), "\(target)")
      Self.expectSameDecoding(
        Array(text.replacingOccurrences(of: target, with: replacement).utf8), replacement)
    }
    let original = Array(text.utf8)
    let replacements = Array("-0.9e[]{},:x\"# #tp".utf8) + [UInt8(ascii: "1")]
    #expect(
      try NativeDecoder(bytes: original).decode()
        == NativeDecoder(bytes: original, readsPointRows: false).decode())
    var random = SplitMix64(seed: 0x57_0CE5)
    for trial in 0..<3000 {
      let bytes = Self.damaged(original, edits: 2, from: replacements, &random)
      Self.expectSameDecoding(bytes, "trial \(trial)")
    }
  }

  @Test func pointRowNumbersConvertAsTheTreeDoes() throws {
    // Each number text read as a point row reads it, followed by more of a row (where the number
    // is read from whole words of text) and at the very end of the text (where it is read a run of
    // digits at a time): what it reads must be the correctly rounded float, and nothing else.
    var read = 0
    for text in FormatJSONTests.numberTexts() {
      let infinity = text.hasPrefix("-") ? -Float.infinity : .infinity
      let expected = Float(text) ?? infinity
      for tail in [", 12.5, -0.25, 3.0625, 1]", ""] {
        let bytes = Array((text + tail).utf8)
        var index = 0
        let value = bytes.withUnsafeBufferPointer { JSONNumberScanner.plainFloat($0, &index) }
        guard let value else {
          #expect(index == 0, "\(text)")
          continue
        }
        read += 1
        #expect(value.bitPattern == expected.bitPattern, "\(text)")
        #expect(index == text.utf8.count, "\(text)")
      }
    }
    #expect(read > 30_000)
  }

  @Test func pointRowsFillEveryFieldAsTheTreeDoes() throws {
    // Every column, in an order unlike the declaration's, with a distinct value in each cell: the
    // rows read aside write each value to its field as the tree's `PointField.set` does.
    let fields = PointField.allCases.reversed().map(\.rawValue)
    var rows: [String] = []
    for r in 0..<5 {
      rows.append(
        "["
          + fields.indices.map { c in "\(Float(r * fields.count + c) * 0.125 + 0.25)" }.joined(
            separator: ", ") + "]")
    }
    let names = fields.map { "\"\($0)\"" }.joined(separator: ", ")
    let text =
      #"{"format": "inkwell", "version": 2, "elements": [{"kind": "drawing", "strokes": [{"#
      + #""ink": {"type": "pen", "color": [0, 0, 0, 1], "width": 3}, "fields": ["# + names
      + #"], "points": ["# + rows.joined(separator: ", ") + "]}]}]}"
    let bytes = Array(text.utf8)
    let aside = try NativeDecoder(bytes: bytes).decode()
    let tree = try NativeDecoder(bytes: bytes, readsPointRows: false).decode()
    #expect(aside == tree)
    guard case .drawing(let drawing) = aside.markup.elements.first, let stroke = drawing.strokes.first else {
      Issue.record("no stroke")
      return
    }
    #expect(stroke.path.count == 5)
    for (r, point) in stroke.path.controlPoints.enumerated() {
      for (c, name) in fields.enumerated() {
        #expect(PointField(rawValue: name)?.value(in: point) == Float(r * fields.count + c) * 0.125 + 0.25)
      }
    }
  }

  @Test func pointRowsOutsideStrokesStayJSON() throws {
    // The reader sets the strokes' point rows aside as floats; `points` anywhere else (an unknown
    // element's strokes, an unknown member of a stroke) is kept as the JSON it was.
    let sticker = #"[{"points": [[1, 2], [3.50, 4e0]]}]"#
    // Strokes of the plain shape, which the reader reads into their parts, in an unknown element.
    let stamp =
      #"[{"ink": {"type": "pen", "color": [0, 0.5, 1, 1], "width": 2.50}, "fields": ["x", "y"], "points": [[7, 8]]}]"#
    let extra = #"{"points": [[5, 6]]}"#
    let text = """
      {"format": "inkwell", "version": 2, "elements": [
      {"kind": "drawing", "strokes": [{\(Self.ink), "fields": ["x", "y"], "points": [[1, 2], [3, 4]],
        "extra": \(extra)}]},
      {"kind": "sticker", "strokes": \(sticker)},
      {"kind": "stamp", "strokes": \(stamp)}]}
      """
    let document = try NativeFormat.decode(Array(text.utf8))
    func compact(_ json: String) throws -> [UInt8] {
      JSONWriter.write(try JSONReader.parse(Array(json.utf8)), style: .compact)
    }
    let elements = document.markup.elements
    try #require(elements.count == 3)
    guard case .drawing(let drawing) = elements[0], case .unknown(let element) = elements[1],
      case .unknown(let stampElement) = elements[2]
    else {
      Issue.record("elements \(elements)")
      return
    }
    #expect(stampElement.fields["strokes"] == (try compact(stamp)))
    let locations = drawing.strokes[0].path.controlPoints.map(\.location)
    #expect(locations == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    let extraJSON = try compact(extra)
    let stickerJSON = try compact(sticker)
    #expect(drawing.strokes[0].unknownFields["extra"] == extraJSON)
    #expect(element.fields["strokes"] == stickerJSON)
  }

  @Test func plainStrokesOfAnUnknownElementStayJSON() throws {
    // Every stroke here is of the plain shape, so no point rows are set aside, only strokes' parts:
    // the unknown element's strokes are still kept as the JSON they were.
    let stroke =
      ##"{"ink": {"type": "pen", "color": "#102030", "width": 2}, "fields": ["x", "y"], "points": [[7, 8.50]]}"##
    let text = """
      {"format": "inkwell", "version": 2, "elements": [
      {"kind": "drawing", "strokes": [\(stroke)]}, {"kind": "stamp", "strokes": [\(stroke)]}]}
      """
    let elements = try NativeFormat.decode(Array(text.utf8)).markup.elements
    try #require(elements.count == 2)
    guard case .drawing(let drawing) = elements[0], case .unknown(let element) = elements[1] else {
      Issue.record("elements \(elements)")
      return
    }
    #expect(drawing.strokes.map(\.path.controlPoints.count) == [1])
    let expected = JSONWriter.write(try JSONReader.parse(Array("[\(stroke)]".utf8)), style: .compact)
    #expect(element.fields["strokes"] == expected)
  }

  @Test(arguments: failures)
  func reportsEachErrorWithPathAndLocation(_ failure: Failure) {
    #expect {
      _ = try NativeFormat.decode(Array(failure.text.utf8))
    } throws: { error in
      guard let error = error as? DocumentError else { return false }
      #expect(error.kind == failure.kind)
      #expect(error.path == failure.path)
      #expect(error.location?.line == failure.line)
      #expect(error.location?.column == failure.column)
      #expect(!error.description.contains("\n"))
      return true
    }
  }

  @Test func describesAnErrorOnOneLine() {
    let text = Self.document(
      stroke: Self.ink + #", "fields": ["x", "y", "t"], "points": [[1, 2, 3],\#n  [1, 2]]"#)
    #expect {
      _ = try NativeFormat.decode(Array(text.utf8))
    } throws: { error in
      "\(error)"
        == "drawing.strokes[0].points[1]: expected 3 numbers (fields x, y, t), found 2 (line 3, column 3, byte 157)"
    }
  }

  // MARK: Examples and format detection

  static let examples = ["mypaint-painting.inkwell.json", "bdalab-handwriting.inkwell.json"]

  @Test(arguments: examples)
  func examplesAreCanonical(name: String) throws {
    let bytes = try FormatFixtures.exampleBytes(name)
    #expect(try NativeFormat.encode(try NativeFormat.decode(bytes)) == bytes)
  }

  @Test(arguments: examples)
  func truncatedExamplesFailWithAnError(name: String) throws {
    let bytes = try FormatFixtures.exampleBytes(name)
    let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
    // Every prefix that cuts the top-level object short: a spread through the file, then every
    // length near the end, where truncation is most likely to look complete.
    var lengths = Set(stride(from: 0, to: end, by: Swift.max(1, end / 300)))
    lengths.formUnion(Swift.max(0, end - 200)..<end)
    for length in lengths.sorted() {
      #expect(throws: DocumentError.self, "prefix of \(length) bytes") {
        _ = try NativeFormat.decode(Array(bytes[..<length]))
      }
    }
  }

  @Test func detectsFormatsFromContentAndName() {
    let native = Array(#"{"format": "inkwell", "version": 1, "drawing": {"strokes": []}}"#.utf8)
    #expect(DocumentFormat.detect(path: "a.json", bytes: native) == .native)
    #expect(DocumentFormat.detect(path: "-", bytes: native) == .native)
    let signal = Array(#"{"x": [], "y": [], "buttons": []}"#.utf8)
    #expect(DocumentFormat.detect(path: "signal.json", bytes: signal) == .bdalabSignalJSON)
    #expect(DocumentFormat.detect(path: "x", bytes: Array("3\n1 2 3 1 0 900 5\n".utf8)) == .bdalabSVC)
    #expect(
      DocumentFormat.detect(path: "x", bytes: Array("0.0 1 2 0.5\n0.1 1 2 0\n".utf8)) == .libmypaintEvents)
    #expect(DocumentFormat.detect(path: "notes.svc", bytes: []) == .bdalabSVC)
    #expect(DocumentFormat.detect(path: "b.inkwell.json", bytes: Array("{".utf8)) == .native)
    #expect(DocumentFormat.detect(path: "unknown.txt", bytes: Array("hello".utf8)) == nil)
    #expect(DocumentFormat(name: "signal-json") == .bdalabSignalJSON)
    #expect(DocumentFormat(name: "pdf") == nil)
  }

  @Test func loadsEmptyDrawing() throws {
    let text = #"{"format": "inkwell", "version": 1, "drawing": {"strokes": []}}"#
    #expect(try DocumentFormat.native.load(Array(text.utf8)) == Document(drawing: Drawing()))
  }
}
