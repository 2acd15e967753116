import Foundation
import InkwellModel
import Testing

@testable import InkwellFormat

/// Bad input for every importer: each file fails with its typed error, and none traps.
@Suite struct ImporterMalformedTests {
  @Test("text-table floats: the double shortcut gives Float(text) whenever it answers")
  func nearestFloatAgreesWithTheLibrary() {
    var random = SplitMix64(seed: 0xF10A7)
    var texts = [
      "0", "-0.0", "+3.5", ".5", "5.", "0.000000000000000000e+00", "3.4028235e38", "1e-40", "1e22", "1e23",
    ]
    for _ in 0..<20_000 {
      // Recorder style: a random double printed with 19 significant digits.
      let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
      let scaled = value.truncatingRemainder(dividingBy: 1e6) * (random.next() % 2 == 0 ? 1 : 1e-9)
      texts.append(String(format: "%.18e", random.next() % 3 == 0 ? -scaled : scaled))
      texts.append(String(format: "%.*f", Int(random.next() % 12), scaled))
    }
    for _ in 0..<5_000 {
      // Halfway between two floats, printed near enough to land on the midpoint's double.
      let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) % 0x7F00_0000 + 0x0080_0000)
      let midpoint = (Double(float) + Double(float.nextUp)) / 2
      texts += [String(format: "%.18e", midpoint), String(format: "%.17e", midpoint.nextUp)]
    }
    var answered = 0
    for text in texts {
      guard let fast = nearestFloat(text) else { continue }
      answered += 1
      #expect(fast.bitPattern == Float(text)?.bitPattern, "\(text)")
    }
    #expect(answered > texts.count / 2)
  }

  @Test(
    "text tables take plain decimals only",
    arguments: [
      ("0", true), ("-12", true), ("+3.5", true), (".5", true), ("5.", true), ("1e5", true),
      ("-2.5E-03", true),
      ("2.052445140000000094e+02", true), ("", false), (".", false), ("-", false), ("+.", false),
      ("e5", false),
      ("1e", false), ("1e+", false), ("1.2.3", false), ("--1", false), ("nan", false), ("inf", false),
      ("0x1p3", false), ("1 ", false), (" 1", false), ("１", false),
    ])
  func decimalNumbers(text: String, accepted: Bool) {
    #expect(isDecimalNumber(text) == accepted, "\(text)")
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var format: DocumentFormat
    var bytes: [UInt8]
    var kind: DocumentError.Kind
    var testDescription: String { name }
  }

  static func gzip(_ text: String) -> [UInt8] { Gzip.compress(Array(text.utf8)) }

  static let cases: [Case] = [
    // Xournal++
    Case(
      name: "xopp: truncated gzip", format: .xournal,
      bytes: Array(gzip("<xournal><page width='10' height='10'/></xournal>").dropLast(12)),
      kind: .importFailure(.truncatedCompressedData)),
    Case(
      name: "xopp: corrupt gzip", format: .xournal,
      bytes: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF],
      kind: .importFailure(.corruptCompressedData("invalid block type"))),
    Case(
      name: "xopp: wrong root", format: .xournal, bytes: gzip("<ink/>"),
      kind: .importFailure(.wrongRootElement(found: "ink", expected: "xournal"))),
    Case(
      name: "xopp: page without height", format: .xournal,
      bytes: gzip("<xournal><page width='1'/></xournal>"),
      kind: .importFailure(.missingAttribute(element: "page", attribute: "height"))),
    Case(
      name: "xopp: odd coordinates", format: .xournal,
      bytes: gzip(
        "<xournal><page width='1' height='1'><layer><stroke width='1'>1 2 3</stroke></layer></page></xournal>"
      ),
      kind: .importFailure(.wrongValueCount(expected: "an even number of", found: 3, channels: "x y pairs"))),
    Case(
      name: "xopp: NaN coordinate", format: .xournal,
      bytes: gzip(
        "<xournal><page width='1' height='1'><layer><stroke width='1'>1 nan</stroke></layer></page></xournal>"
      ),
      kind: .notANumber("nan")),
    Case(
      name: "xopp: huge coordinate", format: .xournal,
      bytes: gzip(
        "<xournal><page width='1' height='1'><layer><stroke width='1'>1 1e40</stroke></layer></page></xournal>"
      ),
      kind: .notANumber("1e40")),
    Case(
      name: "xopp: negative page size", format: .xournal,
      bytes: gzip("<xournal><page width='-1' height='1'/></xournal>"),
      kind: .valueOutOfRange(value: "-1", allowed: "a number >= 0")),
    Case(
      name: "xopp: segment widths miscounted", format: .xournal,
      bytes: gzip(
        "<xournal><page width='1' height='1'><layer><stroke width='1 0.5'>0 0 1 1 2 2</stroke></layer></page></xournal>"
      ),
      kind: .importFailure(.wrongValueCount(expected: "3", found: 2, channels: "width W and one per segment"))
    ),
    Case(
      name: "xopp: bad color", format: .xournal,
      bytes: gzip(
        "<xournal><page width='1' height='1'><layer><stroke width='1' color='mauve'>0 0</stroke></layer></page></xournal>"
      ),
      kind: .invalidColor("\"mauve\"")),
    Case(
      name: "xopp: invalid UTF-8", format: .xournal,
      bytes: Gzip.compress(Array("<xournal>".utf8) + [0xFF] + Array("</xournal>".utf8)),
      kind: .importFailure(.invalidXML(.invalidUTF8))),
    // Rnote
    Case(
      name: "rnote: not gzip", format: .rnote, bytes: Array("{\"version\":\"0.9.4\"}".utf8),
      kind: .importFailure(.notGzip)),
    Case(
      name: "rnote: not JSON", format: .rnote, bytes: gzip("{\"version\": "),
      kind: .invalidJSON(.unexpectedEnd(expected: "a value"))),
    Case(
      name: "rnote: no data", format: .rnote, bytes: gzip("{\"version\": \"0.9.4\"}"),
      kind: .missingKey("data")),
    Case(
      name: "rnote: components not an array", format: .rnote,
      bytes: gzip(#"{"version":"0.9.4","data":{"engine_snapshot":{"stroke_components":{}}}}"#),
      kind: .wrongType(expected: "an array", found: "an object")),
    Case(
      name: "rnote: pos of three", format: .rnote,
      bytes: gzip(
        #"{"version":"0.9.4","data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1,2,3],"pressure":0.5},"segments":[]}}}}]}}}"#
      ),
      kind: .wrongArrayLength(expected: 2, found: 3, elements: "x, y")),
    Case(
      name: "rnote: huge number", format: .rnote,
      bytes: gzip(
        #"{"version":"0.9.4","data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1e39,2],"pressure":0.5},"segments":[]}}}}]}}}"#
      ),
      kind: .numberOutOfRange("1e39")),
    // MyScript
    Case(
      name: "myscript: pointers not an array", format: .myscript,
      bytes: Array(#"[{"type":"stroke","pointers":5}]"#.utf8),
      kind: .wrongType(expected: "an array", found: "a number")),
    Case(
      name: "myscript: missing y", format: .myscript, bytes: Array(#"[{"pointers":[{"x":1}]}]"#.utf8),
      kind: .missingKey("y")),
    Case(
      name: "myscript: string x", format: .myscript, bytes: Array(#"[{"pointers":[{"x":"1","y":2}]}]"#.utf8),
      kind: .wrongType(expected: "a number", found: "a string")),
    Case(
      name: "myscript: NaN", format: .myscript, bytes: Array(#"[{"pointers":[{"x":NaN,"y":2}]}]"#.utf8),
      kind: .invalidJSON(.nonFiniteNumber("NaN"))),
    Case(
      name: "myscript: bad color", format: .myscript,
      bytes: Array(#"[{"style":{"color":"nope"},"pointers":[]}]"#.utf8), kind: .invalidColor("\"nope\"")),
    Case(
      name: "myscript: deep nesting", format: .myscript,
      bytes: Array((String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8),
      kind: .invalidJSON(.nestingTooDeep(limit: 256))),
    Case(
      name: "myscript: invalid UTF-8", format: .myscript,
      bytes: Array(#"[{"type":""#.utf8) + [0xC0, 0x80] + Array(#""}]"#.utf8),
      kind: .invalidJSON(.invalidUTF8)),
    // perfect-freehand
    Case(
      name: "perfect-freehand: one number", format: .perfectFreehand, bytes: Array("[[1]]".utf8),
      kind: .wrongArrayLength(expected: 2, found: 1, elements: "x, y, p, t")),
    Case(
      name: "perfect-freehand: five numbers", format: .perfectFreehand, bytes: Array("[[1,2,3,4,5]]".utf8),
      kind: .wrongArrayLength(expected: 4, found: 5, elements: "x, y, p, t")),
    Case(
      name: "perfect-freehand: string point", format: .perfectFreehand, bytes: Array(#"{"a": ["1,2"]}"#.utf8),
      kind: .wrongType(expected: "an array or an object", found: "a string")),
    Case(
      name: "perfect-freehand: overflow", format: .perfectFreehand, bytes: Array("[[1, 3.5e38]]".utf8),
      kind: .numberOutOfRange("3.5e38")),
    Case(
      name: "perfect-freehand: scalar", format: .perfectFreehand, bytes: Array("5".utf8),
      kind: .wrongType(expected: "an array or an object", found: "a number")),
    // Google Ink: a 10-byte message that claims a billion bytes of inputs fails at once.
    Case(
      name: "google-ink: absurd length", format: .googleInk,
      bytes: [0x0A, 0x80, 0x94, 0xEB, 0xDC, 0x03, 0, 0, 0, 0],
      kind: .importFailure(.invalidProtobuf(.truncated))),
    Case(
      name: "google-ink: runaway varint", format: .googleInk,
      bytes: [0x08] + Array(repeating: 0xFF, count: 11),
      kind: .importFailure(.invalidProtobuf(.malformedVarint))),
    Case(
      name: "google-ink: group wire type", format: .googleInk, bytes: [0x0B],
      kind: .importFailure(.invalidProtobuf(.unsupportedWireType(3)))),
    Case(
      name: "google-ink: field zero", format: .googleInk, bytes: [0x00, 0x00],
      kind: .importFailure(.invalidProtobuf(.invalidFieldNumber(0)))),
    Case(
      name: "google-ink: inputs as a varint", format: .googleInk, bytes: [0x08, 0x01],
      kind: .importFailure(.invalidProtobuf(.wrongWireType(field: 1, found: 0)))),
    Case(
      name: "google-ink: x without y", format: .googleInk,
      // inputs { real { x { deltas: [1] } } }
      bytes: [0x0A, 0x07, 0x0A, 0x05, 0x0A, 0x03, 0x0A, 0x01, 0x02],
      kind: .importFailure(.unsupportedContent("a stroke input batch without y values"))),
    Case(
      name: "google-ink: infinite scale", format: .googleInk,
      // inputs { real { x, y, time each { deltas: [1], scale: inf } } }
      bytes: [0x0A, 0x20, 0x0A, 0x1E]
        + [0x0A, 0x08, 0x0A, 0x01, 0x02, 0x15, 0x00, 0x00, 0x80, 0x7F]
        + [0x12, 0x03, 0x0A, 0x01, 0x02] + [0x1A, 0x03, 0x0A, 0x01, 0x02]
        + [0x22, 0x03, 0x0A, 0x01, 0x02] + [0x2A, 0x03, 0x0A, 0x01, 0x02],
      kind: .importFailure(.invalidProtobuf(.valueOutOfRange(field: 1)))),
  ]

  @Test(arguments: cases)
  func failsWithItsError(_ testCase: Case) {
    let kind = ImporterTesting.failureKind { try testCase.format.load(testCase.bytes) }
    #expect(kind == testCase.kind)
  }

  @Test(
    "the JSON importers name the path of the value that failed",
    arguments: [
      (
        DocumentFormat.rnote,
        #"{"data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1,2,3]}}}}}]}}}"#,
        "data.engine_snapshot.stroke_components[0].value.brushstroke.path.start.pos"
      ),
      (
        .rnote,
        #"{"data":{"engine_snapshot":{"stroke_components":[{"value":null},{"value":{"brushstroke":{"path":{"start":{"pos":[1,2]},"segments":[{"lineto":{"end":{"pos":[3,1e39]}}}]}}}}]}}}"#,
        "data.engine_snapshot.stroke_components[1].value.brushstroke.path.segments[0].lineto.end.pos[1]"
      ),
      (
        .rnote,
        #"{"data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1,2]},"segments":[{"cubbez":{"cp1":[0,0]}}]}}}}]}}}"#,
        "data.engine_snapshot.stroke_components[0].value.brushstroke.path.segments[0].cubbez"
      ),
      (
        .rnote,
        #"{"data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"style":{"smooth":{"stroke_color":{"r":2,"g":0,"b":0,"a":1}}},"path":{"start":{"pos":[1,2]}}}}}]}}}"#,
        "data.engine_snapshot.stroke_components[0].value.brushstroke.style.smooth.stroke_color.r"
      ),
      (
        .rnote,
        #"{"data":{"store_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":[{"line":{"start":{"pos":[1,2]},"end":{"pos":[1]}}}]}}}]}}}"#,
        "data.store_snapshot.stroke_components[0].value.brushstroke.path[0].line.end.pos"
      ),
      (.myscript, #"[{"pointers":[{"x":1,"y":2},{"x":1}]}]"#, "[0].pointers[1]"),
      (.myscript, #"{"strokes":[{"pointers":[{"x":1,"y":"a"}]}]}"#, "strokes[0].pointers[0].y"),
      (.myscript, #"[{"style":{"width":-1},"pointers":[]}]"#, "[0].style.width"),
      (.myscript, #"[{"type":"stroke","pointers":[{"x":1,"y":2,"t":"now"}]}]"#, "[0].pointers[0].t"),
      (.perfectFreehand, "[[1, 2], [1]]", "[1]"),
      (.perfectFreehand, #"{"a": [[1, 2], [3, "x"]]}"#, "a[1][1]"),
      (.perfectFreehand, #"[{"x": 1, "y": 2, "pressure": "high"}]"#, "[0].pressure"),
    ])
  func namesThePathOfTheFailure(format: DocumentFormat, text: String, path: String) {
    let bytes = format == .rnote ? Self.gzip(text) : Array(text.utf8)
    // `load` throws `DocumentError` only.
    do {
      _ = try format.load(bytes)
      Issue.record("\(text) loaded")
    } catch {
      #expect(error.path == path, "\(error)")
    }
  }

  @Test(arguments: [DocumentFormat.xournal, .rnote])
  func gzipBombsStopAtTheSizeLimit(_ format: DocumentFormat) throws {
    // 4 MiB of one byte compresses to about 4 KiB; a 1 MiB limit stops it.
    let bomb = Gzip.compress([UInt8](repeating: UInt8(ascii: " "), count: 4 << 20))
    #expect(bomb.count < 10_000)
    let limit = 1 << 20
    let kind = ImporterTesting.failureKind {
      format == .xournal
        ? try XournalImporter.load(bomb, sizeLimit: limit) : try RnoteImporter.load(bomb, sizeLimit: limit)
    }
    #expect(kind == .importFailure(.decompressedSizeLimitExceeded(limit: limit)))
    #expect(throws: ImportFailure.decompressedSizeLimitExceeded(limit: limit)) {
      try Gzip.decompress(bomb, sizeLimit: limit)
    }
    #expect(try Gzip.decompress(bomb, sizeLimit: 4 << 20).count == 4 << 20)
  }

  @Test func gzipRoundTripsAndJoinsMembers() throws {
    let a = Array("hello ".utf8)
    let b = Array("world".utf8)
    #expect(try Gzip.decompress(Gzip.compress(a) + Gzip.compress(b)) == a + b)
    #expect(try Gzip.decompress(Gzip.compress([])) == [])
    #expect(throws: ImportFailure.corruptCompressedData("data after the end of the gzip stream")) {
      try Gzip.decompress(Gzip.compress(a) + [0, 1, 2])
    }
    #expect(Gzip.decompressedPrefix(Gzip.compress(a + b), count: 4) == Array("hell".utf8))
  }

  @Test func detectionNeverMistakesNativeDocuments() {
    let native = Array(#"{"format": "inkwell", "version": 1, "x": [[1, 2]], "pointers": []}"#.utf8)
    #expect(DocumentFormat.detect(path: "a.json", bytes: native) == .native)
    #expect(DocumentFormat.detect(path: "a.json", bytes: Array("[[1, 2], [3, 4]]".utf8)) == .perfectFreehand)
    #expect(DocumentFormat.detect(path: "a.json", bytes: Array(#"[{"pointers": []}]"#.utf8)) == .myscript)
    #expect(
      DocumentFormat.detect(path: "x", bytes: Array("<?xml version='1.0'?><inkml:ink/>".utf8)) == .inkml)
    #expect(DocumentFormat.detect(path: "x", bytes: Gzip.compress(Array("<xournal/>".utf8))) == .xournal)
    #expect(DocumentFormat.detect(path: "x.rnote", bytes: []) == .rnote)
    #expect(DocumentFormat.detect(path: "x.binarypb", bytes: [0x0A, 0x00]) == .googleInk)
    for name in ["inkml", "xopp", "myscript", "perfect-freehand", "google-ink", "rnote"] {
      #expect(DocumentFormat(name: name)?.name == name)
    }
  }
}
