import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scene the harness generates itself: seeded, so every run and every machine draws the same
/// strokes, and sized to stand for a real workload without shipping a file.
///
/// Strokes are wandering, handwriting-like paths: a point every 1–4 px, a heading that turns by a
/// curvature which itself drifts at random (so a stroke curls and straightens like a pen), and a
/// force that rises and falls smoothly along the stroke.
struct SyntheticScene {
  enum Layout {
    /// Strokes written left to right along ruled lines, like a page of notes.
    case textLines(lineSpacing: Float, margin: Float)
    /// Strokes started anywhere on the canvas, like a sketch.
    case scattered
  }

  enum Palette {
    /// Opaque near-black and blue-black inks.
    case darkInk
    /// Any color, alpha 0.3–1.0.
    case randomTranslucent
  }

  let name: String
  let summary: String
  let width: Int
  let height: Int
  let strokeCount: Int
  /// Nominal pen width in pixels at scale 1.
  let strokeWidths: ClosedRange<Float>
  let pointsPerStroke: ClosedRange<Int>
  /// Largest turn of the heading per point, radians.
  let maximumCurvature: Float
  let layout: Layout
  let palette: Palette
  let seed: UInt64

  static let notes = SyntheticScene(
    name: "notes",
    summary: "1536×2048 page of notes: 600 handwriting-like strokes, 2–6 px, opaque dark ink",
    width: 1536, height: 2048, strokeCount: 600, strokeWidths: 2...6, pointsPerStroke: 20...90,
    maximumCurvature: 0.3, layout: .textLines(lineSpacing: 56, margin: 80), palette: .darkInk,
    seed: 0x6E6F_7465_73)

  static let sketch = SyntheticScene(
    name: "sketch",
    summary: "2048×2048 sketch: 2000 wandering strokes, 1–40 px, random colors, alpha 0.3–1.0",
    width: 2048, height: 2048, strokeCount: 2000, strokeWidths: 1...40, pointsPerStroke: 40...400,
    maximumCurvature: 0.08, layout: .scattered, palette: .randomTranslucent, seed: 0x736B_6574_6368)

  static let all = [notes, sketch]

  func document() -> Document {
    var random = SplitMix64(seed: seed)
    var strokes: [Stroke] = []
    strokes.reserveCapacity(strokeCount)
    var penX: Float = 0
    var baseline: Float = 0
    if case .textLines(let lineSpacing, let margin) = layout {
      penX = margin
      baseline = margin + lineSpacing
    }
    for _ in 0..<strokeCount {
      let start: Point
      switch layout {
      case .textLines(let lineSpacing, let margin):
        if penX > Float(width) - margin {
          penX = margin + random.nextFloat(in: 0...24)
          baseline += lineSpacing
          if baseline > Float(height) - margin { baseline = margin + lineSpacing }
        }
        start = Point(x: penX, y: baseline + random.nextFloat(in: -12...12))
      case .scattered:
        start = Point(
          x: random.nextFloat(in: 0...Float(width)), y: random.nextFloat(in: 0...Float(height)))
      }
      let stroke = stroke(from: start, baseline: baseline, using: &random)
      strokes.append(stroke)
      if let end = stroke.path.controlPoints.last?.location {
        penX = Swift.max(penX, end.x) + random.nextFloat(in: 4...28)
      }
    }
    return Document(
      bounds: Rect(x: 0, y: 0, width: Float(width), height: Float(height)),
      drawing: Drawing(strokes: strokes))
  }

  /// One stroke from `start`. On ruled lines the heading is also steered towards a point a little
  /// ahead on `baseline`, so strokes curl like letters yet move along the line.
  private func stroke(from start: Point, baseline: Float, using random: inout SplitMix64) -> Stroke {
    let penWidth = random.nextFloat(in: strokeWidths)
    let pointCount = random.nextInt(in: pointsPerStroke)
    var location = start
    var heading = random.nextFloat(in: -Float.pi...Float.pi)
    var curvature: Float = 0
    var forcePhase = random.nextFloat(in: 0...(2 * Float.pi))
    var time: Float = 0
    var points: [StrokePoint] = []
    points.reserveCapacity(pointCount)
    for _ in 0..<pointCount {
      let force = 0.6 + 0.35 * FloatMath.sin(forcePhase)
      points.append(
        StrokePoint(
          location: location, timeOffset: time, size: Size(width: penWidth, height: penWidth),
          force: force))
      let step = random.nextFloat(in: 1...4)
      curvature += random.nextFloat(in: -0.3...0.3) * maximumCurvature
      curvature = Swift.min(Swift.max(curvature, -maximumCurvature), maximumCurvature)
      heading += curvature
      if case .textLines = layout {
        let ahead = FloatMath.atan2(baseline - location.y, 24)
        heading += 0.08 * remainder(ahead - heading, 2 * Float.pi)
      }
      location = Point(
        x: Swift.min(Swift.max(location.x + step * FloatMath.cos(heading), 0), Float(width)),
        y: Swift.min(Swift.max(location.y + step * FloatMath.sin(heading), 0), Float(height)))
      forcePhase += random.nextFloat(in: 0.03...0.15)
      time += 1 / 240
    }
    return Stroke(
      ink: Ink(type: .pen, color: color(using: &random), width: penWidth),
      path: StrokePath(controlPoints: points))
  }

  private func color(using random: inout SplitMix64) -> Color {
    switch palette {
    case .darkInk:
      let gray = random.nextFloat(in: 0.02...0.12)
      return Color(red: gray, green: gray, blue: gray + random.nextFloat(in: 0...0.25))
    case .randomTranslucent:
      return Color(
        red: random.nextUnitFloat(), green: random.nextUnitFloat(), blue: random.nextUnitFloat(),
        alpha: random.nextFloat(in: 0.3...1))
    }
  }
}
