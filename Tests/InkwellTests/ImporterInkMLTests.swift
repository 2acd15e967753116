import InkwellFormat
import InkwellModel
import Testing

/// InkML fixtures written by hand to the Recommendation's syntax, one per feature, and files in the
/// shapes other tools write.
@Suite struct ImporterInkMLTests {
  static func load(_ text: String) throws -> [[StrokePoint]] {
    try InkMLImporter.load(Array(text.utf8)).drawing.strokes.map(\.path.controlPoints)
  }

  static func locations(_ points: [StrokePoint]) -> [[Float]] {
    points.map { [$0.location.x, $0.location.y] }
  }

  /// The first points of the Recommendation's handwriting example trace, explicit.
  static let explicitTrace = "10 0, 9 14, 8 28, 7 42, 6 56, 6 70, 4 84, 8 98"

  @Test func explicitValuesInTheDefaultChannels() throws {
    let strokes = try Self.load(
      """
      <ink xmlns="http://www.w3.org/2003/InkML"><trace>\(Self.explicitTrace)</trace></ink>
      """)
    #expect(strokes.count == 1)
    #expect(
      Self.locations(strokes[0]) == [
        [10, 0], [9, 14], [8, 28], [7, 42], [6, 56], [6, 70], [4, 84], [8, 98],
      ])
    #expect(strokes[0].allSatisfy { $0.force == 1 && $0.timeOffset == 0 })
  }

  @Test(arguments: [
    // First differences, sticky until the next prefix; second differences; back to explicit.
    #"10 0, '-1 '14, -1 14, -1 14, "0 "0, 1 0, -2 0, !8 !98"#,
    // The same without spaces where a prefix or sign ends the previous value.
    #"10 0,'-1'14,-1 14,-1 14,"0"0,1 0,-2 0,!8!98"#,
    // Explicit prefixes written out, and line breaks inside the trace.
    "!10 !0,\n!9 !14,\n'-1 '14, '-1 '14,\n'-1 '14, '0 '14, '-2 '14, !8 !98",
  ])
  func differenceEncodingsDecodeToTheExplicitPoints(_ trace: String) throws {
    let explicit = try Self.load("<ink><trace>\(Self.explicitTrace)</trace></ink>")
    let encoded = try Self.load("<ink><trace>\(trace)</trace></ink>")
    #expect(Self.locations(encoded[0]) == Self.locations(explicit[0]))
  }

  @Test func wildcardsAndBooleans() throws {
    let strokes = try Self.load(
      """
      <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="S" type="boolean"/></traceFormat>
      <trace>1 1 T, '1 * F, * ? T</trace></ink>
      """)
    // '1 then * repeats the difference; ? keeps the previous value.
    #expect(Self.locations(strokes[0]) == [[1, 1], [2, 1], [3, 1]])
  }

  @Test func tabletExportWithTimeForceAndBrush() throws {
    // As a tablet driver exports: a trace format with X Y T F, F's range declared, a brush.
    let document = try InkMLImporter.load(
      Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- exported by a tablet driver -->
        <ink xmlns="http://www.w3.org/2003/InkML">
          <definitions>
            <context xml:id="ctx0">
              <inkSource xml:id="tablet">
                <traceFormat>
                  <channel name="X" type="decimal" units="mm"/>
                  <channel name="Y" type="decimal" units="mm"/>
                  <channel name="T" type="integer" units="ms"/>
                  <channel name="F" type="integer" min="0" max="1024"/>
                </traceFormat>
              </inkSource>
            </context>
            <brush xml:id="blue"><brushProperty name="width" value="0.5" units="mm"/>
              <brushProperty name="color" value="#0000FF"/><brushProperty name="transparency" value="51"/></brush>
          </definitions>
          <context contextRef="#ctx0" brushRef="#blue"/>
          <trace>25.4 0 1000 512, '0 '25.4 '10 '256, 0 0 10 0</trace>
          <trace type="penUp">0 0 0 0</trace>
          <trace>0 0 5000 1024</trace>
        </ink>
        """.utf8))
    let strokes = document.drawing.strokes
    #expect(strokes.count == 2)
    let points = strokes[0].path.controlPoints
    #expect(Self.locations(points) == [[72, 0], [72, 72], [72, 72]])
    #expect(points.map(\.timeOffset) == [0, 0.01, 0.02])
    #expect(points.map(\.force) == [0.5, 0.75, 0.75])
    #expect(abs(strokes[0].ink.width - 0.5 * 72 / 25.4) < 1e-5)
    #expect(strokes[0].ink.color == Color(red: 0, green: 0, blue: 1, alpha: 0.8))
    #expect(strokes[1].path.controlPoints[0].force == 1)
  }

  @Test func officeStylePrefixedDocument() throws {
    // The `inkml:` prefix, a context defined once and named by every trace, a second brush on a
    // trace group, an undeclared force range (normalized by the document's largest force).
    let strokes = try InkMLImporter.load(
      Array(
        """
        <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">
        <inkml:definitions>
          <inkml:context xml:id="ctxCoordinatesWithPressure">
            <inkml:inkSource xml:id="inkSrcCoordinatesWithPressure">
              <inkml:traceFormat>
                <inkml:channel name="X" type="integer" units="himetric"/>
                <inkml:channel name="Y" type="integer" units="himetric"/>
                <inkml:channel name="F" type="integer" units="dev"/>
              </inkml:traceFormat>
            </inkml:inkSource>
          </inkml:context>
          <inkml:brush xml:id="br0"><inkml:brushProperty name="width" value="0.05" units="cm"/>
            <inkml:brushProperty name="color" value="#ED1C24"/></inkml:brush>
          <inkml:brush xml:id="br1"><inkml:brushProperty name="width" value="100"/></inkml:brush>
        </inkml:definitions>
        <inkml:trace contextRef="#ctxCoordinatesWithPressure" brushRef="#br0">2540 2540 8000, 0 2540 16000</inkml:trace>
        <inkml:traceGroup contextRef="#ctxCoordinatesWithPressure" brushRef="#br1">
          <inkml:trace>0 0 4000</inkml:trace>
        </inkml:traceGroup>
        </inkml:ink>
        """.utf8)
    ).drawing.strokes
    #expect(strokes.count == 2)
    #expect(Self.locations(strokes[0].path.controlPoints) == [[72, 72], [0, 72]])
    #expect(strokes[0].path.controlPoints.map(\.force) == [0.5, 1])
    #expect(strokes[1].path.controlPoints[0].force == 0.25)
    #expect(abs(strokes[0].ink.width - 0.05 * 72 / 2.54) < 1e-5)
    // A width without units is in X's units (himetric).
    #expect(abs(strokes[1].ink.width - 100 * 72 / 2540) < 1e-5)
  }

  @Test func tiltChannels() throws {
    let strokes = try Self.load(
      """
      <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="OTx" units="deg"/>
      <channel name="OTy" units="deg"/></traceFormat><trace>0 0 0 45, 1 0 45 0</trace>
      <traceFormat><channel name="X"/><channel name="Y"/><channel name="OA" units="rad"/><channel name="OE"/>
      <channel name="OR"/></traceFormat>
      <context><traceFormat><channel name="X"/><channel name="Y"/><channel name="OA" units="rad"/>
      <channel name="OE"/><channel name="OR"/></traceFormat></context><trace>0 0 1.5 30 90</trace></ink>
      """)
    #expect(strokes.count == 2)
    #expect(abs(strokes[0][0].azimuth - .pi / 2) < 1e-5)
    #expect(abs(strokes[0][0].altitude - .pi / 4) < 1e-5)
    #expect(abs(strokes[0][1].azimuth) < 1e-5)
    #expect(abs(strokes[1][0].azimuth - 1.5) < 1e-6)
    #expect(abs(strokes[1][0].altitude - .pi / 6) < 1e-6)
    #expect(abs(strokes[1][0].rollAngle - .pi / 2) < 1e-6)
  }

  @Test func orientationIntermittentChannelsAndDefinitions() throws {
    let strokes = try Self.load(
      """
      <ink><definitions><trace xml:id="hidden">5 5</trace></definitions>
      <context><traceFormat><channel name="X" units="in"/><channel name="Y" units="in" orientation="-ve"/>
      <intermittentChannels><channel name="W" default="0.25"/></intermittentChannels></traceFormat></context>
      <traceGroup><trace>1 1, 2 2 0.5, 3 3</trace></traceGroup></ink>
      """)
    #expect(strokes.count == 1)
    #expect(Self.locations(strokes[0]) == [[72, -72], [144, -144], [216, -216]])
    #expect(strokes[0].map(\.size.width) == [18, 36, 36])
  }

  @Test func xmlSyntaxIsHandled() throws {
    let strokes = try Self.load(
      """
      <?xml version="1.0"?>
      <!DOCTYPE ink [ <!ELEMENT ink ANY> ]>
      <ink><!-- a comment --><?processing instruction?>
      <trace>1 2, <![CDATA[3 4,]]> &#53; &#x36;</trace></ink>
      """)
    #expect(Self.locations(strokes[0]) == [[1, 2], [3, 4], [5, 6]])
  }

  // MARK: Errors

  struct Failure: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var kind: DocumentError.Kind
    var line: Int
    var column: Int
    var testDescription: String { name }
  }

  static let failures = [
    Failure(
      name: "too few values", text: "<ink><trace>1 2, 3</trace></ink>",
      kind: .importFailure(.wrongValueCount(expected: "2", found: 1, channels: "X Y")), line: 1, column: 17),
    Failure(
      name: "too many values", text: "<ink><trace>1 2 3</trace></ink>",
      kind: .importFailure(.wrongValueCount(expected: "2", found: 3, channels: "X Y")), line: 1, column: 13),
    Failure(
      name: "not a value", text: "<ink>\n<trace>1 2, x 4</trace></ink>",
      kind: .importFailure(.invalidTraceValue("x")), line: 2, column: 13),
    Failure(
      name: "huge value", text: "<ink><trace>1e999 2</trace></ink>",
      kind: .importFailure(.invalidTraceValue("1e999")), line: 1, column: 13),
    Failure(
      name: "undefined brush", text: ##"<ink><trace brushRef="#nope">1 2</trace></ink>"##,
      kind: .importFailure(.undefinedReference("#nope")), line: 1, column: 13),
    Failure(
      name: "circular contexts",
      text: ##"<ink><context xml:id="a" contextRef="#b"/><context xml:id="b" contextRef="#a"/></ink>"##,
      kind: .importFailure(.circularReference("b")), line: 1, column: 43),
    Failure(
      name: "wrong root", text: "<svg/>",
      kind: .importFailure(.wrongRootElement(found: "svg", expected: "ink")),
      line: 1, column: 1),
    Failure(
      name: "unclosed", text: "<ink><trace>1 2</ink>",
      kind: .importFailure(.invalidXML(.mismatchedEndTag(found: "ink", expected: "trace"))), line: 1,
      column: 16),
    Failure(
      name: "truncated", text: "<ink><trace>1 2",
      kind: .importFailure(.invalidXML(.unexpectedEnd(expected: "</trace>"))), line: 1, column: 16),
    Failure(
      name: "unknown entity", text: "<ink>&nbsp;</ink>",
      kind: .importFailure(.invalidXML(.unknownEntity("nbsp"))), line: 1, column: 6),
    Failure(
      name: "duplicate attribute", text: #"<ink a="1" a="2"/>"#,
      kind: .importFailure(.invalidXML(.duplicateAttribute("a"))), line: 1, column: 12),
    Failure(
      name: "two roots", text: "<ink/><ink/>", kind: .importFailure(.invalidXML(.rootElementCount(2))),
      line: 1, column: 7),
    Failure(
      name: "bad character reference", text: "<ink>&#0;</ink>",
      kind: .importFailure(.invalidXML(.invalidCharacterReference("0"))), line: 1, column: 6),
  ]

  @Test(arguments: failures)
  func malformedDocumentsFailWithTheirLocation(_ failure: Failure) {
    #expect {
      _ = try InkMLImporter.load(Array(failure.text.utf8))
    } throws: { error in
      guard let error = error as? DocumentError else { return false }
      #expect(error.kind == failure.kind)
      #expect(error.location?.line == failure.line)
      #expect(error.location?.column == failure.column)
      return true
    }
  }

  @Test func invalidUTF8AndDeepNestingFail() {
    var bytes = Array("<ink><trace>1 2</trace>".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("</ink>".utf8)
    #expect(
      ImporterTesting.failureKind { try InkMLImporter.load(bytes) }
        == .importFailure(.invalidXML(.invalidUTF8)))
    let deep = String(repeating: "<traceGroup>", count: 10_000)
    #expect(
      ImporterTesting.failureKind { try InkMLImporter.load(Array(("<ink>" + deep).utf8)) }
        == .importFailure(.invalidXML(.nestingTooDeep(limit: 256))))
  }
}
