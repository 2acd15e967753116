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
    /// Highlighter yellow, pink, green or blue at alpha 0.35.
    case highlighter
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

  static let highlighter = SyntheticScene(
    name: "highlighter",
    summary: "2048×2048: 150 long highlighter strokes, 20–40 px, alpha 0.35, heavily overlapping",
    width: 2048, height: 2048, strokeCount: 150, strokeWidths: 20...40, pointsPerStroke: 300...700,
    maximumCurvature: 0.02, layout: .scattered, palette: .highlighter, seed: 0x6869_6768_6C69)

  static let big = SyntheticScene(
    name: "big",
    summary: "8192×8192: 10 000 wandering strokes, 2–20 px, random colors, alpha 0.3–1.0",
    width: 8192, height: 8192, strokeCount: 10_000, strokeWidths: 2...20, pointsPerStroke: 20...120,
    maximumCurvature: 0.12, layout: .scattered, palette: .randomTranslucent, seed: 0x6269_67)

  /// The memory scene: made like `big`, four times the strokes on four times the area.
  static let huge = SyntheticScene(
    name: "huge",
    summary: "16384×16384: 40 000 strokes made like big (the memory scene)",
    width: 16384, height: 16384, strokeCount: 40_000, strokeWidths: 2...20, pointsPerStroke: 20...120,
    maximumCurvature: 0.12, layout: .scattered, palette: .randomTranslucent, seed: 0x6875_6765)

  /// Document `index` of the thumbnail batch: a 1536×2048 page with 60 strokes of notes.
  static func thumbnailPage(_ index: Int) -> SyntheticScene {
    SyntheticScene(
      name: "thumbs/\(index)", summary: "1536×2048 page: 60 handwriting-like strokes, 2–6 px",
      width: 1536, height: 2048, strokeCount: 60, strokeWidths: 2...6, pointsPerStroke: 20...90,
      maximumCurvature: 0.3, layout: .textLines(lineSpacing: 56, margin: 80), palette: .darkInk,
      seed: 0x7468_756D_6200 + UInt64(index))
  }

  /// The scenes of the staged table (each also runs in the peer comparison).
  static let all = [notes, sketch, highlighter]

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
    case .highlighter:
      let colors: [(Float, Float, Float)] = [
        (1, 0.93, 0.2), (1, 0.45, 0.75), (0.5, 0.95, 0.4), (0.4, 0.75, 1),
      ]
      let (red, green, blue) = colors[random.nextInt(in: 0...(colors.count - 1))]
      return Color(red: red, green: green, blue: blue, alpha: 0.35)
    }
  }
}
