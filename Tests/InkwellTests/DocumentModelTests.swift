import InkwellModel
import Testing

@Suite struct DocumentModelTests {
  @Test("the bounds of an array of points are the bounds of the same points as a sequence")
  func boundingArray() {
    var rng = SeededGenerator(seed: 12)
    let special: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, 1e30, -1e30]
    for round in 0..<400 {
      let count = round % 23
      let points = (0..<count).map { _ in
        Point(
          x: Int.random(in: 0..<9, using: &rng) == 0
            ? special[Int.random(in: 0..<special.count, using: &rng)] : rng.float(-500...500),
          y: Int.random(in: 0..<9, using: &rng) == 0
            ? special[Int.random(in: 0..<special.count, using: &rng)] : rng.float(-500...500))
      }
      let expected = Rect(bounding: AnySequence(points))
      let bounds = Rect(bounding: points)
      #expect(bounds == expected, "\(points)")
    }
  }

  static func stroke(
    _ type: InkType, roll: Float = 0, points: [Point] = [Point(x: 0, y: 0), Point(x: 10, y: 0)]
  )
    -> Stroke
  {
    Stroke(
      ink: Ink(type: type, color: .black),
      path: StrokePath(
        controlPoints: points.map {
          StrokePoint(location: $0, size: Size(width: 2, height: 2), rollAngle: roll)
        }))
  }

  @Test func requiredContentVersions() {
    #expect(Self.stroke(.pen).requiredContentVersion == 1)
    #expect(Self.stroke(.marker).requiredContentVersion == 1)
    #expect(Self.stroke(.watercolor).requiredContentVersion == 2)
    #expect(Self.stroke(.fountainPen).requiredContentVersion == 2)
    #expect(Self.stroke(.fountainPen, roll: 0.3).requiredContentVersion == 3)
    #expect(Self.stroke(.pen, roll: 0.3).requiredContentVersion == 1)
    #expect(Self.stroke(.reed).requiredContentVersion == 4)
    #expect(Drawing().requiredContentVersion == 1)
    let drawing = Drawing(strokes: [Self.stroke(.pen), Self.stroke(.fountainPen, roll: 1)])
    #expect(drawing.requiredContentVersion == 3)
    #expect(Document(drawing: drawing).requiredContentVersion == 3)
    for type in InkType.allCases { #expect(type.validWidthRange.contains(type.defaultWidth)) }
  }

  @Test func featureSetAlgebra() {
    #expect(FeatureSet.empty.isSubset(of: .version1))
    #expect(FeatureSet.version1.isSubset(of: .latest))
    #expect(!FeatureSet.latest.isSubset(of: .version1))
    var set = FeatureSet.version1
    #expect(set.contains(.text))
    let removed = set.remove(.text)
    let removedAgain = set.remove(.text)
    #expect(removed && !removedAgain)
    #expect(!set.contains(.text))
    #expect(set.isSubset(of: .version1) && !FeatureSet.version1.isSubset(of: set))
    let inserted = set.insert(.text)
    #expect(inserted)
    #expect(set == .version1)
    set.lineMarkerPositions = .start
    #expect(set.isSubset(of: .version1))
    #expect(LineMarkerPositions.both == [.start, .end])
    #expect(FeatureSet.version1.allows(Self.stroke(.pencil)))
    #expect(!FeatureSet.version1.allows(Self.stroke(.crayon)))
    var fountain = FeatureSet.latest
    fountain.contentVersion = 2
    #expect(fountain.allows(Self.stroke(.fountainPen)))
    #expect(!fountain.allows(Self.stroke(.fountainPen, roll: 0.5)))
  }

  @Test func markupOperations() {
    var markup = Markup(
      bounds: Rect(x: 0, y: 0, width: 100, height: 100), drawing: Drawing(strokes: [Self.stroke(.pen)]))
    markup.append(contentsOf: Drawing(strokes: [Self.stroke(.reed)]))
    #expect(markup.elements.count == 1)
    #expect(markup.requiredContentVersion == 4)
    markup.elements.append(.unknown(UnknownElement(kind: "image")))
    markup.append(contentsOf: Markup(drawing: Drawing(strokes: [Self.stroke(.crayon)])))
    #expect(markup.elements.map(\.kind) == ["drawing", "image", "drawing"])
    #expect(markup.drawing.strokes.map(\.ink.type) == [.pen, .reed, .crayon])
    let frame = markup.contentsRenderFrame
    #expect(frame == markup.drawing.bounds && !frame.isEmpty)
    markup.transformContent(AffineTransform(translationX: 5, y: 7))
    #expect(
      markup.contentsRenderFrame
        == Rect(x: frame.minX + 5, y: frame.minY + 7, width: frame.width, height: frame.height))
    #expect(markup.bounds == Rect(x: 0, y: 0, width: 100, height: 100))
    markup.removeContentUnsupported(by: .version1)
    #expect(markup.elements.map(\.kind) == ["drawing", "drawing"])
    #expect(markup.drawing.strokes.map(\.ink.type) == [.pen])
    var none = markup
    none.removeContentUnsupported(by: .empty)
    #expect(none.elements.isEmpty && none.contentsRenderFrame == .zero)
    var document = Document(bounds: nil, drawing: Drawing(strokes: [Self.stroke(.pen)]))
    document.drawing.strokes.append(Self.stroke(.marker))
    #expect(document.markup.elements.count == 1 && document.drawing.strokes.count == 2)
  }

  @Test func maskedPathRangesFollowClipAndErasures() throws {
    var stroke = Self.stroke(.pen, points: (0...10).map { Point(x: Float($0), y: 0) })
    #expect(stroke.maskedPathRanges == [0...10])
    let clip = [[Point(x: 2, y: -1), Point(x: 8, y: -1), Point(x: 8, y: 1), Point(x: 2, y: 1)]]
    stroke.mask = StrokeMask(clip: clip, erasures: [EraserSweep(centers: [Point(x: 5, y: 0)], radius: 1)])
    let ranges = stroke.maskedPathRanges
    try #require(ranges.count == 2)
    #expect(abs(ranges[0].lowerBound - 2) < 0.01 && abs(ranges[0].upperBound - 4) < 0.01)
    #expect(abs(ranges[1].lowerBound - 6) < 0.01 && abs(ranges[1].upperBound - 8) < 0.01)
    let bounds = try #require(stroke.renderBounds)
    #expect(bounds.minX == 2 && bounds.maxX == 8)
    stroke.mask = StrokeMask(clip: [[Point(x: 20, y: 20), Point(x: 30, y: 20), Point(x: 30, y: 30)]])
    #expect(stroke.maskedPathRanges.isEmpty)
    #expect(stroke.renderBounds == nil)
  }

  @Test("bounds that overflow float are no bounds, and mapping an infinite box does not trap")
  func overflowingBounds() {
    let far: Float = 3.4e38
    let wild = Stroke(
      ink: Ink(type: .pen, color: .black, width: 2),
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: -far, y: 10), size: Size(width: 2, height: 2)),
        StrokePoint(location: Point(x: far, y: 20), size: Size(width: 2, height: 2)),
      ]))
    // The hull is 6.8e38 wide: infinite in float, and the map's zero entries times it are NaN.
    #expect(wild.renderBounds == nil)
    let tame = Stroke(
      ink: Ink(type: .pen, color: .black, width: 2),
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 10, y: 10), size: Size(width: 2, height: 2)),
        StrokePoint(location: Point(x: 30, y: 20), size: Size(width: 2, height: 2)),
      ]))
    let drawing = Drawing(strokes: [wild, tame])
    #expect(drawing.bounds == tame.renderBounds)
    // Zero entries times an infinite side are NaN: mapping such a box or one that is not a number
    // gives a box whose coordinates say so, where it had trapped.
    let wide = AffineTransform.identity.apply(Rect(x: 0, y: 0, width: .infinity, height: 5))
    #expect(wide.minX == 0 && wide.maxX == .infinity && wide.minY == 0 && wide.maxY == 5)
    let unknown = AffineTransform.identity.apply(Rect(x: .nan, y: 1, width: 2, height: 3))
    #expect(unknown.minX.isNaN && unknown.minY.isNaN)
  }
}
