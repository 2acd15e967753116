// The benchmark's scenes: handwriting-like strokes from a seeded generator, the same on every
// machine, so schedulers are compared on identical work.

import Inkwell

/// SplitMix64 (Steele, Lea and Flood): a tiny, fast, well-mixed 64-bit generator.
struct SeededGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in `range`.
  mutating func uniform(_ range: ClosedRange<Float>) -> Float {
    let unit = Float(next() >> 40) / Float(1 << 24)
    return range.lowerBound + unit * (range.upperBound - range.lowerBound)
  }
}

/// A named drawing on a canvas of `width` × `height` pixels, placed by `view`.
struct BenchScene {
  let name: String
  let width: Int
  let height: Int
  let drawing: Drawing
  /// Document units to pixels; the seeded scenes are drawn in pixels.
  var view: AffineTransform = .identity

  /// A page of notes: `strokes` cursive words along ruled lines, 2–6 px, opaque dark pen.
  static func notes(width: Int = 1536, height: Int = 2048, strokes: Int = 600, seed: UInt64 = 1) -> BenchScene
  {
    var random = SeededGenerator(seed: seed)
    let margin: Float = 96
    let lineSpacing: Float = 44
    var baseline: Float = 120
    var cursor = margin
    var result: [Stroke] = []
    for _ in 0..<strokes {
      let letters = Int(random.uniform(2...8))
      let letterWidth = random.uniform(10...16)
      if cursor + Float(letters) * letterWidth > Float(width) - margin {
        cursor = margin
        baseline += lineSpacing
        if baseline > Float(height) - 80 { baseline = 120 + random.uniform(0...lineSpacing) }
      }
      let tip = random.uniform(2...6)
      let gray = random.uniform(0.05...0.2)
      let color = Color(red: gray, green: gray, blue: gray + 0.1)
      result.append(
        Stroke(
          ink: Ink(type: .pen, color: color, width: tip),
          path: cursiveWord(
            at: Point(x: cursor, y: baseline), letters: letters, letterWidth: letterWidth, width: tip,
            random: &random)))
      cursor += Float(letters) * letterWidth + random.uniform(12...24)
    }
    return BenchScene(name: "notes", width: width, height: height, drawing: Drawing(strokes: result))
  }

  /// A sketch: `strokes` wandering strokes anywhere, 1–40 px, random colors at alpha 0.3–1.
  static func sketch(width: Int = 2048, height: Int = 2048, strokes: Int = 2000, seed: UInt64 = 2)
    -> BenchScene
  {
    var random = SeededGenerator(seed: seed)
    var result: [Stroke] = []
    for _ in 0..<strokes {
      let tip = random.uniform(1...40)
      let color = Color(
        red: random.uniform(0...1), green: random.uniform(0...1), blue: random.uniform(0...1),
        alpha: random.uniform(0.3...1))
      let start = Point(x: random.uniform(0...Float(width)), y: random.uniform(0...Float(height)))
      result.append(
        Stroke(
          ink: Ink(type: .pen, color: color, width: tip),
          path: wander(from: start, points: Int(random.uniform(20...160)), width: tip, random: &random)))
    }
    return BenchScene(name: "sketch", width: width, height: height, drawing: Drawing(strokes: result))
  }

  /// A word in cursive: loops riding on a baseline, a point every ~2 px, force rising and falling.
  private static func cursiveWord(
    at origin: Point, letters: Int, letterWidth: Float, width: Float, random: inout SeededGenerator
  ) -> StrokePath {
    let pointsPerLetter = Int(letterWidth * 2)
    let xHeight = random.uniform(10...16)
    let slant = random.uniform(0.1...0.35)
    var points: [StrokePoint] = []
    var phase: Float = 0
    for i in 0..<(letters * pointsPerLetter) {
      let t = Float(i) / Float(pointsPerLetter)
      phase += 2 * .pi / Float(pointsPerLetter) * random.uniform(0.8...1.2)
      let rise = (1 - FloatMath.cos(phase)) / 2 * xHeight
      let x = origin.x + t * letterWidth + FloatMath.sin(phase) * letterWidth * 0.3 + rise * slant
      let force = 0.6 + 0.4 * FloatMath.sin(Float(i) * 0.05)
      points.append(
        StrokePoint(
          location: Point(x: x, y: origin.y - rise), timeOffset: Float(i) / 120,
          size: Size(width: width, height: width), force: force))
    }
    return StrokePath(controlPoints: points)
  }

  /// A random walk whose heading turns by a slowly drifting curvature, a point every 1–4 px.
  private static func wander(
    from start: Point, points count: Int, width: Float, random: inout SeededGenerator
  )
    -> StrokePath
  {
    var location = start
    var heading = random.uniform(0...(2 * .pi))
    var curvature: Float = 0
    var points: [StrokePoint] = []
    for i in 0..<count {
      let force = 0.5 + 0.5 * FloatMath.sin(Float(i) / Float(count) * .pi)
      points.append(
        StrokePoint(
          location: location, timeOffset: Float(i) / 120, size: Size(width: width, height: width),
          force: force))
      curvature = Swift.max(-0.2, Swift.min(0.2, curvature + random.uniform(-0.04...0.04)))
      heading += curvature
      let step = random.uniform(1...4)
      location = location + Point(x: FloatMath.cos(heading), y: FloatMath.sin(heading)) * step
    }
    return StrokePath(controlPoints: points)
  }
}
