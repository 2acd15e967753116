// Rnote paths read aside: the importer that reads a path's segments without a tree must give the
// document, or the error, that the one reading the tree gives.

import Foundation
import InkwellModel
import Testing

@testable import InkwellFormat

@Suite("Rnote segments read aside")
struct RnoteSegmentsTests {
  /// An Rnote 0.6 document: strokes whose paths are a start and `lineto`, `quadbez` and `cubbez`
  /// segments, a deleted slot and a shape.
  static let current = #"""
    {"version":"0.9.4","data":{"engine_snapshot":{"stroke_components":[
    {"value":{"brushstroke":{"path":{"start":{"pos":[10.5,20.25],"pressure":0.5},"segments":[
    {"lineto":{"end":{"pos":[11.75,21.5],"pressure":0.625}}},
    {"quadbez":{"cp":{"pos":[12,22],"pressure":0.7},"end":{"pos":[13.125,23.5],"pressure":1.5}}},
    {"cubbez":{"cp1":{"pos":[14,24],"pressure":0.7},"cp2":{"pos":[15,25],"pressure":0.7},"end":{"pos":[-16.5,26.0625],"pressure":-0.25}}}
    ]},"style":{"smooth":{"stroke_width":2.5,"stroke_color":{"r":0.1,"g":0.2,"b":0.3,"a":1}}}}}},
    {"value":null},
    {"value":{"shapestroke":{"path":[{"lineto":{"end":{"pos":[1,2],"pressure":1}}}]}}},
    {"value":{"brushstroke":{"path":{"start":{"pos":[100,200],"pressure":0.25},"segments":[
    {"lineto":{"end":{"pos":[101.03,202.0625],"pressure":0.3}}},
    {"lineto":{"end":{"pos":[103.5,204.75],"pressure":0.35}}}
    ]}}}}
    ]}}}
    """#

  /// An Rnote 0.5 document: a path that is a list of `dot`, `line` and `cubbez` segments, whose
  /// control points are bare pairs.
  static let legacy = #"""
    {"version":"0.5.5","data":{"store_snapshot":{"stroke_components":[
    {"value":{"brushstroke":{"path":[
    {"dot":{"element":{"pos":[110.53971684493244,35.141187580762846],"pressure":0.1040360112916762}}},
    {"line":{"end":{"pos":[110.6,35.2],"pressure":0.17},"start":{"pos":[110.5,35.1],"pressure":0.1}}},
    {"cubbez":{"cp1":[110.8,35.06],"cp2":[111.7,34.8],"end":{"pos":[112.5,34.6],"pressure":0.23},"start":{"pos":[110.6,35.2],"pressure":0.17}}},
    {"dot":{"element":{"pos":[1,2],"pressure":0.5}}}
    ],"style":{"smooth":{"stroke_width":1.5}}}}}
    ]}}}
    """#

  static func load(_ text: [UInt8], aside: Bool) -> Result<Document, DocumentError> {
    Result { () throws(DocumentError) in
      try RnoteImporter.load(Gzip.compress(text), readsSegmentsAside: aside)
    }
  }

  /// Expects the importer that reads segments aside to give the same document as the one that
  /// reads the tree, or the same error at the same place.
  static func expectSameImport(_ text: [UInt8], _ label: String) {
    switch (load(text, aside: true), load(text, aside: false)) {
    case (.success(let a), .success(let b)): #expect(a == b, "\(label)")
    case (.failure(let a), .failure(let b)):
      #expect(a.kind == b.kind && a.path == b.path && a.location == b.location, "\(label): \(a) / \(b)")
    case (let a, let b): Issue.record("\(label): \(a) / \(b)")
    }
  }

  @Test("both documents' segments are read aside, and import as the tree does", arguments: [true, false])
  func readAside(current: Bool) throws {
    let text = Array((current ? Self.current : Self.legacy).utf8)
    let parse = try JSONReader.parseRnote(text)
    // 0.6: both strokes' segments and the shape's path; 0.5: the one path.
    #expect(parse.segments.count == (current ? 3 : 1))
    #expect(parse.segments.values.allSatisfy { !$0.kinds.isEmpty })
    let document = try Self.load(text, aside: true).get()
    #expect(document.drawing.strokes.map(\.path.count) == (current ? [4, 3] : [3]))
    Self.expectSameImport(text, current ? "0.6" : "0.5")
  }

  @Test("a point read aside is the tree's: its numbers, its pressure clamped, the ink's width")
  func pointsAsTheTreeReadsThem() throws {
    let document = try Self.load(Array(Self.current.utf8), aside: true).get()
    let points = document.drawing.strokes[0].path.controlPoints
    #expect(
      points.map(\.location) == [
        Point(x: 10.5, y: 20.25), Point(x: 11.75, y: 21.5), Point(x: 13.125, y: 23.5),
        Point(x: -16.5, y: 26.0625),
      ])
    #expect(points.map(\.force) == [0.5, 0.625, 1, 0])
    #expect(points.allSatisfy { $0.size == Size(width: 2.5, height: 2.5) })
    let legacy = try Self.load(Array(Self.legacy.utf8), aside: true).get().drawing.strokes[0].path
      .controlPoints
    #expect(
      legacy.map(\.location) == [
        Point(x: 110.53971684493244, y: 35.141187580762846), Point(x: 110.6, y: 35.2),
        Point(x: 112.5, y: 34.6),
      ])
  }

  @Test("edits to the shape a path is read aside in import as the tree does")
  func targetedEdits() {
    let edits: [(String, String)] = [
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pos":[11.75,21.5]}"#),
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pressure":0.625,"pos":[11.75,21.5]}"#),
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pos":[11.75,21.5,3],"pressure":0.625}"#),
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pos":[1e39,21.5],"pressure":0.625}"#),
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pos":["1",21.5],"pressure":0.625}"#),
      (#""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""stop":{"pos":[11.75,21.5],"pressure":0.625}"#),
      (
        #""end":{"pos":[11.75,21.5],"pressure":0.625}"#,
        #""end":{"pos":[11.75,21.5],"pressure":0.625},"end":{"pos":[1,2],"pressure":0}"#
      ),
      (
        #""end":{"pos":[11.75,21.5],"pressure":0.625}"#, #""end":{"pos":[11.75,21.5],"pressure":0.625,"x":1}"#
      ),
      (#"{"lineto":{"end""#, #"{"lineto":{"start":{"pos":[0,0],"pressure":0},"end""#),
      (#"{"lineto":{"end""#, #"{"li\u006eeto":{"end""#),
      (#"{"lineto":{"end""#, #"{"moveto":{"end""#),
      (#"{"lineto":{"end""#, #"{"a":{}, "lineto":{"end""#),
      (#"{"lineto":{"end""#, #"{"lineto":{"element":{"pos":[5,5],"pressure":1},"end""#),
      (#""cp":{"pos":[12,22],"pressure":0.7}"#, #""cp":[12,22]"#),
      (#""cp":{"pos":[12,22],"pressure":0.7}"#, #""cp":"twelve""#),
      (#""cp":{"pos":[12,22],"pressure":0.7}"#, #""cp3":{"pos":[12,22],"pressure":0.7}"#),
      (#""pressure":0.625"#, #""pressure":-0"#),
      (#""pressure":0.625"#, #""pressure":0.6250000000000000000001"#),
      (#""pressure":0.625"#, #""pressure":6.25e-1"#),
      (#""pressure":0.625"#, #""pressure" : 0.625 "#),
      (#""pressure":0.625"#, #""pressure":00.625"#),
      (#"{"lineto":{"end":{"pos":[101.03,202.0625],"pressure":0.3}}},"#, ""),
      (#"{"lineto":{"end":{"pos":[101.03,202.0625],"pressure":0.3}}},"#, "{},"),
      (#"{"lineto":{"end":{"pos":[101.03,202.0625],"pressure":0.3}}},"#, "null,"),
      (#""segments":["#, #""segments":[],"x":["#),
      (#""segments":["#, #""segments":{"#),
    ]
    let original = Self.current
    for (from, to) in edits {
      #expect(original.contains(from), "\(from)")
      Self.expectSameImport(Array(original.replacingOccurrences(of: from, with: to).utf8), "\(from) → \(to)")
    }
    let legacyEdits: [(String, String)] = [
      (#","start":{"pos":[110.5,35.1],"pressure":0.1}"#, ""),
      (#""end":{"pos":[110.6,35.2],"pressure":0.17},"#, ""),
      (
        #"{"dot":{"element":{"pos":[1,2],"pressure":0.5}}}"#,
        #"{"dot":{"elements":{"pos":[1,2],"pressure":0.5}}}"#
      ),
      (#""cp1":[110.8,35.06]"#, #""cp1":[110.8,35.06,1]"#),
      (#""cp1":[110.8,35.06]"#, #""cp1":[110.8]"#),
      (#"{"dot":{"element":{"pos":[110.53971684493244"#, #"{"line":{"end":{"pos":[110.53971684493244"#),
    ]
    for (from, to) in legacyEdits {
      #expect(Self.legacy.contains(from), "\(from)")
      Self.expectSameImport(
        Array(Self.legacy.replacingOccurrences(of: from, with: to).utf8), "0.5: \(from) → \(to)")
    }
  }

  @Test("random damage imports as the tree does", arguments: [true, false])
  func randomDamage(current: Bool) {
    let original = Array((current ? Self.current : Self.legacy).utf8)
    let replacements = Array("-0.9e+E[]{},:x\" ".utf8) + [UInt8(ascii: "1")]
    var random = SplitMix64(seed: current ? 0x5EED_0006 : 0x5EED_0005)
    for trial in 0..<1500 {
      let bytes = FormatNativeTests.damaged(original, edits: 3, from: replacements, &random)
      Self.expectSameImport(bytes, "trial \(trial)")
    }
  }

  @Test(
    "the corpus's Rnote files import as the tree reads them, their segments read aside",
    .enabled(if: FormatFixtures.corpusAvailable, "needs ../shared/corpus next to the package"))
  func corpus() throws {
    for name in ["lecture_note_1", "lecture_note_2", "overview", "v0-5-5-test"] {
      let bytes = try FormatFixtures.corpusBytes("rnote/\(name).rnote")
      let aside = try RnoteImporter.load(bytes, readsSegmentsAside: true)
      let tree = try RnoteImporter.load(bytes, readsSegmentsAside: false)
      #expect(aside == tree, "\(name)")
      let parse = try JSONReader.parseRnote(try Gzip.decompress(bytes))
      #expect(parse.segments.count >= aside.drawing.strokes.count, "\(name)")
    }
  }
}
