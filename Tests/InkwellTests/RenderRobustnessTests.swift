// Seeded documents with the values a damaged or hostile file can carry that the loaders still
// accept (widths up to float's largest, coordinates near it, transforms that blow them up, masks
// and erasers of any size), drawn by every ink: each renders or throws, on one thread and two,
// never traps or hangs. A structured search of this kind found an ink ten million units wide
// trapping the pen's arcs, one 10¹⁸ wide sampling a far-reaching path until memory ran out, and a
// stroke whose box overflowed float trapping the frame of a document without a canvas.

import Inkwell
import Testing

@Suite("Render robustness")
struct RenderRobustnessTests {
  static let extremes: [Float] = [0, 1e-30, 0.5, 3, 40, 1e7, 1e20, 3.4e38]
  static let coordinates: [Float] = [-3.4e38, -1e30, -1e7, 1e-30, 1e7, 1e30, 3.4e38]

  /// A document of 1–4 strokes on a 64 × 64 canvas (none when `canvas` is false), its values
  /// mostly ordinary and now and then extreme.
  static func document(_ random: inout SeededGenerator, canvas: Bool) -> Document {
    var strokes: [Stroke] = []
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let count = Int.random(in: 0...30, using: &random)
      var points: [StrokePoint] = []
      var x = random.float(0...64)
      var y = random.float(0...64)
      for i in 0..<count {
        x += random.float(-6...6)
        y += random.float(-6...6)
        var location = Point(x: x, y: y)
        if Int.random(in: 0..<25, using: &random) == 0 {
          location.x = coordinates.randomElement(using: &random)!
        }
        if Int.random(in: 0..<25, using: &random) == 0 {
          location.y = coordinates.randomElement(using: &random)!
        }
        let width =
          Int.random(in: 0..<10, using: &random) == 0
          ? extremes.randomElement(using: &random)! : random.float(1...8)
        points.append(
          StrokePoint(
            location: location, timeOffset: Float(i) * 0.01, size: Size(width: width, height: width),
            opacity: random.float(0...2), force: random.float(0...1), azimuth: random.float(-7...7),
            altitude: random.float(0...1.6), rollAngle: random.float(-7...7),
            secondaryScale: Int.random(in: 0..<8, using: &random) == 0 ? 1e7 : random.float(0...2),
            threshold: random.float(0...1), lateralJitter: random.float(0...2)))
      }
      let inkWidth =
        Int.random(in: 0..<4, using: &random) == 0
        ? extremes.randomElement(using: &random)! : random.float(1...12)
      var stroke = Stroke(
        ink: Ink(
          type: InkType.allCases.randomElement(using: &random)!,
          color: Color(red: random.float(0...1), green: 0.2, blue: 0.4, alpha: random.float(0...1)),
          width: inkWidth),
        path: StrokePath(controlPoints: points), randomSeed: UInt32.random(in: 0...9, using: &random))
      if Int.random(in: 0..<6, using: &random) == 0 {
        let big: Float = [1, 1e-20, 1e20].randomElement(using: &random)!
        stroke.transform = AffineTransform(a: big, b: 0.3, c: -0.2, d: big, tx: random.float(-50...50), ty: 3)
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        let clip = (0..<Int.random(in: 0...2, using: &random)).map { _ in
          (0..<Int.random(in: 1...8, using: &random)).map { _ in
            Point(x: random.float(-10...74), y: random.float(-10...74))
          }
        }
        let sweep = EraserSweep(
          centers: (0..<6).map { _ in Point(x: random.float(0...64), y: random.float(0...64)) },
          radius: extremes.randomElement(using: &random)!)
        stroke.mask = StrokeMask(clip: clip, fillRule: .evenOdd, erasures: [sweep])
      }
      strokes.append(stroke)
    }
    return Document(
      bounds: canvas ? Rect(x: 0, y: 0, width: 64, height: 64) : nil, drawing: Drawing(strokes: strokes))
  }

  @Test("extreme documents render or throw, the same on one thread and two")
  func extremeDocuments() {
    var random = SeededGenerator(seed: 0x5EED_2026)
    var rendered = 0
    for round in 0..<160 {
      let document = Self.document(&random, canvas: round % 4 != 0)
      let options = RenderOptions(threads: 1, maxPixels: 1 << 16)
      var two = options
      two.threads = 2
      let one = try? document.render(options)
      #expect(one == (try? document.render(two)), "round \(round)")
      if one != nil { rendered += 1 }
    }
    // Most documents draw something; the canvasless ones whose strokes overflow are refused.
    #expect(rendered > 100, "\(rendered) of 160 rendered")
  }
}
