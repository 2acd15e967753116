import Testing

@testable import InkwellModel

@Suite("StrokePath: uniform cubic B-spline with clamped ends")
struct StrokePathTests {
  static func point(_ x: Float, _ y: Float, t: Float = 0, force: Float = 1) -> StrokePoint {
    StrokePoint(location: Point(x: x, y: y), timeOffset: t, size: Size(width: 2, height: 2), force: force)
  }

  /// A square's corners: (0,0) (6,0) (6,6) (0,6).
  let square = StrokePath(controlPoints: [point(0, 0), point(6, 0), point(6, 6), point(0, 6)])

  @Test("ends are the first and last control points")
  func clampedEnds() {
    #expect(square.interpolatedPoint(at: 0).location == Point(x: 0, y: 0))
    #expect(square.interpolatedPoint(at: 3).location == Point(x: 0, y: 6))
    #expect(square.interpolatedPoint(at: -5).location == Point(x: 0, y: 0))
    #expect(square.interpolatedPoint(at: 99).location == Point(x: 0, y: 6))
  }

  @Test("whole parameters blend (P[i-1] + 4 P[i] + P[i+1]) / 6")
  func knots() {
    // (0 + 24 + 6) / 6 = 5, (0 + 0 + 6) / 6 = 1
    #expect(square.interpolatedPoint(at: 1).location == Point(x: 5, y: 1))
    // (6 + 24 + 0) / 6 = 5, (0 + 24 + 6) / 6 = 5
    #expect(square.interpolatedPoint(at: 2).location == Point(x: 5, y: 5))
  }

  @Test("mid-segment weights are 1/48, 23/48, 23/48, 1/48")
  func midSegment() {
    // Phantom P[-1] = 2·P0 − P1 = (−6, 0). x = (−6 + 0 + 138 + 6) / 48, y = 6 / 48.
    let p = square.interpolatedPoint(at: 0.5).location
    #expect(abs(p.x - 2.875) < 1e-6)
    #expect(abs(p.y - 0.125) < 1e-6)
  }

  @Test("attributes blend with the same basis")
  func attributes() {
    let path = StrokePath(controlPoints: [
      Self.point(0, 0, t: 0, force: 0), Self.point(1, 0, t: 0.1, force: 1),
      Self.point(2, 0, t: 0.2, force: 0), Self.point(3, 0, t: 0.3, force: 1),
    ])
    let p = path.interpolatedPoint(at: 1)
    #expect(abs(p.force - 4.0 / 6.0) < 1e-6)
    #expect(abs(p.timeOffset - 0.1) < 1e-6)
  }

  @Test("tip points at many parameters are each the tip point at that parameter")
  func tipPointsAlongThePath() {
    var unit = UnitFloats(state: 12345)
    func next() -> Float { unit.next() }
    let path = StrokePath(
      controlPoints: (0..<9).map { i in
        var p = Self.point(next() * 40, next() * 40, t: Float(i) * 0.01 + next() * 0.005, force: next())
        p.opacity = next() * 1.5
        p.size.width = 1 + next() * 6
        return p
      })
    // Rising parameters that repeat, stay within a segment, skip segments, and leave the range.
    let parameters: [Float] = [-1, 0, 0, 0.25, 0.9, 1, 3.5, 3.5, 3.75, 6.1, 7.999, 8, 8, 12]
    let points = path.interpolatedTipPoints(at: parameters)
    #expect(points.count == parameters.count)
    for (t, p) in zip(parameters, points) {
      #expect(p == path.interpolatedTipPoint(at: t), "t = \(t)")
      // The full point's blend is the oracle for the fields and their clamps.
      #expect(p == StrokePath.TipPoint(path.interpolatedPoint(at: t)), "t = \(t)")
    }
    #expect(path.interpolatedTipPoints(at: []).isEmpty)
  }

