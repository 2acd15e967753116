// The pen's hairline path (a stroke thinner than `PenBrush.minimumRadius` everywhere, as handwriting
// is on a thumbnail): its knots against the spline, its test against the general path's discs, its
// outline against the general outline, and its pixels against the general path's.

import Inkwell
import Testing

@testable import InkwellFormat
@testable import InkwellRender

/// A wandering, densely recorded stroke (points `step` apart), with varying force and time.
private func denseStroke(_ rng: inout SeededGenerator, points: Int, step: ClosedRange<Float>, width: Float)
  -> Stroke
{
  var p = Point(x: rng.float(40...200), y: rng.float(40...200))
  var heading = rng.float(0...6.28)
  var controlPoints: [StrokePoint] = []
  for i in 0..<points {
    controlPoints.append(
      StrokePoint(
        location: p, timeOffset: Float(i) / 240, size: Size(width: width, height: width),
        force: rng.float(0.2...1)))
    heading += rng.float(-0.3...0.3)
    let d = rng.float(step)
    p = Point(x: p.x + d * FloatMath.cos(heading), y: p.y + d * FloatMath.sin(heading))
  }
  return Stroke(
    ink: Ink(type: .pen, color: .black, width: width), path: StrokePath(controlPoints: controlPoints))
}

/// The stroke's primitive as the pen draws it, through the hairline path or the general one.
private func penPrimitive(_ stroke: Stroke, view: AffineTransform, hairlines: Bool) -> Primitive? {
  guard let (path, alpha) = PenBrush.outline(of: stroke, toPixels: view, hairlines: hairlines) else {
    return nil
  }
  return Primitive(path: path, rule: .nonZero, color: LinearColor(stroke.ink.color, opacity: alpha))
}

/// `PenBrush.discs` of the tip points `points` through `m`, with their speed scales, as the pen
/// makes them: the kept discs and the alpha multiplier.
private func penDiscs(
  _ points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, inkWidth: Float
) -> (discs: [PenSample], alpha: Float)? {
  let n = points.count
  var speeds = [Float](repeating: 1, count: n)
  var arcs = [Float](repeating: 0, count: n)
  var discs = [PenSample](repeating: PenSample(center: .zero, radius: 0), count: n)
  let result = speeds.withUnsafeMutableBufferPointer { speeds in
    arcs.withUnsafeMutableBufferPointer { arcs in
      discs.withUnsafeMutableBufferPointer { discs in
        PenBrush.discs(
          of: points, through: m, scale: m.meanScale, inkWidth: inkWidth,
          speedScales: PenBrush.speedScales(of: points, into: speeds) ? speeds : nil, arcs: arcs, into: discs)
      }
    }
  }
  guard let (count, alpha) = result else { return nil }
  return (Array(discs[..<count]), alpha)
}

/// The stroke's primitive from discs sampled every half pixel along its spline (the closest
/// spacing `PenBrush.discs` keeps): the curve both sampling paths approximate.
private func finePrimitive(_ stroke: Stroke, view: AffineTransform) -> Primitive? {
  let m = stroke.transform.concatenating(view)
  let points = stroke.path.interpolatedTipPoints(
    at: PenBrush.sampleParameters(of: stroke.path, through: m, spacing: 0.5))
  guard
    let (discs, alpha) = points.withUnsafeBufferPointer({
      penDiscs($0, through: m, inkWidth: stroke.ink.width)
    })
  else { return nil }
  let outline = PenBrush.outline(of: discs)
  return Primitive(
    path: FlatPath(contours: [outline]), rule: .nonZero, color: LinearColor(stroke.ink.color, opacity: alpha))
}

