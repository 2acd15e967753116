// The nib sweep's outline against the area it stands for: the union of the convex hulls of
// consecutive nib placements, sampled point by point.

import Inkwell
import Testing

@testable import InkwellRender

/// The convex hull of `points`, counterclockwise in the plane's orientation.
private func convexHull(_ points: [Point]) -> [Point] {
  let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
  func turn(_ o: Point, _ a: Point, _ b: Point) -> Float {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
  }
  var lower: [Point] = []
  for p in sorted {
    while lower.count >= 2 && turn(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 {
      lower.removeLast()
    }
    lower.append(p)
  }
  var upper: [Point] = []
  for p in sorted.reversed() {
    while upper.count >= 2 && turn(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 {
      upper.removeLast()
    }
    upper.append(p)
  }
  return Array(lower.dropLast()) + Array(upper.dropLast())
}

private func hullContains(_ hull: [Point], _ p: Point) -> Bool {
  for i in hull.indices {
    let a = hull[i]
    let b = hull[(i + 1) % hull.count]
    if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
  }
  return true
}

@Suite("Nib sweep")
struct NibSweepTests {
  @Test("a nib swept along a wandering path covers the union of its placements' hulls, within bounds")
  func sweepCoversTheUnionOfHulls() {
    // Rectangle and ellipse nibs changing size from sample to sample, 1.5-3 px apart on gentle
    // bends, drawn at alpha 1 against a 6 × 6 point sampling of the union of the convex hulls of
    // consecutive placements.
    var rng = SeededGenerator(seed: 5)
    let side = 48
    var far = 0
    for trial in 0..<16 {
      var samples: [NibSample] = []
      var c = Point(x: 14, y: 24)
      var heading: Float = rng.float(-0.5...0.5)
      var length = rng.float(3...8)
      let angle = rng.float(-1...1)
      for _ in 0..<12 {
        let nib =
          trial % 2 == 0
          ? NibSweep.rectangle(length: length, thickness: length * 0.15, angle: angle)
          : NibSweep.ellipse(major: length / 2, minor: length / 5, angle: angle)
        samples.append(NibSample(center: c, nib: nib))
        heading += rng.float(-0.35...0.35)
        length = Swift.min(Swift.max(length + rng.float(-0.8...0.8), 2), 9)
        let step = rng.float(1.5...3)
        c = Point(x: c.x + step * FloatMath.cos(heading), y: c.y + step * FloatMath.sin(heading))
      }
      let hulls = (0..<(samples.count - 1)).map { k in
        convexHull(
          samples[k].nib.map { samples[k].center + $0 }
            + samples[k + 1].nib.map { samples[k + 1].center + $0 })
      }
      let (worst, drawn, sampled) = compareOutline(
        NibSweep.outline(of: samples), withShape: { p in hulls.contains { hullContains($0, p) } }, side: side,
        samples: 6)
      // Where the path runs nearly along a thin rectangle's long axis, small wiggles move the
      // support between the nib's ends; the sides then meet the nib at vertices far apart and
      // the outline still strays from the union by up to about a fifth of a pixel's coverage,
      // and its area by up to 3 %. Elsewhere the 36 samples' own error dominates.
      #expect(worst < 0.25, "trial \(trial): a pixel's coverage differs by \(worst)")
      #expect(abs(drawn - sampled) < 0.035 * sampled, "trial \(trial): area \(drawn) against \(sampled)")
      if worst > 0.15 { far += 1 }
    }
    #expect(far <= 2, "\(far) of 16 sweeps have a pixel off by more than 0.15")
  }

  @Test("the support search picks the vertex of the scan in order, near-ties and odd values included")
  func supportMatchesTheScan() {
    var rng = SeededGenerator(seed: 0x5EED_0017)
    let odd: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, 1e30, -1e30, 1e-30]
    for trial in 0..<20_000 {
      let count = [3, 4, 4, 5, 8, 12, 16, 16, 16][trial % 9]
      let scale = [Float(1e-3), 1, 40, 3000][trial / 9 % 4]
      var nib = (0..<count).map { _ in Point(x: rng.float(-1...1) * scale, y: rng.float(-1...1) * scale) }
      // Near-ties: a vertex repeated, or moved to within a few 10⁻⁶ of another's dot.
      if trial % 3 == 0, count > 1 {
        let k = Int.random(in: 1..<count, using: &rng)
        nib[k] = nib[Int.random(in: 0..<k, using: &rng)]
        nib[k].x += [0, 1e-6, -1e-6, 2e-6, 5e-7][trial / 3 % 5]
      }
      if trial % 17 == 0 { nib[Int.random(in: 0..<count, using: &rng)].y = odd[trial / 17 % odd.count] }
      var n = Point(x: rng.float(-1...1), y: rng.float(-1...1))
      if trial % 29 == 0 { n = Point(x: 1, y: 0) }
      if trial % 31 == 0 { n.x = odd[trial / 31 % odd.count] }
      nib.withUnsafeBufferPointer { nib in
        let found = NibSweep.support(nib, n)
        let scanned = NibSweep.scannedSupport(nib, n)
        #expect(
          found == scanned, "trial \(trial): \(found) against \(scanned), nib \(Array(nib)), direction \(n)")
      }
    }
  }

  @Test("an ink's nibs laid end to end sweep the outline of the same nibs as arrays, mirrored maps too")
  func laidOutNibsSweepAsArrays() {
    var rng = SeededGenerator(seed: 0x5EED_0018)
    let maps = [
      AffineTransform(a: 0.17, b: 0, c: 0, d: 0.17, tx: 3, ty: 4),
      AffineTransform(a: -1.3, b: 0.2, c: 0.1, d: 1.1, tx: 300, ty: 0),
      AffineTransform(a: 2, b: 0.5, c: -0.4, d: 1.5, tx: 0, ty: 0),
    ]
    for trial in 0..<60 {
      var points: [StrokePoint] = []
      var p = Point(x: rng.float(50...150), y: rng.float(50...150))
      var heading = rng.float(0...6.28)
      for i in 0..<Int.random(in: 1...40, using: &rng) {
        points.append(
          StrokePoint(
            location: p, timeOffset: Float(i) / 120,
            size: Size(width: rng.float(1...9), height: rng.float(1...9)),
            force: rng.float(0...1), azimuth: rng.float(-4...4), altitude: rng.float(0.2...1.5)))
        heading += rng.float(-1.2...1.2)
        let step = rng.float(0.5...6)
        p = Point(x: p.x + step * FloatMath.cos(heading), y: p.y + step * FloatMath.sin(heading))
      }
      let stroke = Stroke(
        ink: Ink(type: .pencil, color: .black, width: 4), path: StrokePath(controlPoints: points))
      guard let samples = StrokeSamples(stroke: stroke, view: maps[trial % maps.count]) else { continue }
      for ellipse in [true, false] {
        func shape(_ sample: InkSample) -> NibShape {
          let size = sample.point.size
          let angle = sample.point.azimuth
          return ellipse
            ? .ellipse(major: size.width, minor: size.height / 2, angle: angle)
            : .rectangle(length: size.width, thickness: size.height / 4, angle: angle)
        }
        let laidOut = InkSupport.sweep(samples, nib: shape)
        let arrays = NibSweep.outline(
          of: samples.samples.map { sample in
            let nib: [Point]
            switch shape(sample) {
            case .ellipse(let major, let minor, let angle):
              nib = NibSweep.ellipse(major: major, minor: minor, angle: angle)
            case .rectangle(let length, let thickness, let angle):
              nib = NibSweep.rectangle(length: length, thickness: thickness, angle: angle)
            }
            return NibSample(center: sample.center, nib: NibSweep.toPixels(nib, samples.toPixels))
          })
        #expect(laidOut.count == arrays.count, "trial \(trial)")
        #expect(
          zip(laidOut, arrays).allSatisfy {
            $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern
          },
          "trial \(trial), ellipse \(ellipse)")
      }
    }
  }
}
