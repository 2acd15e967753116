import InkwellModel

/// A small deterministic generator (SplitMix64) for seeded test scenes.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func float(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &self) }
}

/// A random handwriting-like scene: `count` strokes of wandering points with varying force.
func randomDrawing(seed: UInt64, count: Int, width: Float, height: Float) -> Drawing {
  var rng = SeededGenerator(seed: seed)
  var strokes: [Stroke] = []
  for _ in 0..<count {
    var p = Point(x: rng.float(0...width), y: rng.float(0...height))
    var heading = rng.float(0...(2 * .pi))
    let inkWidth = rng.float(1...12)
    var points: [StrokePoint] = []
    for i in 0..<Int.random(in: 1...40, using: &rng) {
      points.append(
        StrokePoint(
          location: p, timeOffset: Float(i) * 0.01, size: Size(width: inkWidth, height: inkWidth),
          force: rng.float(0...1)))
      heading += rng.float(-0.8...0.8)
      let step = rng.float(0.5...8)
      p = Point(x: p.x + step * FloatMath.cos(heading), y: p.y + step * FloatMath.sin(heading))
    }
    let color = Color(
      red: rng.float(0...1), green: rng.float(0...1), blue: rng.float(0...1), alpha: rng.float(0.2...1))
    strokes.append(
      Stroke(ink: Ink(type: .pen, color: color, width: inkWidth), path: StrokePath(controlPoints: points)))
  }
  return Drawing(strokes: strokes)
}
