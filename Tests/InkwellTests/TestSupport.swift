import InkwellModel
import InkwellRender

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

/// How `randomDrawing` shapes its strokes.
struct RandomStrokeShape {
  var points: ClosedRange<Int> = 1...40
  var inkWidth: ClosedRange<Float> = 1...12
  var force: ClosedRange<Float> = 0...1
  /// Largest change of heading between points, radians.
  var turn: Float = 0.8
  var step: ClosedRange<Float> = 0.5...8
  var color: (inout SeededGenerator) -> Color = { rng in
    Color(red: rng.float(0...1), green: rng.float(0...1), blue: rng.float(0...1), alpha: rng.float(0.2...1))
  }
}

/// A random handwriting-like scene: `count` strokes of wandering points with varying force.
func randomDrawing(
  seed: UInt64, count: Int, width: Float, height: Float, shape: RandomStrokeShape = RandomStrokeShape()
) -> Drawing {
  var rng = SeededGenerator(seed: seed)
  var strokes: [Stroke] = []
  for _ in 0..<count {
    var p = Point(x: rng.float(0...width), y: rng.float(0...height))
    var heading = rng.float(0...(2 * .pi))
    let inkWidth = rng.float(shape.inkWidth)
    var points: [StrokePoint] = []
    for i in 0..<Int.random(in: shape.points, using: &rng) {
      points.append(
        StrokePoint(
          location: p, timeOffset: Float(i) * 0.01, size: Size(width: inkWidth, height: inkWidth),
          force: rng.float(shape.force)))
      heading += rng.float(-shape.turn...shape.turn)
      let step = rng.float(shape.step)
      p = Point(x: p.x + step * FloatMath.cos(heading), y: p.y + step * FloatMath.sin(heading))
    }
    let color = shape.color(&rng)
    strokes.append(
      Stroke(ink: Ink(type: .pen, color: color, width: inkWidth), path: StrokePath(controlPoints: points)))
  }
  return Drawing(strokes: strokes)
}

/// `outline` filled non-zero at alpha 1 on a `side` × `side` canvas, against an `n` × `n` point
/// sampling in each pixel of the shape `contains` stands for: the largest difference in a pixel,
/// and the drawn and the sampled area.
func compareOutline(
  _ outline: [Point], withShape contains: (Point) -> Bool, side: Int, samples n: Int
) -> (worst: Float, drawn: Float, sampled: Float) {
  let coverage = Renderer(threads: 1).renderLinear(
    [Primitive(path: FlatPath(contours: [outline]), rule: .nonZero, color: LinearColor(.black))],
    width: side, height: side, background: .clear)
  var worst: Float = 0
  var drawn: Float = 0
  var sampled: Float = 0
  for y in 0..<side {
    for x in 0..<side {
      var inside = 0
      for sy in 0..<n {
        for sx in 0..<n {
          let p = Point(
            x: Float(x) + (Float(sx) + 0.5) / Float(n), y: Float(y) + (Float(sy) + 0.5) / Float(n))
          if contains(p) { inside += 1 }
        }
      }
      let expected = Float(inside) / Float(n * n)
      let actual = coverage[(y * side + x) * 4 + 3]
      worst = Swift.max(worst, abs(actual - expected))
      drawn += actual
      sampled += expected
    }
  }
  return (worst, drawn, sampled)
}