  @Test("tip points eight parameters at a time are the scalar evaluation's, at every edge")
  func tipPointsInChunks() {
    var unit = UnitFloats(state: 777)
    func next() -> Float { unit.next() }
    // Parameters that are not numbers or not finite, signed zeros, whole numbers and their
    // neighbours (where ⌊t⌋ changes), the last knot and beyond it, and in-between values.
    let edges: [Float] = [
      .nan, -.infinity, -1, -0.0, 0, Float(0).nextUp, 0.5, Float(1).nextDown, 1, Float(1).nextUp, 2.5,
      Float(3).nextDown, 3, 3.25, .infinity, 1e30, -1e-30,
    ]
    for n in [2, 3, 4, 9, 40] {
      let path = StrokePath(
        controlPoints: (0..<n).map { i in
          var p = Self.point(next() * 50 - 10, next() * 50, t: Float(i) * 0.01, force: next() * 1.2 - 0.1)
          p.opacity = next() * 2.5 - 0.2
          p.size.width = next() * 6 - 0.5
          return p
        })
      let last = Float(n - 1)
      let near: [Float] = [last.nextDown, last, last.nextUp, last - 0.5, last + 0.5]
      let all = edges + near + (0..<21).map { _ in next() * (last + 2) - 1 }
      // Every count from 0 to all of them: full chunks, a short remainder, fewer than eight.
      for count in 0...all.count {
        let parameters = Array(all.prefix(count))
        let points = path.interpolatedTipPoints(at: parameters)
        #expect(points.count == count)
        for (t, p) in zip(parameters, points) {
          let expected = path.interpolatedTipPoint(at: t)
          #expect(
            p.location.x.bitPattern == expected.location.x.bitPattern
              && p.location.y.bitPattern == expected.location.y.bitPattern
              && p.timeOffset.bitPattern == expected.timeOffset.bitPattern
              && p.width.bitPattern == expected.width.bitPattern
              && p.force.bitPattern == expected.force.bitPattern
              && p.opacity.bitPattern == expected.opacity.bitPattern,
            "n = \(n), t = \(t)")
        }
      }
    }
  }

  @Test("segment weights eight at a time match ⌊t⌋ and the basis of the scalar evaluation")
  func segmentWeightsMatchScalar() {
    let n = 1000
    let last = Float(n - 1)
    var values: [Float] = [.nan, -.infinity, .infinity, -0.0, 0, last, last.nextUp, last.nextDown, 998.5]
    for k in stride(from: 0, to: n, by: 37) {
      let f = Float(k)
      values += [f, f.nextUp, f.nextDown, f + 0.5, f + 0.999_999]
    }
    while values.count % 8 != 0 { values.append(0.25) }
    for start in stride(from: 0, to: values.count, by: 8) {
      let t = SIMD8<Float>(values[start..<(start + 8)])
      let (segments, w) = StrokePath.segmentWeights(t, last: last, lastSegment: Float(n - 2))
      for l in 0..<8 {
        let tc = t[l].isNaN ? 0 : Swift.min(Swift.max(t[l], 0), last)
        let i = Swift.min(Int(tc), n - 2)
        let b = StrokePath.basis(tc - Float(i))
        #expect(Int(segments[l]) == i, "t = \(t[l])")
        #expect(
          w.0[l].bitPattern == b.0.bitPattern && w.1[l].bitPattern == b.1.bitPattern
            && w.2[l].bitPattern == b.2.bitPattern && w.3[l].bitPattern == b.3.bitPattern,
          "t = \(t[l])")
      }
    }
  }

  @Test("tip points clamp width and force to 0 and opacity to 0…2, as the full point does")
  func tipPointsClamped() {
    // Control points out of range, as a document may hold them.
    let forces: [Float] = [-0.5, 0.3, -0.2, 0.8, -1]
    let opacities: [Float] = [2.5, 1, 3, 0.5, -1]
    let widths: [Float] = [-1, 4, -2, 3, 5]
    let path = StrokePath(
      controlPoints: (0..<5).map { i in
        var p = Self.point(Float(i) * 3, 0, t: Float(i) * 0.01, force: forces[i])
        p.opacity = opacities[i]
        p.size.width = widths[i]
        return p
      })
    let parameters = stride(from: Float(0), through: 4, by: 0.125).map { $0 }
    let points = path.interpolatedTipPoints(at: parameters)
    var clamped = 0
    for (t, p) in zip(parameters, points) {
      #expect(p == StrokePath.TipPoint(path.interpolatedPoint(at: t)), "t = \(t)")
      #expect(p.width >= 0 && p.force >= 0 && p.opacity >= 0 && p.opacity <= 2, "t = \(t)")
      if p.width == 0 || p.force == 0 || p.opacity == 0 || p.opacity == 2 { clamped += 1 }
    }
    #expect(clamped > 10)
  }

  @Test("evenly spaced collinear points stay straight and evenly paced")
  func straightLine() {
    let line = StrokePath(controlPoints: (0...3).map { Self.point(Float($0), 0, t: Float($0) / 10) })
    #expect(abs(line.interpolatedPoint(at: 0.5).location.x - 0.5) < 1e-6)
    #expect(abs(line.interpolatedPoint(at: 2.25).location.x - 2.25) < 1e-6)
    #expect(abs(line.length - 3) < 1e-4)
  }

  @Test("interpolation by distance, time and parametric step")
  func strides() {
    let line = StrokePath(controlPoints: (0...3).map { Self.point(Float($0), 0, t: Float($0) / 10) })
    let byDistance = line.interpolatedPoints(by: .distance(0.5))
    #expect(byDistance.count == 7)
    for (i, p) in byDistance.enumerated() { #expect(abs(p.location.x - Float(i) * 0.5) < 1e-3) }
    let byTime = line.interpolatedPoints(by: .time(0.05))
    #expect(byTime.count == 7)
    for (i, p) in byTime.enumerated() { #expect(abs(p.timeOffset - Float(i) * 0.05) < 1e-4) }
    let byStep = line.interpolatedPoints(in: 1...2, by: .parametricStep(0.25))
    #expect(byStep.map(\.location.x) == [1, 1.25, 1.5, 1.75, 2])
  }

  @Test("parametricValue moves along the curve")
  func parametricOffsets() {
    let line = StrokePath(controlPoints: (0...3).map { Self.point(Float($0), 0, t: Float($0) / 10) })
    #expect(abs(line.parametricValue(1, offsetBy: .distance(1)) - 2) < 1e-3)
    #expect(abs(line.parametricValue(2, offsetBy: .distance(-1.5)) - 0.5) < 1e-3)
    #expect(abs(line.parametricValue(0, offsetBy: .time(0.15)) - 1.5) < 1e-3)
    #expect(line.parametricValue(2.5, offsetBy: .parametricStep(5)) == 3)
  }

  @Test("a single point is its own curve")
  func singlePoint() {
    let path = StrokePath(controlPoints: [Self.point(4, 5)])
    #expect(path.interpolatedPoint(at: 0.7).location == Point(x: 4, y: 5))
    #expect(path.interpolatedPoints(by: .distance(1)).count == 1)
  }

  @Test("azimuth is blended across the ±π seam without a detour")
  func angleUnwrap() {
    var a = Self.point(0, 0)
    var b = Self.point(1, 0)
    a.azimuth = 3.1
    b.azimuth = -3.1
    let path = StrokePath(controlPoints: [a, b])
    let mid = path.interpolatedPoint(at: 0.5).azimuth
    #expect(abs(abs(mid) - .pi) < 0.05)
  }

  @Test("angle differences wrap into a half turn either way as the rounding formula does, bit for bit")
  func angleDifferenceMatchesTheRounding() {
    func wrapped(_ a: Float, _ b: Float) -> Float {
      var d = a - b
      let twoPi = 2 * Float.pi
      if !d.isFinite { return 0 }
      d = d - twoPi * (d / twoPi).rounded()
      return d
    }
    let half = Float.pi
    var values: [Float] = [
      0, -0.0, 1e-30, -1e-30, .leastNonzeroMagnitude, half, -half, 2 * half, -2 * half, 1e20, .infinity, .nan,
    ]
    // Around every quotient's half-turn boundary, an ulp or two either side.
    for k in 1...6 {
      let boundary = Float(k) * half
      var up = boundary
      var down = boundary
      for _ in 0..<3 {
        values += [up, -up, down, -down]
        up = up.nextUp
        down = down.nextDown
      }
    }
    var rng = SeededGenerator(seed: 0xA9_61E5)
    for _ in 0..<20_000 { values.append(rng.float(-20...20)) }
    var checked = 0
    for (i, a) in values.enumerated() {
      for b in [0, -0.0, values[(i * 7 + 3) % values.count], 0.5] as [Float] {
        let got = StrokePath.angleDifference(a, b)
        let want = wrapped(a, b)
        #expect(got.bitPattern == want.bitPattern, "\(a) − \(b): \(got) against \(want)")
        checked += 1
      }
    }
    #expect(checked == values.count * 4)
  }
}

/// Floats in 0..<1 from a linear congruential generator: the tests' repeatable inputs.
private struct UnitFloats {
  var state: UInt32

  mutating func next() -> Float {
    state = state &* 1_664_525 &+ 1_013_904_223
    return Float(state >> 8) / Float(1 << 24)
  }
}
