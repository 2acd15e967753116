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

/// The outline of `discs` against an 8 × 8 point sampling of the union of their capsules.
private func compareWithUnion(_ discs: [PenSample], side: Int) -> (worst: Float, drawn: Float, sampled: Float)
{
  compareOutline(
    PenBrush.outline(of: discs),
    withShape: { p in
      (0..<(discs.count - 1)).contains { k in
        let a = discs[k]
        let b = discs[k + 1]
        let reach = Swift.max(a.radius, b.radius) + 0.5
        guard
          p.x > Swift.min(a.center.x, b.center.x) - reach, p.x < Swift.max(a.center.x, b.center.x) + reach,
          p.y > Swift.min(a.center.y, b.center.y) - reach, p.y < Swift.max(a.center.y, b.center.y) + reach
        else { return false }
        return capsuleContains(a, b, p)
      }
    }, side: side, samples: 8)
}

@Suite("Pen outline")
struct PenOutlineTests {
  @Test("the outline covers the union of its discs and capsules, within the arc tolerance")
  func outlineCoversTheUnionOfDiscs() {
    // Wandering discs 1.5-3 px apart, as the pen samples, on bends no tighter than the widest
    // radius (turns up to 0.35 rad a step: outer joins by a corner, a chord or an arc), drawn at
    // alpha 1 against an 8 × 8 point sampling of the union. Half the strokes swell and thin once,
    // as a pressure stroke does; the other half wander in radius from disc to disc, so that a disc
    // thinner than both neighbours makes inner sides that cross past the middle of the second.
    var rng = SeededGenerator(seed: 31)
    let side = 48
    for trial in 0..<12 {
      var discs: [PenSample] = []
      var c = Point(x: 14, y: 24)
      var heading: Float = rng.float(-0.5...0.5)
      let thinnest = rng.float(1...2)
      let swell = rng.float(0.5...2)
      var radius = rng.float(1...4)
      for k in 0..<14 {
        let smooth = thinnest + swell * FloatMath.sin(Float.pi * Float(k) / 13)
        discs.append(PenSample(center: c, radius: trial % 2 == 0 ? smooth : radius))
        radius = Swift.min(Swift.max(radius + rng.float(-0.3...0.3), 1), 4)
        heading += rng.float(-0.35...0.35)
        let step = rng.float(1.5...3)
        c = Point(x: c.x + step * FloatMath.cos(heading), y: c.y + step * FloatMath.sin(heading))
      }
      let (worst, drawn, sampled) = compareWithUnion(discs, side: side)
      // 64 samples put a pixel's coverage within about 1/16 of its area where an edge crosses it;
      // the outline's corners and chords stay within 0.045 px of the boundary.
      #expect(worst < 0.12, "trial \(trial): a pixel's coverage differs by \(worst)")
      #expect(abs(drawn - sampled) < 0.006 * sampled, "trial \(trial): area \(drawn) against \(sampled)")
    }
  }

