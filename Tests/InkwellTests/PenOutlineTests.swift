// The pen's outline against the shape it stands for: the union of its discs and the tapered
// capsules between neighbours, sampled point by point.

import Inkwell
import Testing

@testable import InkwellRender

/// Whether `p` lies in the convex hull of discs `a` and `b`: within some disc of the family whose
/// center and radius move linearly from `a` to `b`. |p − c(s)| − r(s) is convex in s, so a
/// ternary search finds its least value.
private func capsuleContains(_ a: PenSample, _ b: PenSample, _ p: Point) -> Bool {
  func excess(_ s: Float) -> Float {
    let c = Point(
      x: a.center.x + (b.center.x - a.center.x) * s, y: a.center.y + (b.center.y - a.center.y) * s)
    return p.distance(to: c) - (a.radius + (b.radius - a.radius) * s)
  }
  var low: Float = 0
  var high: Float = 1
  for _ in 0..<40 {
    let m1 = low + (high - low) / 3
    let m2 = high - (high - low) / 3
    if excess(m1) < excess(m2) { high = m2 } else { low = m1 }
  }
  return Swift.min(excess(0), excess(1), excess((low + high) / 2)) <= 0
}

@Suite("Pen outline")
struct PenOutlineTests {
  @Test("the outline covers the union of its discs and capsules, within the arc tolerance")
  func outlineCoversTheUnionOfDiscs() {
    // Wandering discs 1.5-3 px apart, as the pen samples, on bends no tighter than the widest
    // radius (turns up to 0.35 rad a step: outer joins by a corner, a chord or an arc), the radius
    // swelling and thinning once along the stroke as a pressure stroke does, drawn at alpha 1
    // against an 8 × 8 point sampling of the union. (Where the radius dips between two
    // neighbours, the inner sides can cross past the middle of the second: the join then runs
    // through the disc's center and leaves a sliver of up to a third of a pixel outside the
    // union, which this does not test.)
    var rng = SeededGenerator(seed: 31)
    let side = 48
    let renderer = Renderer(threads: 1)
    for trial in 0..<8 {
      var discs: [PenSample] = []
      var c = Point(x: 14, y: 24)
      var heading: Float = rng.float(-0.5...0.5)
      let thinnest = rng.float(1...2)
      let swell = rng.float(0.5...2)
      for k in 0..<14 {
        discs.append(PenSample(center: c, radius: thinnest + swell * FloatMath.sin(Float.pi * Float(k) / 13)))
        heading += rng.float(-0.35...0.35)
        let step = rng.float(1.5...3)
        c = Point(x: c.x + step * FloatMath.cos(heading), y: c.y + step * FloatMath.sin(heading))
      }
      let outline = PenBrush.outline(of: discs)
      let coverage = renderer.renderLinear(
        [Primitive(path: FlatPath(contours: [outline]), rule: .nonZero, color: LinearColor(.black))],
        width: side, height: side, background: .clear)
      var worst: Float = 0
      var drawn: Float = 0
      var sampled: Float = 0
      for y in 0..<side {
        for x in 0..<side {
          var inside = 0
          for sy in 0..<8 {
            for sx in 0..<8 {
              let p = Point(x: Float(x) + (Float(sx) + 0.5) / 8, y: Float(y) + (Float(sy) + 0.5) / 8)
              var hit = false
              for k in 0..<(discs.count - 1) where !hit {
                let a = discs[k]
                let b = discs[k + 1]
                let reach = Swift.max(a.radius, b.radius) + 0.5
                guard
                  p.x > Swift.min(a.center.x, b.center.x) - reach,
                  p.x < Swift.max(a.center.x, b.center.x) + reach,
                  p.y > Swift.min(a.center.y, b.center.y) - reach,
                  p.y < Swift.max(a.center.y, b.center.y) + reach
                else { continue }
                hit = capsuleContains(a, b, p)
              }
              if hit { inside += 1 }
            }
          }
          let expected = Float(inside) / 64
          let actual = coverage[(y * side + x) * 4 + 3]
          worst = Swift.max(worst, abs(actual - expected))
          drawn += actual
          sampled += expected
        }
      }
      // 64 samples put a pixel's coverage within about 1/16 of its area where an edge crosses it;
      // the outline's corners and chords stay within 0.045 px of the boundary.
      #expect(worst < 0.12, "trial \(trial): a pixel's coverage differs by \(worst)")
      #expect(abs(drawn - sampled) < 0.004 * sampled, "trial \(trial): area \(drawn) against \(sampled)")
    }
  }
}