@Suite("Pen hairlines")
struct PenHairlineTests {
  @Test("a knot of the curve is the spline's point there, float for float")
  func knotsAreTheSplinesPoints() {
    var rng = SeededGenerator(seed: 11)
    for count in [2, 3, 4, 9, 40] {
      let stroke = denseStroke(&rng, points: count, step: 0.5...9, width: 3)
      for i in 0..<count {
        #expect(
          stroke.path.knotTipPoint(i) == stroke.path.interpolatedTipPoint(at: Float(i)),
          "\(count) points, knot \(i)")
      }
    }
  }

  @Test("a knot inside the path read straight from the control points is the same lanes, bit for bit")
  func interiorKnotsMatch() {
    var rng = SeededGenerator(seed: 13)
    let odd: [Float] = [.nan, .infinity, -.infinity, -0.0, 3e38]
    for trial in 0..<300 {
      var stroke = denseStroke(&rng, points: 4 + trial % 20, step: 0.2...9, width: 2)
      // Now and then a field that is not finite, which the blend's zero weight still carries.
      for i in stroke.path.controlPoints.indices where rng.float(0...1) < 0.1 {
        let value = odd[Int(rng.next() % UInt64(odd.count))]
        switch rng.next() % 5 {
        case 0: stroke.path.controlPoints[i].location.x = value
        case 1: stroke.path.controlPoints[i].timeOffset = value
        case 2: stroke.path.controlPoints[i].size.width = value
        case 3: stroke.path.controlPoints[i].force = value
        default: stroke.path.controlPoints[i].opacity = value
        }
      }
      let path = stroke.path
      path.controlPoints.withUnsafeBufferPointer { points in
        for i in 1..<(path.count - 2) {
          let fast = StrokePath.interiorKnotTipLanes(points.baseAddress!, i)
          let lanes = path.knotTipLanes(i)
          let bits = { (v: SIMD8<Float>) in (0..<8).map { v[$0].bitPattern } }
          #expect(bits(fast) == bits(lanes), "trial \(trial), knot \(i)")
        }
      }
    }
  }

  @Test("a stroke taken for a hairline has every disc below the thinnest radius before clamping")
  func hairlineTestIsConservative() {
    var rng = SeededGenerator(seed: 12)
    var hairlines = 0
    var others = 0
    for trial in 0..<400 {
      var stroke = denseStroke(&rng, points: 2 + trial % 30, step: 0.3...12, width: rng.float(0.5...8))
      // Ragged widths, including the phantom's overshoot at an end and bad values.
      for i in stroke.path.controlPoints.indices where rng.float(0...1) < 0.3 {
        stroke.path.controlPoints[i].size.width =
          [Float.nan, 0, -2, 9, rng.float(0...4)][Int(rng.next() % 5)]
      }
      let scale = rng.float(0.02...1.2)
      let m = AffineTransform(scaleX: scale, y: scale)
      let hairline = PenBrush.isHairline(stroke.path, inkWidth: stroke.ink.width, scale: scale)
      // The general sampler's discs at their full radii (no clamping yet): their largest.
      let path = stroke.path
      let parameters = PenBrush.sampleParameters(
        of: path, through: m, spacing: PenBrush.sampleSpacing, maximumSpacing: PenBrush.widestSampleSpacing,
        tolerance: PenBrush.sampleTolerance, endSpan: stroke.ink.width * scale)
      var largest: Float = 0
      for p in path.interpolatedTipPoints(at: parameters) {
        let width = p.width.isFinite && p.width > 0 ? p.width : stroke.ink.width
        largest = Swift.max(largest, 0.5 * width * PenBrush.interpolatedPressureScale(p.force) * scale)
      }
      if hairline {
        hairlines += 1
        #expect(largest < PenBrush.minimumRadius, "trial \(trial): radius \(largest) at scale \(scale)")
      } else {
        others += 1
      }
    }
    #expect(hairlines > 50 && others > 50, "\(hairlines) hairlines, \(others) others")
  }

  /// The hairline samples as one loop over the segments, sampling as it walks: what
  /// `forEachHairlineTipPoint` hands out, and the widest width it reads.
  private static func walkedSamples(
    of path: StrokePath, through m: AffineTransform, spacing: Float, widest: Float
  ) -> ([StrokePath.TipPoint], Float) {
    let n = path.count
    var samples = [StrokePath.tipPoint(clamping: path.knotTipLanes(0))]
    var wide = widest
    var a = m.apply(path.controlPoints[0].location)
    var travelled: Float = 0
    for i in 0..<(n - 1) {
      let b = m.apply(path.controlPoints[i + 1].location)
      let width = path.controlPoints[i + 1].size.width
      if width > wide { wide = width }
      let length = a.distance(to: b)
      a = b
      if length <= spacing {
        travelled += length
        guard travelled + 0.5 * length >= spacing || i == n - 2 else { continue }
      } else {
        let steps = PenBrush.segmentSteps(length: length, spacing: spacing)
        for j in 1..<steps {
          samples.append(path.interpolatedTipPoint(at: Float(i) + Float(j) / Float(steps)))
        }
      }
      samples.append(StrokePath.tipPoint(clamping: path.knotTipLanes(i + 1)))
      travelled = 0
    }
    return (samples, wide)
  }

  @Test("the hairline walk samples the knots and segments a walk along the polygon does")
  func hairlineWalkMatchesTheLoop() {
    var rng = SeededGenerator(seed: 23)
    var longSegments = 0
    var runs = 0
    for trial in 0..<600 {
      // Up to four runs of the walk; steps long enough, now and then, to be sampled between knots.
      let count = [2, 3, 5, 40, 64, 65, 66, 129, 200][trial % 9]
      var stroke = denseStroke(&rng, points: count, step: trial % 4 == 0 ? 0.5...30 : 0.2...4, width: 1)
      for i in stroke.path.controlPoints.indices where rng.float(0...1) < 0.05 {
        if rng.next() % 2 == 0 {
          stroke.path.controlPoints[i].location.x = [Float.nan, .infinity, 1e30][Int(rng.next() % 3)]
        } else {
          stroke.path.controlPoints[i].size.width = [Float.nan, -0.0, 0, 3][Int(rng.next() % 4)]
        }
      }
      // Now and then every width a zero of either sign: the widest is then a tie, whose sign
      // says which of the equal widths was kept.
      if trial % 10 == 7 {
        for i in stroke.path.controlPoints.indices {
          stroke.path.controlPoints[i].size.width = rng.next() % 2 == 0 ? 0 : -0.0
        }
      }
      let m = AffineTransform(
        a: rng.float(0.05...1), b: rng.float(-0.2...0.2), c: rng.float(-0.2...0.2), d: rng.float(0.05...1),
        tx: 3, ty: -5)
      let start: Float = [0, 0.25, .nan][trial % 3]
      var widest = start
      var samples: [StrokePath.TipPoint] = []
      PenBrush.forEachHairlineTipPoint(
        of: stroke.path, through: m, spacing: PenBrush.sampleSpacing, widest: &widest
      ) { samples.append($0) }
      let (expected, expectedWidest) = Self.walkedSamples(
        of: stroke.path, through: m, spacing: PenBrush.sampleSpacing, widest: start)
      // Bit for bit: a location that is not finite gives NaN samples, which are never equal.
      let bits = { (points: [StrokePath.TipPoint]) in
        points.flatMap { p in
          [p.location.x, p.location.y, p.timeOffset, p.width, p.force, p.opacity].map(\.bitPattern)
        }
      }
      #expect(bits(samples) == bits(expected), "trial \(trial)")
      #expect(
        widest.bitPattern == expectedWidest.bitPattern, "trial \(trial): \(widest) against \(expectedWidest)")
      if count > PenBrush.hairlineRun + 1 { runs += 1 }
      var a = m.apply(stroke.path.controlPoints[0].location)
      for point in stroke.path.controlPoints.dropFirst() {
        let b = m.apply(point.location)
        if !(a.distance(to: b) <= PenBrush.sampleSpacing) { longSegments += 1 }
        a = b
      }
    }
    #expect(longSegments > 100 && runs > 100, "\(longSegments) long segments, \(runs) strokes over one run")
  }

  @Test("the hairline tests (alone, and within the sampling pass) answer as a scan of every width")
  func hairlineTestsMatchAScan() {
    var rng = SeededGenerator(seed: 31)
    var decided = [false: 0, true: 0]
    for trial in 0..<2000 {
      var stroke = denseStroke(&rng, points: 2 + trial % 12, step: 0.3...12, width: rng.float(0.5...8))
      for i in stroke.path.controlPoints.indices where rng.float(0...1) < 0.3 {
        stroke.path.controlPoints[i].size.width =
          [Float.nan, .infinity, 0, -2, 9, rng.float(0...4)][Int(rng.next() % 6)]
      }
      let inkWidth = [stroke.ink.width, .nan, 0.5][Int(rng.next() % 3)]
      let scale = trial % 2 == 0 ? rng.float(0.02...0.25) : rng.float(0.25...1.2)
      // Every width, then the end phantoms', as the test reads them.
      let widths = stroke.path.controlPoints.map(\.size.width)
      var widest = inkWidth
      for width in widths { widest = Swift.max(widest, width) }
      widest = Swift.max(widest, 2 * widths[0] - widths[1])
      widest = Swift.max(widest, 2 * widths[widths.count - 1] - widths[widths.count - 2])
      let scanned = 0.5 * widest * scale * (1 + 1e-5) < PenBrush.minimumRadius
      let answer = PenBrush.isHairline(stroke.path, inkWidth: inkWidth, scale: scale)
      #expect(answer == scanned, "trial \(trial)")
      // Sampling with the test: the same answer, and the samples of the plain sampling pass.
      let m = AffineTransform(scaleX: scale, y: scale)
      var plain: [StrokePath.TipPoint] = []
      PenBrush.forEachHairlineTipPoint(of: stroke.path, through: m, spacing: PenBrush.sampleSpacing) {
        plain.append($0)
      }
      let sampled = PenBrush.withHairlineSamples(
        of: stroke.path, through: m, inkWidth: inkWidth, scale: scale
      ) {
        Array($0)
      }
      #expect((sampled != nil) == scanned, "trial \(trial)")
      if let sampled { #expect(sampled == plain, "trial \(trial)") }
      decided[answer, default: 0] += 1
    }
    #expect(decided[true]! > 200 && decided[false]! > 200, "\(decided)")
  }

  @Test("a hairline's outline is that of its discs with every nested one dropped (a tap's too)")
  func hairlineDropsNestedDiscs() throws {
    var rng = SeededGenerator(seed: 15)
    var nestedLast = 0
    for trial in 0..<300 {
      var stroke = denseStroke(&rng, points: 2 + trial % 40, step: 0.2...9, width: rng.float(1...4))
      // Now and then a tap (every point in one place): its last sample lands on the one before.
      if trial % 3 == 0 {
        for i in stroke.path.controlPoints.indices {
          stroke.path.controlPoints[i].location = stroke.path.controlPoints[0].location
        }
      }
      let scale = rng.float(0.05...0.2)
      let m = AffineTransform(scaleX: scale, y: scale)
      let built = PenBrush.outline(of: stroke, toPixels: m)
      let reference = PenBrush.withHairlineSamples(
        of: stroke.path, through: m, inkWidth: stroke.ink.width, scale: m.meanScale
      ) { points -> (outline: [Point], nestedLast: Bool)? in
        guard var discs = penDiscs(points, through: m, inkWidth: stroke.ink.width)?.discs else { return nil }
        var kept = discs
        let unnested = kept.withUnsafeMutableBufferPointer { PenBrush.keepUnnestedDiscs($0) }
        return (
          discs.withUnsafeMutableBufferPointer { PenBrush.outline(ofHairline: $0) }, unnested < discs.count
        )
      }
      let expected = try #require(reference, "trial \(trial): not a hairline")
      if expected?.nestedLast == true { nestedLast += 1 }
      #expect(built?.0.points == expected?.outline, "trial \(trial)")
    }
    #expect(nestedLast > 20, "\(nestedLast) strokes whose last disc was nested")
  }

  @Test("the hairline outline covers what the general outline of the same discs covers, in fewer points")
  func hairlineOutlineMatchesTheGeneralOne() throws {
    // Joins that turn by under 45° take one mitred corner a side instead of the general path's two
    // points (and, past the arc tolerance, an arc) on the outer side: the corner overshoots the
    // disc by under 0.043 px where the general chord cuts inside it by up to 0.045 px, so a pixel's
    // coverage moves by at most the sliver between them. Sharper turns take the general joins.
    var rng = SeededGenerator(seed: 13)
    let renderer = Renderer(threads: 1)
    for trial in 0..<200 {
      var discs: [PenSample] = []
      var c = Point(x: 50, y: 50)
      var heading = rng.float(0...6.28)
      for _ in 0..<(1 + trial % 25) {
        discs.append(PenSample(center: c, radius: PenBrush.minimumRadius))
        // Turns up to a sharp hairpin, and now and then a repeated center.
        heading += trial % 2 == 0 ? rng.float(-0.8...0.8) : rng.float(-2.5...2.5)
        let d: Float = rng.float(0...1) < 0.05 ? 0 : rng.float(0.5...4)
        c = Point(x: c.x + d * FloatMath.cos(heading), y: c.y + d * FloatMath.sin(heading))
      }
      var a = discs
      var b = discs
      let general = a.withUnsafeMutableBufferPointer { PenBrush.outline(ofDiscs: $0) }
      let hairline = b.withUnsafeMutableBufferPointer { PenBrush.outline(ofHairline: $0) }
      #expect(
        hairline.count <= general.count, "trial \(trial): \(hairline.count) against \(general.count) points")
      let coverage = [general, hairline].map { outline in
        renderer.renderLinear(
          [Primitive(path: FlatPath(contours: [outline]), rule: .nonZero, color: LinearColor(.black))],
          width: 100, height: 100, background: .clear)
      }
      var worst: Float = 0
      for i in stride(from: 3, to: coverage[0].count, by: 4) {
        worst = Swift.max(worst, abs(coverage[0][i] - coverage[1][i]))
      }
      #expect(worst < 0.03, "trial \(trial): coverage differs by \(worst)")
    }
  }

  @Test("hairline strokes stay as close to the finely sampled curve as the general path does, ink included")
  func hairlinePixelsMatchTheGeneralPath() throws {
    // A densely recorded page drawn at a sixth of its size (pen strokes 2-6 px wide: 0.3-1 px),
    // a sparsely recorded one (points 1-4 px apart once drawn, sampled between knots), and the
    // repository's recorded handwriting at a fifth of its size.
    var rng = SeededGenerator(seed: 14)
    let page: [Stroke] = (0..<40).map { _ in
      denseStroke(&rng, points: Int(rng.next() % 80) + 2, step: 0.5...4, width: rng.float(2...6))
    }
    let sparse: [Stroke] = (0..<40).map { _ in
      denseStroke(&rng, points: Int(rng.next() % 12) + 2, step: 6...24, width: rng.float(2...6))
    }
    let document = try NativeFormat.decode(try FormatFixtures.exampleBytes("bdalab-handwriting.inkwell.json"))
    let bounds = document.canvas
    let cases: [(strokes: [Stroke], view: AffineTransform, width: Int, height: Int)] = [
      (page, AffineTransform(scaleX: 1.0 / 6, y: 1.0 / 6), 48, 48),
      (sparse, AffineTransform(scaleX: 1.0 / 6, y: 1.0 / 6), 64, 64),
      (
        document.drawing.strokes,
        AffineTransform(a: 0.2, b: 0, c: 0, d: 0.2, tx: -bounds.minX * 0.2, ty: -bounds.minY * 0.2),
        Int(bounds.width * 0.2) + 1, Int(bounds.height * 0.2) + 1
      ),
    ]
    // Both ways a hairline keeps its samples: on the stack, and spilled into an array.
    let sampleCounts = cases.flatMap { strokes, view, _, _ in
      strokes.map { stroke in
        var count = 0
        PenBrush.forEachHairlineTipPoint(
          of: stroke.path, through: stroke.transform.concatenating(view), spacing: PenBrush.sampleSpacing
        ) { _ in count += 1 }
        return count
      }
    }
    #expect(sampleCounts.contains { $0 <= PenBrush.stackedSamples })
    #expect(sampleCounts.contains { $0 > PenBrush.stackedSamples })
    for (index, (strokes, view, width, height)) in cases.enumerated() {
      let hairlines = strokes.filter {
        PenBrush.isHairline($0.path, inkWidth: $0.ink.width, scale: view.meanScale)
      }.count
      #expect(
        hairlines == strokes.count, "case \(index): \(hairlines) of \(strokes.count) strokes are hairlines")
      let fast = strokes.compactMap { penPrimitive($0, view: view, hairlines: true) }
      let reference = strokes.compactMap { penPrimitive($0, view: view, hairlines: false) }
      #expect(fast.count == reference.count)
      let fine = strokes.compactMap { finePrimitive($0, view: view) }
      let renderer = Renderer(threads: 1)
      let a = renderer.renderLinear(fast, width: width, height: height, background: .clear)
      let b = renderer.renderLinear(reference, width: width, height: height, background: .clear)
      let c = renderer.renderLinear(fine, width: width, height: height, background: .clear)
      // Per pixel: the largest difference from the fine curve's coverage, and the sum of them.
      var largest: (hairline: Float, general: Float) = (0, 0)
      var summed: (hairline: Float, general: Float) = (0, 0)
      var ink: (hairline: Float, general: Float) = (0, 0)
      var fineInk: Float = 0
      for i in stride(from: 3, to: a.count, by: 4) {
        largest.hairline = Swift.max(largest.hairline, abs(a[i] - c[i]))
        largest.general = Swift.max(largest.general, abs(b[i] - c[i]))
        summed.hairline += abs(a[i] - c[i])
        summed.general += abs(b[i] - c[i])
        ink.hairline += a[i]
        ink.general += b[i]
        fineInk += c[i]
      }
      #expect(largest.hairline < 0.15, "case \(index): \(largest)")
      #expect(summed.hairline <= 1.25 * summed.general, "case \(index): \(summed)")
      // Ink (summed coverage): as close to the fine curve's as the general path's, or within 2 %.
      #expect(
        abs(ink.hairline - fineInk) <= Swift.max(abs(ink.general - fineInk), 0.02 * fineInk),
        "case \(index): \(ink) against \(fineInk)")
    }
  }
}