  @Test("the planned outline is the reference outline, point for point, at every level")
  func plannedOutlineMatchesTheReference() {
    // Runs of 2 to 41 discs (every lane count of the plan's last vectors), with turns from none
    // to a hairpin, radii from under the arc tolerance to tens of pixels, steps from a fraction
    // of a pixel to several, and now and then a disc on its neighbour: corners, arcs, crossings
    // within and outside the sides, sharp inner turns, discs inside a neighbour. Every fifth run
    // has discs whose center or radius is not finite, huge or zero (the public `outline(of:)`
    // takes any discs).
    #expect(PenBrush.discLayoutIsThreeFloats)
    var rng = SeededGenerator(seed: 47)
    var kinds: [PenBrush.JoinKind: Int] = [:]
    for trial in 0..<600 {
      var discs: [PenSample] = []
      var c = Point(x: 100, y: 100)
      var heading = rng.float(0...6.28)
      var radius = rng.float(0.02...12)
      let turning: Float = [0.05, 0.4, 1.2, 3.0][trial % 4]
      for _ in 0..<(2 + trial % 40) {
        let odd: [Float] = [.nan, .infinity, -.infinity, 1e30, 0]
        discs.append(
          rng.float(0...1) < (trial % 5 == 0 ? 0.08 : 0)
            ? PenSample(
              center: Point(x: c.x, y: odd[Int(rng.float(0...4.99))]), radius: odd[Int(rng.float(0...4.99))])
            : PenSample(center: c, radius: radius))
        radius = Swift.max(
          0.01, radius * rng.float(0.6...1.6) + (rng.float(0...1) < 0.1 ? rng.float(0...8) : 0))
        heading += rng.float(-turning...turning)
        let step: Float = rng.float(0...1) < 0.05 ? 0 : rng.float(0.2...6)
        c = Point(x: c.x + step * FloatMath.cos(heading), y: c.y + step * FloatMath.sin(heading))
      }
      var reference = discs
      let expected = reference.withUnsafeMutableBufferPointer { PenBrush.referenceOutline(ofDiscs: $0) }
      for level in SIMDLevel.available {
        var copy = discs
        let planned = copy.withUnsafeMutableBufferPointer {
          PenBrush.outline(ofDiscs: $0, scratch: nil, planLevel: level)
        }
        let differs = zip(planned, expected).enumerated().first {
          $0.element.0.x.bitPattern != $0.element.1.x.bitPattern
            || $0.element.0.y.bitPattern != $0.element.1.y.bitPattern
        }?.offset
        #expect(
          planned.count == expected.count && differs == nil,
          "trial \(trial) at \(level): \(planned.count) points against \(expected.count), first difference at \(differs ?? -1)"
        )
      }
      // What the plan made of the joins, so the trials are known to reach every kind.
      var unnested = discs
      unnested.withUnsafeMutableBufferPointer { buffer in
        let count = PenBrush.keepUnnestedDiscs(buffer)
        guard count > 2 else { return }
        let discs = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
        withUnsafeTemporaryAllocation(byteCount: PenBrush.JoinPlan.bytes(discs: count), alignment: 16) {
          scratch in
          let plan = PenBrush.JoinPlan(scratch: scratch.baseAddress!, discs: count)
          PenBrush.planJoins(of: discs, into: plan)
          for side in 0..<2 {
            for j in 1..<(count - 1) {
              if let kind = PenBrush.JoinKind(rawValue: plan.kind(side)[j]) { kinds[kind, default: 0] += 1 }
            }
          }
        }
      }
    }
    #expect(
      (kinds[.corner] ?? 0) > 100 && (kinds[.crossing] ?? 0) > 100 && (kinds[.other] ?? 0) > 100, "\(kinds)")
  }

  @Test("a disc thinner than both neighbours leaves no sliver outside the union")
  func radiusDipLeavesNoSliver() {
    // Recorded from a run of the test above: at the fifth disc the inner sides cross 0.547 of
    // the way along the first and 0.504 along the second. Taken only in the halves nearest the
    // disc, the crossing was refused and the join ran through the disc's center, whose loop
    // covered a third of a pixel outside the union.
    let discs = [
      (14.0, 24.0, 3.6018944), (15.65345, 25.312023, 3.475911), (17.553267, 26.87733, 3.7325943),
      (18.841776, 28.596514, 3.948648), (19.745037, 30.109312, 3.7332978), (20.779581, 31.307468, 3.925584),
      (22.172165, 32.087822, 3.8232691), (24.00956, 33.32351, 3.8921275), (25.619955, 33.81117, 3.768639),
      (27.669247, 35.201706, 3.8541288), (29.592043, 35.980244, 3.7651181), (31.015835, 36.566925, 3.5646148),
      (32.869247, 38.133038, 3.800956), (35.4903, 39.25117, 3.5426311),
    ].map { PenSample(center: Point(x: Float($0.0), y: Float($0.1)), radius: Float($0.2)) }
    let (worst, drawn, sampled) = compareWithUnion(discs, side: 48)
    #expect(worst < 0.12, "a pixel's coverage differs by \(worst)")
    #expect(abs(drawn - sampled) < 0.006 * sampled, "area \(drawn) against \(sampled)")
  }

  @Test("tip points in lanes are the model's, float for float, at every level")
  func tipPointsMatchTheModel() {
    // Paths of 2 to 31 points with widths, forces and opacities that the blend can take below 0
    // or above the clamps, at 1 to 40 parameters (every lane count of the last group), most of
    // them in order along the path, some before it, past it or not a number.
    #expect(PenBrush.tipPointLayoutIsSixFloats)
    var rng = SeededGenerator(seed: 59)
    for trial in 0..<600 {
      let knots = 2 + trial % 30
      let points = (0..<knots).map { _ in
        StrokePoint(
          location: Point(x: rng.float(-50...50), y: rng.float(-50...50)), timeOffset: rng.float(0...2),
          size: Size(width: rng.float(-1...8), height: 1), opacity: rng.float(-0.5...2.5),
          force: rng.float(-0.2...1.2))
      }
      let path = StrokePath(controlPoints: points)
      let count = 1 + trial % 40
      var parameters = (0..<count).map { _ in rng.float(0...Float(knots - 1)) }.sorted()
      if trial % 3 == 0 {
        parameters[Int(rng.float(0...Float(count) - 0.01))] =
          [Float.nan, -2, Float(knots) + 3][trial % 9 / 3]
      }
      let expected = path.interpolatedTipPoints(at: parameters)
      for level in SIMDLevel.available {
        var got = [StrokePath.TipPoint](
          repeating: StrokePath.TipPoint(location: .zero, timeOffset: 0, width: 0, force: 0, opacity: 0),
          count: count)
        parameters.withUnsafeBufferPointer { parameters in
          got.withUnsafeMutableBufferPointer { out in
            withUnsafeTemporaryAllocation(
              byteCount: path.tipPointScratchBytes(samples: count),
              alignment: MemoryLayout<SIMD8<Float>>.alignment
            ) { scratch in
              PenBrush.interpolateTipPoints(
                of: path, at: parameters, into: out.baseAddress!, scratch: scratch.baseAddress!, level: level)
            }
          }
        }
        func bits(_ p: StrokePath.TipPoint) -> [UInt32] {
          [p.location.x, p.location.y, p.timeOffset, p.width, p.force, p.opacity].map(\.bitPattern)
        }
        #expect(got.map(bits) == expected.map(bits), "trial \(trial) at \(level)")
      }
    }
  }

  @Test("discs in lanes are the reference's, float for float, at every level")
  func discRunMatchesTheReference() {
    // Runs of 1 to 40 points (every lane count of the last group) on random maps, walking in
    // steps from a hundredth of a pixel (passed over as too near) to several, with now and then
    // a location, width, force, opacity or speed scale that is not a finite number, negative, or
    // out of range; half the runs with speed scales.
    #expect(PenBrush.tipPointLayoutIsSixFloats)
    #expect(PenBrush.discLayoutIsThreeFloats)
    var rng = SeededGenerator(seed: 53)
    let odd: [Float] = [.nan, .infinity, -.infinity, -1, 0, 3]
    func sometimes(_ value: Float) -> Float {
      rng.float(0...1) < 0.06 ? odd[Int(rng.float(0...5.99))] : value
    }
    var differences = 0
    for trial in 0..<800 {
      let n = 1 + trial % 40
      let scale = rng.float(0.2...3)
      let angle = rng.float(0...6.28)
      let m = AffineTransform(
        a: scale * FloatMath.cos(angle), b: scale * FloatMath.sin(angle), c: -scale * FloatMath.sin(angle),
        d: scale * FloatMath.cos(angle), tx: rng.float(-50...50), ty: rng.float(-50...50))
      var location = Point(x: rng.float(0...100), y: rng.float(0...100))
      var points: [StrokePath.TipPoint] = []
      for _ in 0..<n {
        points.append(
          StrokePath.TipPoint(
            location: Point(x: sometimes(location.x), y: location.y), timeOffset: 0,
            width: sometimes(rng.float(0.5...8)), force: sometimes(rng.float(0...1)),
            opacity: sometimes(rng.float(0...1))))
        let step: Float = rng.float(0...1) < 0.2 ? rng.float(0...0.3) : rng.float(0.3...4)
        location = Point(x: location.x + step, y: location.y + rng.float(-1...1) * step)
      }
      var speeds = (0..<n).map { _ in sometimes(rng.float(0.8...1.2)) }
      let inkWidth = rng.float(1...6)
      let withSpeeds = trial % 2 == 0
      func run(level: SIMDLevel?) -> (Int, Float, Float, [Float], [UInt32]) {
        var arcs = [Float](repeating: -1, count: n)
        var discs = [PenSample](repeating: PenSample(center: .zero, radius: -1), count: n)
        let (count, arc, opacity) = points.withUnsafeBufferPointer { points in
          arcs.withUnsafeMutableBufferPointer { arcs in
            discs.withUnsafeMutableBufferPointer { discs in
              speeds.withUnsafeMutableBufferPointer { speeds in
                level.map {
                  PenBrush.discRun(
                    of: points, through: m, scale: scale, inkWidth: inkWidth,
                    speedScales: withSpeeds ? speeds : nil, arcs: arcs, into: discs, level: $0)
                }
                  ?? PenBrush.referenceDiscRun(
                    of: points, through: m, scale: scale, inkWidth: inkWidth,
                    speedScales: withSpeeds ? speeds : nil, arcs: arcs, into: discs)
              }
            }
          }
        }
        let bits = discs[..<count].flatMap {
          [$0.center.x.bitPattern, $0.center.y.bitPattern, $0.radius.bitPattern]
        }
        return (count, arc, opacity, Array(arcs[..<count]), bits)
      }
      let expected = run(level: nil)
      differences += expected.0 < n ? 1 : 0
      for level in SIMDLevel.available {
        let got = run(level: level)
        #expect(
          got.0 == expected.0 && got.1.bitPattern == expected.1.bitPattern
            && got.2.bitPattern == expected.2.bitPattern
            && got.3.map(\.bitPattern) == expected.3.map(\.bitPattern)
            && got.4 == expected.4,
          "trial \(trial) at \(level): \(got.0) discs against \(expected.0)")
      }
    }
    // Runs that passed over some point: the groups that go point by point were met.
    #expect(differences > 100, "\(differences) runs passed over a point")
  }

  @Test("discs pass over locations that are not finite and read such widths and opacities as defaults")
  func discsOfValuesThatAreNotFinite() throws {
    let odd: [Float] = [.nan, .infinity, -.infinity]
    for value in odd {
      // Six points 3 px apart on a line; the third's location, the fourth's width and the fifth's
      // opacity are `value`.
      var points = (0..<6).map { i in
        StrokePath.TipPoint(
          location: Point(x: 10 + 3 * Float(i), y: 20), timeOffset: 0, width: 4, force: 1, opacity: 1)
      }
      points[2].location.y = value
      points[3].width = value
      points[4].opacity = value
      var arcs = [Float](repeating: 0, count: 6)
      var discs = [PenSample](repeating: PenSample(center: .zero, radius: 0), count: 6)
      let built = points.withUnsafeBufferPointer { points in
        arcs.withUnsafeMutableBufferPointer { arcs in
          discs.withUnsafeMutableBufferPointer { discs in
            PenBrush.discs(
              of: points, through: .identity, scale: 1, inkWidth: 4, speedScales: nil, arcs: arcs, into: discs
            )
          }
        }
      }
      let (count, alpha) = try #require(built, "\(value)")
      // The third is passed over; the fourth takes the ink's width (the same 4 as the others), the
      // fifth an opacity of 1: the discs are those of five even points, alpha 1.
      #expect(count == 5, "\(value)")
      #expect(discs[..<count].map(\.center.x) == [10, 13, 19, 22, 25], "\(value)")
      #expect(alpha == 1, "\(value)")
      // A width that is not finite is the ink's: the same radii as with width 4 written out.
      var plain = points
      plain[3].width = 4
      plain[4].opacity = 1
      var plainDiscs = discs
      _ = plain.withUnsafeBufferPointer { points in
        arcs.withUnsafeMutableBufferPointer { arcs in
          plainDiscs.withUnsafeMutableBufferPointer { discs in
            PenBrush.discs(
              of: points, through: .identity, scale: 1, inkWidth: 4, speedScales: nil, arcs: arcs, into: discs
            )
          }
        }
      }
      #expect(discs[..<count].map(\.radius) == plainDiscs[..<count].map(\.radius), "\(value)")
    }
  }

  @Test(
    "speed scales are the windowed mean speed's thinning, float for float, at every length and level",
    arguments: SIMDLevel.available)
  func speedScalesMatchTheirWindows(_ level: SIMDLevel) {
    var rng = SeededGenerator(seed: 0x5EED_0005)
    for n in 2...41 {
      for trial in 0..<6 {
        var time: Float = 0
        var location = Point(x: 10, y: 10)
        let points: [StrokePath.TipPoint] = (0..<n).map { i in
          if i > 0 {
            // Steady, fast and invalid steps: equal or reversed times, an infinite distance.
            switch rng.next() % 8 {
            case 0: time += 0
            case 1: time -= 0.001
            case 2 where trial == 5: location.x = .infinity
            default: time += rng.float(0.0005...0.05)
            }
            location = Point(x: location.x + rng.float(0...12), y: location.y + rng.float(-6...6))
          }
          return StrokePath.TipPoint(location: location, timeOffset: time, width: 4, force: 1, opacity: 1)
        }
        // The definition: speeds max(k − 5, 0) ..< min(k + 4, n − 1) around sample k, an invalid
        // one counted as 0 and left out of the divisor, their mean through `speedScale`.
        var speeds: [Float] = []
        var validity: [Bool] = []
        for k in 0..<(n - 1) {
          let dt = points[k + 1].timeOffset - points[k].timeOffset
          let d = points[k].location.distance(to: points[k + 1].location)
          let valid = dt > 1e-6 && dt.isFinite && d.isFinite
          speeds.append(valid ? d / dt : 0)
          validity.append(valid)
        }
        let expected: [Float] = (0..<n).map { k in
          let window = Swift.max(k - 5, 0)..<Swift.min(k + 4, n - 1)
          var sum: Float = 0
          for j in window { sum += speeds[j] }
          let count = window.filter { validity[$0] }.count
          return count > 0 ? PenBrush.speedScale(sum / Float(count)) : 1
        }
        var scales = [Float](repeating: .nan, count: n)
        let written = points.withUnsafeBufferPointer { points in
          scales.withUnsafeMutableBufferPointer { PenBrush.speedScales(of: points, into: $0, level: level) }
        }
        if written {
          #expect(
            scales.map(\.bitPattern) == expected.map(\.bitPattern), "\(n) samples, trial \(trial), \(level)")
        } else {
          #expect(
            expected.allSatisfy { $0 == 1 },
            "\(n) samples, trial \(trial), \(level): scales below 1 not written")
        }
      }
    }
  }

  @Test("arc steps are the tolerance's for every radius that has one, and bounded for wider ones")
  func arcStepsOfWideRadii() {
    // Radii up to about 1.7 million pixels keep the step 2·acos(1 − tolerance / r) they always had.
    var r: Float = 0.05
    while r < 1.6e6 {
      let ratio = PenBrush.arcTolerance / r
      let expected = ratio >= 1 ? Float.pi / 2 : 2 * FloatMath.acos(1 - ratio)
      #expect(PenBrush.angleStep(radius: r) == expected, "radius \(r)")
      r *= 1.37
    }
    // Wider ones, where 1 − tolerance / r is 1 in float, had a step of 0 and an infinite count.
    for radius: Float in [2e6, 1e7, 1e20, 3e38, .infinity, .nan] {
      let step = PenBrush.angleStep(radius: radius)
      #expect(step > 0 && step.isFinite, "radius \(radius)")
      let steps = PenBrush.arcSteps(2 * Float.pi, step: step)
      #expect(steps > 0 && steps < 10_000, "radius \(radius): \(steps) steps a turn")
      #expect(PenBrush.capRotation(radius: radius).steps < 5_000)
    }
    #expect(PenBrush.arcSteps(.nan, step: 0.1) == 0)
    #expect(PenBrush.arcSteps(3e38, step: 1e-30) == 1 << 20)
  }

  @Test(
    "a stroke wider than any page renders with every ink, on one thread and two",
    arguments: InkType.allCases)
  func inksWiderThanThePage(_ type: InkType) {
    for width: Float in [1e7, 1e20, 3e38] {
      let stroke = inkStroke(type, line(10, 20, 50, 22), width: width)
      let drawing = Drawing(strokes: [stroke])
      let one = inkAlpha(drawing, width: 60, height: 40)
      let two = inkAlpha(drawing, width: 60, height: 40, threads: 2)
      #expect(one == two, "\(type), width \(width)")
      if width == 1e7 && (type == .pen || type == .monoline) {
        // A round tip five million pixels across covers the whole canvas.
        #expect(one.allSatisfy { $0 > 0.99 }, "\(type): \(one.min() ?? 0)")
      }
    }
  }

  @Test("anchor steps four at a time are the bend's step one anchor at a time, bit for bit")
  func anchorStepsMatchOneAtATime() {
    var rng = SeededGenerator(seed: 0x5EED_0A4C)
    let spacing = PenBrush.sampleSpacing
    let widest = PenBrush.widestSampleSpacing
    let scale = 4 * PenBrush.sampleTolerance
    for trial in 0..<40 {
      let count = 2 + trial % 13
      var x = [Float](repeating: 0, count: count + 4)
      var y = [Float](repeating: 0, count: count + 4)
      var heading: Float = 0
      for k in 1..<count {
        // Gentle and sharp turns, straight runs, repeated points, a point not finite.
        switch rng.next() % 10 {
        case 0: heading += 0
        case 1: heading += 3
        default: heading += rng.float(-0.4...0.4)
        }
        let step: Float = rng.next() % 12 == 0 ? 0 : rng.float(1.5...9)
        x[k] = x[k - 1] + step * FloatMath.cos(heading)
        y[k] = y[k - 1] + step * FloatMath.sin(heading)
      }
      if trial % 7 == 6 { x[count / 2] = trial % 2 == 0 ? .nan : .infinity }
      var steps = [Float](repeating: -1, count: count + 4)
      x.withUnsafeMutableBufferPointer { x in
        y.withUnsafeMutableBufferPointer { y in
          steps.withUnsafeMutableBufferPointer { steps in
            PenBrush.anchorSteps(
              x: x.baseAddress!, y: y.baseAddress!, count: count, spacing: spacing, widest: widest,
              scale: scale, into: steps.baseAddress!)
          }
        }
      }
      // One anchor at a time, as the sampling had worked it out.
      for k in 1..<(count - 1) {
        let u = Point(x: x[k] - x[k - 1], y: y[k] - y[k - 1])
        let v = Point(x: x[k + 1] - x[k], y: y[k + 1] - y[k])
        let bend = abs(u.x * v.y - u.y * v.x)
        let product = u.length * v.length * (u + v).length
        var step = spacing
        if (scale * product).isFinite, bend.isFinite, scale * product > bend * spacing * spacing {
          let squared = scale * product < bend * widest * widest ? scale * product / bend : widest * widest
          step = Swift.min(Swift.max(abs(squared).squareRoot(), spacing), widest)
        }
        #expect(
          steps[k].bitPattern == step.bitPattern, "trial \(trial), anchor \(k): \(steps[k]) against \(step)")
      }
    }
  }

  @Test("an ink wider than the page samples a path reaching 10^18 pixels a bounded number of times")
  func taperSamplesOfAFarPath() {
    var points = line(10, 20, 300, 40, count: 40)
    points[30] = (200, 9e18)
    let stroke = inkStroke(.pen, points, width: 9e18)
    let n = points.count
    let parameters = PenBrush.sampleParameters(
      of: stroke.path, through: .identity, spacing: PenBrush.sampleSpacing,
      maximumSpacing: PenBrush.widestSampleSpacing, tolerance: PenBrush.sampleTolerance, endSpan: 9e18)
    #expect(parameters.count <= 64 * n + PenBrush.taperSampleBudget + n + 1, "\(parameters.count)")
    #expect(zip(parameters, parameters.dropFirst()).allSatisfy { $0 <= $1 })
    // The whole build and render, on one thread and two.
    let drawing = Drawing(strokes: [stroke])
    #expect(inkAlpha(drawing, width: 60, height: 40) == inkAlpha(drawing, width: 60, height: 40, threads: 2))
  }
}
