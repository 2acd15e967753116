// The pen: a round tip whose diameter follows the point's size and force (and, a little, speed:
// fast strokes thin by up to 12%, see `speedScale`), tapered at both ends.
//
// The stroke is sampled along its B-spline into discs (center, radius) in pixel space. Its outline
// is the boundary of the union of the discs and of the tapered capsules between neighbours: each
// capsule side is the common tangent of two discs; on the outer side of a turn the disc's arc joins
// the sides, or, where the turn is gentle enough that the corner where the sides meet lies within
// the arc tolerance of the disc, that corner (one point, and half the chord's area error); on the
// inner side the two sides meet at their intersection (or, for sharp turns, through the disc's
// center, which keeps every covered point at winding ≥ 1). Filled with the
// non-zero rule, the outline covers exactly the swept area, once, so the stroke is composited
// once. Near the outer boundary the winding is exactly 1, so exact-area anti-aliasing stays exact
// there; a capsule-by-capsule fill would count overlapping pieces twice in edge pixels and
// thicken every edge.

import CInkwellThreads
import InkwellKernels
import InkwellModel

/// A disc of the pen's tip at one sample: center and radius in pixels.
public struct PenSample: Hashable, Sendable {
  public var center: Point
  public var radius: Float

  public init(center: Point, radius: Float) {
    self.center = center
    self.radius = radius
  }
}

/// The round pen brush.
public enum PenBrush {
  /// Curvature tolerance of flattened arcs, in pixels.
  static let arcTolerance: Float = 0.05
  /// Spacing of samples along the path, in pixels; the B-spline is smooth at this scale.
  static let sampleSpacing: Float = 1.5
  /// Samples a path's taper spans may take `sampleSpacing` apart inside a segment whose wider
  /// step would cross into them: 2¹⁶, 98 000 pixels of taper at 1.5 px, more than two ends of
  /// the widest stroke a canvas of the default pixel limit shows. Without a bound, an ink
  /// wider than the page (a document's width of 10¹⁸) made every segment a taper span, and a
  /// segment 10¹⁸ pixels long took a sample every 1.5 px, or stalled where that step no longer
  /// moved a float so large, appending until memory ran out. Past it a segment takes its usual
  /// step, at most 64 samples.
  static let taperSampleBudget = 1 << 16

  /// Widest spacing of samples where the path is nearly straight.
  static let widestSampleSpacing: Float = 6
  /// How far, in pixels, the straight sides between samples may stray from the curve.
  static let sampleTolerance: Float = 0.025
  /// Thinnest drawn radius. A thinner stroke is drawn at this radius with proportionally less
  /// alpha, which keeps its ink (coverage × alpha) while avoiding broken, aliased hairlines.
  static let minimumRadius: Float = 0.5

  /// Diameter multiplier for a normalized force: 0.2 + 0.8·f^0.8, so a light touch draws about a
  /// quarter of the full width and force 1 draws the point's full size.
  public static func pressureScale(_ force: Float) -> Float {
    let f = force.isFinite ? Swift.min(Swift.max(force, 0), 1) : 1
    return 0.2 + 0.8 * FloatMath.pow(f, 0.8)
  }

  /// Steps of `pressureTable` between force 0 and 1.
  static let pressureSteps = 4096
  /// `pressureScale` at forces k / 4096, k = 0…4096.
  static let pressureTable: [Float] = (0...pressureSteps).map {
    pressureScale(Float($0) / Float(pressureSteps))
  }

  /// `pressureScale` read from its table with linear interpolation, as the pen draws it: within
  /// 3·10⁻⁴ of the formula below force 1/4096, where f^0.8 is steepest, and within 10⁻⁶ above
  /// force 1/100, for a fraction of `powf`'s work a sample.
  public static func interpolatedPressureScale(_ force: Float) -> Float {
    pressureTable.withUnsafeBufferPointer { interpolatedPressureScale(force, table: $0) }
  }

  @inline(__always)
  static func interpolatedPressureScale(_ force: Float, table: UnsafeBufferPointer<Float>) -> Float {
    let f = force.isFinite ? Swift.min(Swift.max(force, 0), 1) : 1
    let x = f * Float(pressureSteps)
    let k = Swift.min(Int(x), pressureSteps - 1)
    let low = table[k]
    return low + (table[k + 1] - low) * (x - Float(k))
  }

  /// Speed (stroke units a second) up to which the pen's width does not depend on speed: above it
  /// the nib has less time to lay ink down and the line thins, by `speedThinning` at most.
  public static let steadySpeed: Float = 600
  /// Speed at which the thinning reaches its full amount.
  public static let fastSpeed: Float = 2000
  /// Largest fraction of the width that speed takes away.
  public static let speedThinning: Float = 0.12

  /// Diameter multiplier for a speed `v` in stroke units a second:
  /// 1 − 0.12·clamp((v − 600)/(2000 − 600), 0, 1). Moderate handwriting (a few hundred units a
  /// second) is unaffected; fast flicks thin by up to 12%.
  public static func speedScale(_ v: Float) -> Float {
    guard v.isFinite, v > steadySpeed else { return 1 }
    return 1 - speedThinning * Swift.min((v - steadySpeed) / (fastSpeed - steadySpeed), 1)
  }

  /// Speed multipliers for consecutive samples: the distance over time between neighbours, averaged
  /// over a window of ±4 samples so a jittery timestamp does not notch the outline. Samples without
  /// time (every timeOffset equal) are all 1. Written into `scales`, as many as `points`; `false`,
  /// writing nothing, when every scale is 1.
  ///
  /// Sample k's window is speeds max(k − 5, 0) ..< min(k + 4, n − 1), summed in order. The speeds
  /// sit between five zeros in front and zeros behind, so every window is nine terms, eight samples
  /// at a time, and the zeros a window reaches past either end add nothing: the sums are the floats
  /// the cut windows give. (A stroke on a thumbnail has a dozen samples, all of them near an end.)
  static func speedScales(
    of points: UnsafeBufferPointer<StrokePath.TipPoint>, into scales: UnsafeMutableBufferPointer<Float>,
    level: SIMDLevel? = nil
  ) -> Bool {
    let n = points.count
    // Counts are 32-bit lanes, converted to floats in one instruction; a stroke of 2³¹ samples
    // (tens of gigabytes) keeps its width.
    guard n > 1, n < Int(Int32.max) - 16 else { return false }
    let padded = (n + 7) & ~7
    return withUnsafeTemporaryAllocation(of: Float.self, capacity: padded + 8) { speeds in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (padded + 9)) { counts in
        // An invalid speed counts as +0 in the sums (which leaves a sum of non-negative speeds
        // unchanged); running counts of the valid ones and of those above the steady speed give
        // each window's divisor and say whether it can thin the line at all. speeds[5 + k] is the
        // speed from sample k to k + 1; validBefore[5 + q] counts the valid speeds before
        // clamp(q, 0, n − 1), so window k's count is validBefore[k + 9] − validBefore[k].
        let validBefore = UnsafeMutableBufferPointer(rebasing: counts[0..<(padded + 9)])
        let fastBefore = UnsafeMutableBufferPointer(rebasing: counts[(padded + 9)..<(2 * (padded + 9))])
        // Every speed and count is written once: the five in front and the first below, the
        // kernel's, and the zeros and totals behind once they are known.
        UnsafeMutableBufferPointer(rebasing: speeds[0..<5]).initialize(repeating: 0)
        UnsafeMutableBufferPointer(rebasing: validBefore[0..<6]).initialize(repeating: 0)
        UnsafeMutableBufferPointer(rebasing: fastBefore[0..<6]).initialize(repeating: 0)
        // The speeds and their running counts, a group of samples at a time (`inkwell_pen_speeds`).
        speedRun(
          of: points, speeds: speeds.baseAddress! + 5, validCounts: validBefore.baseAddress! + 6,
          fastCounts: fastBefore.baseAddress! + 6, level: level)
        let valid = validBefore[6 + n - 2]
        let fast = fastBefore[6 + n - 2]
        // An average of speeds none of which exceeds the steady speed does not exceed it either
        // (each partial sum stays within the steady speed times its count of valid speeds): the
        // scale is 1, as the window would find.
        guard fast > 0 else { return false }
        UnsafeMutableBufferPointer(rebasing: speeds[(n + 4)...]).initialize(repeating: 0)
        for q in (n + 5)..<(padded + 9) {
          validBefore[q] = valid
          fastBefore[q] = fast
        }
        // Each lane makes the scalar window's sums, division and comparisons in the same order.
        var k = 0
        while k < n {
          var sum = SIMD8<Float>(repeating: 0)
          for j in 0..<9 { sum += load8(speeds, k + j) }
          // Compared as floats: the standard library compares integer lanes one at a time.
          let count = SIMD8<Float>(load8(validBefore, k + 9) &- load8(validBefore, k))
          let fastCount = SIMD8<Float>(load8(fastBefore, k + 9) &- load8(fastBefore, k))
          let mean = sum / count
          let excess = (mean - steadySpeed) / (fastSpeed - steadySpeed)
          let scale = 1 - speedThinning * excess.replacing(with: 1, where: 1 .< excess)
          let thins = (count .> 0) .& (fastCount .> 0) .& (mean .> steadySpeed) .& (mean .< .infinity)
          let result = SIMD8<Float>(repeating: 1).replacing(with: scale, where: thins)
          if k + 8 <= n {
            UnsafeMutableRawPointer(scales.baseAddress! + k).storeBytes(of: result, as: SIMD8<Float>.self)
          } else {
            for l in 0..<(n - k) { scales[k + l] = result[l] }
          }
          k += 8
        }
        return true
      }
    }
  }

  @inline(__always)
  private static func load8<Scalar: SIMDScalar>(
    _ values: UnsafeMutableBufferPointer<Scalar>, _ start: Int
  ) -> SIMD8<Scalar> {
    UnsafeRawPointer(values.baseAddress! + start).loadUnaligned(as: SIMD8<Scalar>.self)
  }

  /// Diameter multiplier near the ends of a stroke `length` long, at arc length `s` from its start:
  /// 0.45 at the very end, easing out to 1 over one nominal diameter (or a third of the stroke, if
  /// shorter). The ease-out (1 − (1 − x)²) has its steepest slope at the tip, so the end narrows
  /// to a rounded point instead of ending in a knob of constant width.
  static func taper(at s: Float, length: Float, nominalDiameter: Float) -> Float {
    taper(at: s, length: length, span: Swift.min(nominalDiameter, length / 3))
  }

  /// `taper(at:length:nominalDiameter:)` with the span over which it eases out.
  @inline(__always)
  static func taper(at s: Float, length: Float, span: Float) -> Float {
    guard span > 0 else { return 1 }
    let x = Swift.min(Swift.max(Swift.min(s, length - s) / span, 0), 1)
    let ease = 1 - (1 - x) * (1 - x)
    return 0.45 + 0.55 * ease
  }

  /// The stroke's outline in pixel space and the alpha multiplier that compensates for hairlines
  /// drawn at `minimumRadius`. `nil` when the stroke draws nothing.
  public static func outline(of stroke: Stroke, toPixels view: AffineTransform) -> (FlatPath, Float)? {
    outline(of: stroke, toPixels: view, hairlines: true)
  }

  /// `outline(of:toPixels:)`; with `hairlines` false a hairline takes the general path too (the
  /// reference its tests compare the hairline path with).
  static func outline(of stroke: Stroke, toPixels view: AffineTransform, hairlines: Bool) -> (
    FlatPath, Float
  )? {
    let path = stroke.path
    guard !path.isEmpty else { return nil }
    let m = stroke.transform.concatenating(view)
    let scale = m.meanScale
    guard scale.isFinite, scale > 0 else { return nil }

    // Sample the spline `sampleSpacing` pixels apart, farther on gentle bends; `discs` drops any
    // sample closer than a third of that to the one before (where the curve is much shorter than
    // its polygon). A hairline is sampled at its knots.
    let inkWidth = stroke.ink.width
    if hairlines {
      let hairline = withHairlineSamples(of: path, through: m, inkWidth: inkWidth, scale: scale) {
        outline(ofSamples: $0, through: m, scale: scale, inkWidth: inkWidth, hairline: true)
      }
      if let hairline { return hairline }
    }
    let parameters = sampleParameters(
      of: path, through: m, spacing: sampleSpacing, maximumSpacing: widestSampleSpacing,
      tolerance: sampleTolerance, endSpan: inkWidth * scale)
    return parameters.withUnsafeBufferPointer { parameters in
      // The samples, and the spline's scratch, in the thread's scratch memory; a temporary
      // allocation for a stroke too long for it. Two allocations a stroke past the allocator's
      // per-thread cache had been a tenth of the notes page's build time.
      let splineBytes = path.tipPointScratchBytes(samples: parameters.count)
      let pointBytes = parameters.count * MemoryLayout<StrokePath.TipPoint>.stride
      let bytes = splineBytes + pointBytes + discScratchBytes(samples: parameters.count)
      return withScratch(bytes: bytes) { raw in
        let points = (raw + splineBytes).bindMemory(to: StrokePath.TipPoint.self, capacity: parameters.count)
        interpolateTipPoints(of: path, at: parameters, into: points, scratch: raw)
        return outline(
          ofSamples: UnsafeBufferPointer(start: points, count: parameters.count), through: m, scale: scale,
          inkWidth: inkWidth, hairline: false, scratch: raw + splineBytes + pointBytes)
      }
    }
  }

  /// The outline through the samples `points` and its alpha multiplier: their discs, and the
  /// boundary of the discs' union (`outline(ofHairline:)` for a hairline's).
  private static func outline(
    ofSamples points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, scale: Float,
    inkWidth: Float, hairline: Bool, scratch block: UnsafeMutableRawPointer? = nil
  ) -> (FlatPath, Float)? {
    let n = points.count
    if let block {
      // The layout `discScratchBytes` gives room for.
      let floats = block.bindMemory(to: Float.self, capacity: 2 * n)
      let discs = (block + 8 * n).bindMemory(to: PenSample.self, capacity: n)
      return outline(
        ofSamples: points, through: m, scale: scale, inkWidth: inkWidth, hairline: hairline,
        scratch: UnsafeMutableBufferPointer(start: floats, count: 2 * n),
        discs: UnsafeMutableBufferPointer(start: discs, count: n),
        plan: block + 8 * n + MemoryLayout<PenSample>.stride * n)
    }
    return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * n) { scratch in
      withUnsafeTemporaryAllocation(of: PenSample.self, capacity: n) { discs in
        outline(
          ofSamples: points, through: m, scale: scale, inkWidth: inkWidth, hairline: hairline,
          scratch: scratch,
          discs: discs, plan: nil)
      }
    }
  }

  /// The bytes of scratch `outline(ofSamples:…:scratch:)` takes for `samples` samples: their speed
  /// scales and arc lengths, discs, and their outline's join plan.
  static func discScratchBytes(samples n: Int) -> Int {
    8 * n + MemoryLayout<PenSample>.stride * n + JoinPlan.bytes(discs: n)
  }

  /// `outline(ofSamples:…)` with its scratch given: `2n` floats, `n` discs and, unless `nil`,
  /// room for their join plan (`JoinPlan.bytes(discs: n)` bytes).
  private static func outline(
    ofSamples points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, scale: Float,
    inkWidth: Float, hairline: Bool, scratch: UnsafeMutableBufferPointer<Float>,
    discs: UnsafeMutableBufferPointer<PenSample>, plan: UnsafeMutableRawPointer?
  ) -> (FlatPath, Float)? {
    let n = points.count
    let speedScales = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
    guard
      let (count, alphaScale) = self.discs(
        of: points, through: m, scale: scale, inkWidth: inkWidth,
        speedScales: self.speedScales(of: points, into: speedScales) ? speedScales : nil,
        arcs: UnsafeMutableBufferPointer(rebasing: scratch[n..<(2 * n)]), into: discs)
    else { return nil }
    let contour: [Point]
    if hairline {
      // `discs` keeps samples at least `minimumSpacing` apart, all but the last, and a
      // hairline's discs share one radius, so only the last can lie inside its neighbour:
      // `keepUnnestedDiscs` of the last two drops what it would drop from them all.
      let unnested =
        count < 2
        ? count
        : count - 2 + keepUnnestedDiscs(UnsafeMutableBufferPointer(rebasing: discs[(count - 2)..<count]))
      contour = outline(ofUnnestedHairline: UnsafeMutableBufferPointer(rebasing: discs[0..<unnested]))
    } else {
      contour = outline(ofDiscs: UnsafeMutableBufferPointer(rebasing: discs[0..<count]), scratch: plan)
    }
    guard contour.count >= 2 else { return nil }
    return (FlatPath(contour: contour), alphaScale)
  }

  /// Whether the stroke through a map of mean scale `scale` is a hairline: every disc it could
  /// have is thinner than `minimumRadius` before clamping (so `discs` draws them all at that
  /// radius, with the alpha that keeps their ink). The curve's width is a blend of its control
  /// points' and the end phantoms' widths, with non-negative weights summing to 1, or, where that
  /// blend is not a positive number, the ink's width; force, speed and taper only thin it. The
  /// definition `withHairlineSamples` applies within its sampling pass (tests compare the two).
  static func isHairline(_ path: StrokePath, inkWidth: Float, scale: Float) -> Bool {
    let n = path.count
    guard n > 1 else { return false }
    var widest = inkWidth
    path.controlPoints.withUnsafeBufferPointer { points in
      // `max` passes over NaN; an infinite width makes the stroke no hairline, which only
      // costs the general path.
      for point in points { widest = Swift.max(widest, point.size.width) }
      widest = Swift.max(widest, 2 * points[0].size.width - points[1].size.width)
      widest = Swift.max(widest, 2 * points[n - 1].size.width - points[n - 2].size.width)
    }
    return isThin(widest, scale: scale)
  }

  /// Samples a hairline keeps on the stack: 40 tip points of 24 bytes, under the 1 KiB up to
  /// which a temporary allocation stays off the heap.
  static let stackedSamples = 40

  /// `body` of the samples of `path` through `m` (`forEachHairlineTipPoint`) when the stroke is a
  /// hairline (`isHairline`); `nil`, without calling `body`, when it is not. The widths the test
  /// needs are read in the sampling pass, which reads each recorded point anyway: a separate
  /// test had been the first pass over the points and taken their cache misses alone (thumbs
  /// build 0.93× the time without it). A stroke too wide at its first point or at the front
  /// phantom is turned away before sampling.
  static func withHairlineSamples<Result>(
    of path: StrokePath, through m: AffineTransform, inkWidth: Float, scale: Float,
    _ body: (UnsafeBufferPointer<StrokePath.TipPoint>) -> Result
  ) -> Result? {
    let n = path.count
    guard n > 1 else { return nil }
    // `max` passes over NaN, and a NaN ink width stays the maximum; `widest` only grows, so the
    // order in which the widths are taken does not change it.
    var widest = path.controlPoints.withUnsafeBufferPointer { points in
      let widest = Swift.max(inkWidth, points[0].size.width)
      return Swift.max(widest, 2 * points[0].size.width - points[1].size.width)
    }
    guard isThin(widest, scale: scale) else { return nil }
    // Up to `stackedSamples` samples (a stroke on a thumbnail) stay in a buffer small enough for
    // the stack; a longer stroke moves them to an array when they outgrow it.
    return withUnsafeTemporaryAllocation(of: StrokePath.TipPoint.self, capacity: stackedSamples) { buffer in
      var count = 0
      var spilled: [StrokePath.TipPoint] = []
      forEachHairlineTipPoint(of: path, through: m, spacing: sampleSpacing, widest: &widest) { point in
        if count < buffer.count {
          buffer[count] = point
          count += 1
        } else {
          if spilled.isEmpty { spilled = Array(buffer) }
          spilled.append(point)
        }
      }
      // The end phantom's width, once the walk has brought the last points into the cache: read
      // before it, they were a miss of their own for every stroke (the 200 thumbnail pages' build
      // spent 4% of its time on that one line).
      widest = path.controlPoints.withUnsafeBufferPointer { points in
        Swift.max(widest, 2 * points[n - 1].size.width - points[n - 2].size.width)
      }
      guard isThin(widest, scale: scale) else { return nil }
      if spilled.isEmpty { return body(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
      return spilled.withUnsafeBufferPointer { body($0) }
    }
  }

  /// Whether discs of diameter `width` through a map of mean scale `scale` are all thinner than
  /// `minimumRadius`; the margin covers the rounding of the spline's width blend.
  @inline(__always)
  static func isThin(_ width: Float, scale: Float) -> Bool {
    0.5 * width * scale * (1 + 1e-5) < minimumRadius
  }

  /// How many recorded points ahead of a walk along them their cache lines are asked for (see
  /// `walkHairlineRun`).
  static let prefetchDistance = 36

  /// Asks for the cache line of `points[index + prefetchDistance]`, which may lie past the
  /// points' end (a prefetch never faults). The address is worked out on integers: a pointer past
  /// an allocation is no valid pointer to form.
  @inline(__always)
  static func prefetchAhead(_ points: UnsafePointer<StrokePoint>, of index: Int) {
    let offset = (index &+ prefetchDistance) &* MemoryLayout<StrokePoint>.stride
    inkwell_prefetch(UnsafeRawPointer(bitPattern: UInt(bitPattern: points) &+ UInt(bitPattern: offset)))
  }

  /// Segments `forEachHairlineTipPoint` walks before it samples their knots.
  static let hairlineRun = 64

  /// Where `forEachHairlineTipPoint`'s walk stands between runs: the last point mapped, the
  /// length along the polygon since the last sampled knot, and the widest width met.
  struct HairlineWalk {
    var point: Point
    var travelled: Float = 0
    var widest: Float

    init(from point: Point, widest: Float) {
      self.point = point
      self.widest = widest
    }
  }

  /// The walk over the segments that end at `points` (at most `hairlineRun`): for each knot
  /// `forEachHairlineTipPoint` samples, its index in `points` × 256 plus the steps its segment
  /// takes (1, or `segmentSteps` for a segment longer than `spacing`, sampled between its
  /// knots), written to `knots` in order; returns how many. `endsPath` says the last of
  /// `points` is the path's last knot, which is always sampled. The walk had been the sampling
  /// loop's, around the calls that sample a knot, and branched on each knot. Apart, it keeps its
  /// values in registers and counts the knots it takes instead of branching: the 200 thumbnail
  /// pages' pen build takes 0.98× the time (1.04× the instructions).
  @inline(never)
  static func walkHairlineRun(
    _ points: UnsafeBufferPointer<StrokePoint>, through m: AffineTransform, spacing: Float, endsPath: Bool,
    walk: inout HairlineWalk, into knots: UnsafeMutablePointer<Int32>
  ) -> Int {
    var a = walk.point
    var lanes = SIMD4(repeating: walk.travelled)
    var wide = walk.widest
    var count = 0
    let base = points.baseAddress!
    for i in 0..<points.count {
      // The points a stroke is recorded in stream from memory on a page of many strokes, and
      // the processor's own prefetching ran too close behind the walk: asking for the point 36
      // ahead (about 1.9 KB, into the next stroke's points near a stroke's end) took the 200
      // thumbnail pages' pen build to 0.89× the time (6, 12, 24 and 54 ahead: 0.93, 0.92, 0.90
      // and 0.88×).
      prefetchAhead(base, of: i)
      let b = m.apply(points[i].location)
      // Raised by a greater width only (one max instruction): a NaN width passes, and a NaN
      // `wide` stays.
      let width = points[i].size.width
      wide = width > wide ? width : wide
      let length = a.distance(to: b)
      a = b
      guard length <= spacing else {
        let steps = Int32(truncatingIfNeeded: segmentSteps(length: length, spacing: spacing))
        knots[count] = Int32(truncatingIfNeeded: i) << 8 | steps
        count += 1
        lanes = .zero
        continue
      }
      // Whether the knot is taken follows the hand (about one in four on a thumbnail), so it is
      // counted rather than branched on, and the length since the last knot restarts by a lane
      // select (compare, and-not), which the compiler keeps (a select of a float it made a
      // branch; a product by the taken count, an integer converted to a float, made the chain
      // from one point to the next twice as long). The path's last knot, always taken, is
      // counted after the loop rather than tested for at every point: with the width's one max
      // instruction, the loop takes 39 instructions a point where it took 50.
      let lengths = SIMD4(repeating: length)
      lanes += lengths
      let compared = lanes + 0.5 * lengths
      knots[count] = Int32(truncatingIfNeeded: i) << 8 | 1
      count &+= compared[0] >= spacing ? 1 : 0
      lanes.replace(with: 0, where: compared .>= SIMD4(repeating: spacing))
    }
    // The last knot of the path, written above and not yet counted if its length fell short.
    if endsPath && !points.isEmpty && (count == 0 || Int(knots[count - 1] >> 8) != points.count - 1) {
      count += 1
    }
    walk.point = a
    walk.travelled = endsPath ? 0 : lanes[0]
    walk.widest = wide
    return count
  }

  /// Hands `body` the samples of a hairline (`isHairline`) through `m`, in order. Where
  /// neighbouring control points lie closer together than `spacing` once mapped (a pen recorded at
  /// 240 Hz, a page shrunk to a thumbnail), the curve at the knot nearest each `spacing` mark
  /// along the control polygon: the knots of a dense path lie within a few hundredths of a pixel
  /// of the curve between them, and a knot costs a third of a point between knots. A segment
  /// longer than `spacing` is sampled `spacing` apart between its knots as `splinePoints` does.
  /// The first and the last knot are always samples.
  @inline(__always)
  static func forEachHairlineTipPoint(
    of path: StrokePath, through m: AffineTransform, spacing: Float, _ body: (StrokePath.TipPoint) -> Void
  ) {
    var widest: Float = 0
    forEachHairlineTipPoint(of: path, through: m, spacing: spacing, widest: &widest, body)
  }

  /// `forEachHairlineTipPoint(of:through:spacing:_:)`, raising `widest` on the way to each
  /// recorded point's width after the first that is greater (a NaN width passes over, a NaN
  /// `widest` stays).
  @inline(__always)
  static func forEachHairlineTipPoint(
    of path: StrokePath, through m: AffineTransform, spacing: Float, widest: inout Float,
    _ body: (StrokePath.TipPoint) -> Void
  ) {
    let n = path.count
    guard n > 1 else {
      if n == 1 { body(path.interpolatedTipPoint(at: 0)) }
      return
    }
    body(StrokePath.tipPoint(clamping: path.knotTipLanes(0)))
    path.controlPoints.withUnsafeBufferPointer { controlPoints in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: hairlineRun) { knots in
        var walk = HairlineWalk(from: m.apply(controlPoints[0].location), widest: widest)
        var start = 0
        while start < n - 1 {
          let end = Swift.min(start + hairlineRun, n - 1)
          let count = walkHairlineRun(
            UnsafeBufferPointer(rebasing: controlPoints[(start + 1)...end]), through: m, spacing: spacing,
            endsPath: end == n - 1, walk: &walk, into: knots.baseAddress!)
          for k in 0..<count {
            let i = start + Int(knots[k] >> 8)
            let steps = Int(knots[k] & 0xff)
            for j in 1..<steps { body(path.interpolatedTipPoint(at: Float(i) + Float(j) / Float(steps))) }
            let knot = i + 1
            body(
              StrokePath.tipPoint(
                clamping: knot + 2 < n
                  ? StrokePath.interiorKnotTipLanes(controlPoints.baseAddress!, knot)
                  : path.knotTipLanes(knot)))
          }
          start = end
        }
        widest = walk.widest
      }
    }
  }

  /// Writes the stroke's discs to the front of `discs`, tapered and clamped, and returns how many
  /// and the stroke's alpha multiplier; `nil` when it draws nothing. `arcs` is scratch space for
  /// as many values as `points`. The discs before the taper come from `inkwell_pen_discs` (the
  /// selected level, or `level`).
  static func discs(
    of points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, scale: Float,
    inkWidth: Float, speedScales: UnsafeMutableBufferPointer<Float>?, arcs: UnsafeMutableBufferPointer<Float>,
    into discs: UnsafeMutableBufferPointer<PenSample>, level: SIMDLevel? = nil
  ) -> (Int, Float)? {
    let (count, arc, opacitySum) = discRun(
      of: points, through: m, scale: scale, inkWidth: inkWidth, speedScales: speedScales, arcs: arcs,
      into: discs, level: level)
    return taperedDiscs(
      count: count, arc: arc, opacitySum: opacitySum, inkWidth: inkWidth, scale: scale,
      arcs: arcs, discs: discs)
  }

  /// `discRun`, one point at a time in Swift: the reference the tests compare it with.
  static func referenceDiscRun(
    of points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, scale: Float,
    inkWidth: Float, speedScales: UnsafeMutableBufferPointer<Float>?, arcs: UnsafeMutableBufferPointer<Float>,
    into discs: UnsafeMutableBufferPointer<PenSample>
  ) -> (count: Int, arc: Float, opacitySum: Float) {
    let n = points.count
    var count = 0
    var opacitySum: Float = 0
    var arc: Float = 0
    var previous = Point.zero
    let minimumSpacing = sampleSpacing / 3
    pressureTable.withUnsafeBufferPointer { pressure in
      for index in 0..<n {
        let p = points[index]
        let c = m.apply(p.location)
        guard abs(c.x) < .infinity, abs(c.y) < .infinity else { continue }
        // The distance between kept centers is both the spacing test and the arc length's step.
        var step: Float = 0
        if count > 0 {
          step = previous.distance(to: c)
          if step < minimumSpacing, index != n - 1 { continue }
        }
        let width = p.width > 0 && p.width < .infinity ? p.width : inkWidth
        var r = 0.5 * width * interpolatedPressureScale(p.force, table: pressure) * scale
        if let speedScales {
          let speed = speedScales[index]
          r *= speed < 1 ? speed : 1
        }
        guard abs(r) < .infinity else { continue }
        arc = arc + step
        arcs[count] = arc
        discs[count] = PenSample(center: c, radius: r)
        count += 1
        previous = c
        opacitySum += abs(p.opacity) < .infinity ? Swift.min(Swift.max(p.opacity, 0), 2) : 1
      }
    }
    return (count, arc, opacitySum)
  }

  /// The taper, the thinnest radius and the alpha multiplier of the first `count` discs, whose
  /// last lies `arc` along the stroke (`arcs` each one's arc length) and whose opacities sum to
  /// `opacitySum`; `nil` when they draw nothing.
  static func taperedDiscs(
    count: Int, arc: Float, opacitySum: Float, inkWidth: Float, scale: Float,
    arcs: UnsafeMutableBufferPointer<Float>, discs: UnsafeMutableBufferPointer<PenSample>
  ) -> (Int, Float)? {
    guard count > 0 else { return nil }

    // Taper by arc length from either end.
    let span = Swift.min(inkWidth * scale, arc / 3)
    var largest: Float = 0
    var sum: Float = 0
    // Beyond one span from both ends the taper is its full value; only the ends compute theirs.
    // Arc lengths only grow, so the discs within a span of the start come first and those within
    // a span of the end last: the loop runs over the three parts in order, the middle's discs
    // taking the full value without working out a taper (a hairline's first and last one or two
    // discs are its ends; the 200 thumbnail pages' build ran 0.98× the instructions).
    let full = taper(at: arc / 2, length: arc, span: span)
    @inline(__always) func nearAnEnd(_ i: Int) -> Bool { Swift.min(arcs[i], arc - arcs[i]) < span }
    var head = 0
    while head < count && nearAnEnd(head) { head += 1 }
    var tail = count
    while tail > head && nearAnEnd(tail - 1) { tail -= 1 }
    @inline(__always) func thin(_ i: Int, by factor: Float) {
      let r = discs[i].radius * factor
      discs[i].radius = r
      if i == 0 || largest < r { largest = r }
      sum = sum + r
    }
    for i in 0..<head { thin(i, by: taper(at: arcs[i], length: arc, span: span)) }
    for i in head..<tail { thin(i, by: full) }
    for i in tail..<count { thin(i, by: taper(at: arcs[i], length: arc, span: span)) }
    guard largest > 0 else { return nil }
    var alphaScale: Float = 1
    if largest < minimumRadius {
      alphaScale = sum / (Float(count) * minimumRadius)
      for i in 0..<count { discs[i].radius = minimumRadius }
    } else {
      for i in 0..<count { discs[i].radius = Swift.max(discs[i].radius, minimumRadius * 0.7) }
    }
    alphaScale *= Swift.min(opacitySum / Float(count), 2)
    return (count, alphaScale)
  }

  /// The number of samples of a spline segment `length` pixels long: ⌈length / spacing⌉ within
  /// 1…64, the ceiling taken by conversion (no library call).
  @inline(__always)
  static func segmentSteps(length: Float, spacing: Float) -> Int {
    guard length.isFinite else { return 1 }
    let q = Swift.min(length / spacing, 64)
    return Swift.max(Int(q) + (Float(Int(q)) < q ? 1 : 0), 1)
  }

  /// The parameters at which the pen samples `path` mapped through `m`: one every `spacing`
  /// pixels along the control polygon (at most 64 a segment), the polygon's length within a
  /// segment taken as proportional to the parameter, then the path's end. Control points closer
  /// together than `spacing` (a pen recorded at 240 Hz, a page shrunk to a thumbnail) are passed
  /// over, not each sampled: the samples stay about `spacing` apart at every scale.
  ///
  /// Where the path bends gently the samples spread out, up to `maximumSpacing` apart: the
  /// outline joins its samples' discs by straight sides, which stray from the curve by the
  /// sagitta h²/8R of a step h on a bend of radius R, so a segment takes the step whose sagitta
  /// is `tolerance` on the tightest bend around it. Bends are measured at anchors, control points
  /// at least `spacing` apart along the polygon (so a densely recorded path is sampled as a sparse
  /// one): R of the circle through an anchor and its neighbours, R = |u||v||u + v| / 2|u × v| for
  /// the chords u, v around it, no trigonometry. Within `endSpan` of either end of the polygon,
  /// where the taper changes the radius quickly, the step stays `spacing`, for at most
  /// `taperSampleBudget` samples a path (see there).
  static func sampleParameters(
    of path: StrokePath, through m: AffineTransform, spacing: Float, maximumSpacing: Float? = nil,
    tolerance: Float = 0, endSpan: Float = 0
  ) -> [Float] {
    let n = path.count
    guard n > 1 else { return n == 1 ? [0] : [] }
    let widest = Swift.max(maximumSpacing ?? spacing, spacing)
    // lengths[i]: segment i's length; steps[i]: the step on it; then, for the anchors (the first
    // point and up to n − 1 more), their x and y, their points' indices and the step at each,
    // four entries of padding after each for the vector loop's reads.
    let scratchFloats = 2 * n + 4 * (n + 4)
    return path.controlPoints.withUnsafeBufferPointer { controlPoints in
      withScratch(bytes: scratchFloats * MemoryLayout<Float>.stride) { raw in
        let scratch = raw.bindMemory(to: Float.self, capacity: scratchFloats)
        let lengths = UnsafeMutableBufferPointer(start: scratch, count: n)
        let steps = UnsafeMutableBufferPointer(start: scratch + n, count: n)
        let anchorX = scratch + 2 * n
        let anchorY = anchorX + (n + 4)
        let anchorIndex = UnsafeMutableRawPointer(anchorY + (n + 4)).bindMemory(
          to: Int32.self, capacity: n + 4)
        let anchorStep = UnsafeMutableRawPointer(anchorIndex + (n + 4)).bindMemory(
          to: Float.self, capacity: n + 4)
        let adaptive = widest > spacing
        // One pass maps each control point once, measures the segments and, where samples may
        // spread out, picks the anchors, points at least `spacing` apart along the polygon
        // (densely recorded points would bend with the hand's jitter). The squared step at each
        // anchor, 8·tolerance·R for the bend through it and its neighbours, is then worked out
        // four anchors at a time: one at a time, its two roots, division and third root waited on
        // each other, anchor after anchor, a quarter of a page of notes' build time. A segment
        // between two anchors takes the smaller of their steps.
        var total: Float = 0
        var a = m.apply(controlPoints[0].location)
        anchorX[0] = a.x
        anchorY[0] = a.y
        var anchors = 1
        var run: Float = 0
        for i in 0..<(n - 1) {
          // The first pass over a stroke's recorded points takes their cache misses: asked for
          // ahead, as `walkHairlineRun` does.
          prefetchAhead(controlPoints.baseAddress!, of: i)
          let b = m.apply(controlPoints[i + 1].location)
          let length = a.distance(to: b)
          lengths[i] = length
          total += length.isFinite ? length : 0
          a = b
          guard adaptive else { continue }
          run += length.isFinite ? length : spacing
          // Every point is written as the next anchor and counted only when it is one: whether
          // the polygon has run `spacing` since the last anchor follows the hand's spacing, and
          // as a branch it was guessed wrong about as often as right on densely recorded pages.
          let isAnchor = run >= spacing || i == n - 2
          anchorX[anchors] = b.x
          anchorY[anchors] = b.y
          anchorIndex[anchors] = Int32(truncatingIfNeeded: i + 1)
          anchors &+= isAnchor ? 1 : 0
          run = isAnchor ? 0 : run
        }
        if adaptive {
          for k in anchors..<(anchors + 4) {
            anchorX[k] = 0
            anchorY[k] = 0
          }
          anchorSteps(
            x: anchorX, y: anchorY, count: anchors, spacing: spacing, widest: widest, scale: 4 * tolerance,
            into: anchorStep)
          var first = 0
          var pending = widest
          for k in Swift.stride(from: 1, to: anchors - 1, by: 1) {
            let step = anchorStep[k]
            let shared = Swift.min(pending, step)
            let middle = Int(anchorIndex[k])
            for j in first..<middle { steps[j] = shared }
            pending = step
            first = middle
          }
          for j in first..<(n - 1) { steps[j] = pending }
        }
        // About one sample a segment and one every `spacing` along the polygon, and the end (a
        // segment takes 64 at most).
        let alongPolygon: Float = Swift.min(total / spacing, Float(64 * n))
        // The array is the innermost closure's own: captured from outside, every append asked
        // whether its buffer was still unique (a call a sample).
        var parameters: [Float] = []
        parameters.reserveCapacity(n + 1 + Int(alongPolygon))
        // The step on segment `i`, which starts `travelled` along the polygon.
        @inline(__always) func step(_ i: Int, _ travelled: Float) -> Float {
          guard adaptive, travelled >= endSpan, travelled + lengths[i] <= total - endSpan else {
            return spacing
          }
          return steps[i]
        }
        // Distance along the polygon from the current segment's start to the next sample.
        var next: Float = 0
        var travelled: Float = 0
        var taperBudget = taperSampleBudget
        for i in 0..<(n - 1) {
          let length = lengths[i]
          guard length.isFinite else {
            parameters.append(Float(i))
            next = step(i, travelled)
            continue
          }
          let start = travelled
          travelled += length
          guard next < length else {
            next -= length
            continue
          }
          let fi = Float(i)
          let gap = Swift.max(step(i, start), length / 64)
          // A wide step stops where the end's taper begins, which it would otherwise cut across.
          let taperStart = total - endSpan - start
          var s = next
          while s < length {
            parameters.append(fi + s / length)
            if gap > spacing && s + gap > taperStart && taperBudget > 0 {
              s = Swift.max(s + spacing, taperStart)
              taperBudget -= 1
            } else {
              s = s + gap
            }
          }
          next = Swift.min(s - length, i + 1 < n - 1 ? step(i + 1, travelled) : spacing)
        }
        parameters.append(Float(n - 1))
        return parameters
      }
    }
  }

  /// The step at each anchor `k` in 1 ..< `count` − 1 of the anchors at (`x`, `y`) (each array
  /// with four readable entries past `count`): the step whose sagitta is `scale` / 8 on the circle
  /// through anchors k − 1, k and k + 1, R = |u||v||u + v| / 2|u × v| for the chords u, v around
  /// it, within `spacing` … `widest`; `spacing` where the bend is tighter than that or is not a
  /// number. Written to `steps[k]`, four anchors at a time, each lane the floats one anchor at a
  /// time gives (its operations in the same order, the comparisons as selects).
  static func anchorSteps(
    x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>, count: Int, spacing: Float, widest: Float,
    scale: Float, into steps: UnsafeMutablePointer<Float>
  ) {
    @inline(__always) func load(_ p: UnsafeMutablePointer<Float>, _ k: Int) -> SIMD4<Float> {
      UnsafeRawPointer(p + k).loadUnaligned(as: SIMD4<Float>.self)
    }
    @inline(__always) func finite(_ v: SIMD4<Float>) -> SIMDMask<SIMD4<Int32>> {
      (v .< .infinity) .& (v .> -.infinity)
    }
    /// |v|, the sign bits cleared.
    @inline(__always) func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
      unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & 0x7fff_ffff, to: SIMD4<Float>.self)
    }
    var k = 1
    while k < count - 1 {
      let previousX = load(x, k - 1)
      let previousY = load(y, k - 1)
      let pointX = load(x, k)
      let pointY = load(y, k)
      let nextX = load(x, k + 1)
      let nextY = load(y, k + 1)
      let ux = pointX - previousX
      let uy = pointY - previousY
      let vx = nextX - pointX
      let vy = nextY - pointY
      let bend = magnitude(ux * vy - uy * vx)
      let before = (ux * ux + uy * uy).squareRoot()
      let after = (vx * vx + vy * vy).squareRoot()
      let wx = ux + vx
      let wy = uy + vy
      let product = scale * (before * after * (wx * wx + wy * wy).squareRoot())
      let gentle = finite(product) .& finite(bend) .& (product .> bend * spacing * spacing)
      var squared = SIMD4<Float>(repeating: widest * widest)
      squared.replace(with: product / bend, where: product .< bend * widest * widest)
      // Swift.min(Swift.max(√squared, spacing), widest); the root of |squared| as the scalar's.
      var step = magnitude(squared).squareRoot()
      step.replace(with: spacing, where: step .<= spacing)
      step.replace(with: widest, where: step .> widest)
      let result = SIMD4<Float>(repeating: spacing).replacing(with: step, where: gentle)
      UnsafeMutableRawPointer(steps + k).storeBytes(of: result, as: SIMD4<Float>.self)
      k += 4
    }
  }

  /// `body` of `bytes` bytes of scratch, aligned for `SIMD8<Float>`: the thread's scratch block
  /// where it is large enough (see `inkwell_thread_scratch`), else a temporary allocation. `body`
  /// must not itself use the thread's block.
  @inline(__always)
  static func withScratch<Result>(bytes: Int, _ body: (UnsafeMutableRawPointer) -> Result) -> Result {
    if let block = inkwell_thread_scratch(bytes) { return body(block) }
    return withUnsafeTemporaryAllocation(byteCount: bytes, alignment: MemoryLayout<SIMD8<Float>>.alignment) {
      body($0.baseAddress!)
    }
  }

  /// Points along the spline: per segment, enough that neighbours are about `spacing` pixels
  /// apart once mapped through `m` (1 to 64 a segment), then the path's end. Shared by every brush.
  static func splinePoints(of path: StrokePath, through m: AffineTransform, spacing: Float) -> [StrokePoint] {
    splinePoints(of: path, through: m, spacing: spacing) { path.interpolatedPoint(at: $0) }
  }

  /// `splinePoints(of:through:spacing:)` with the point at each parameter made by `sample`.
  @inline(__always)
  static func splinePoints<Sample>(
    of path: StrokePath, through m: AffineTransform, spacing: Float, sample: (Float) -> Sample
  ) -> [Sample] {
    let n = path.count
    guard n > 1 else { return n == 1 ? [sample(0)] : [] }
    var points: [Sample] = []
    points.reserveCapacity(n * 2)
    path.controlPoints.withUnsafeBufferPointer { controlPoints in
      var a = m.apply(controlPoints[0].location)
      for i in 0..<(n - 1) {
        // As in `walkHairlineRun`: the recorded points are asked for ahead of the walk.
        prefetchAhead(controlPoints.baseAddress!, of: i)
        let b = m.apply(controlPoints[i + 1].location)
        let steps = segmentSteps(length: a.distance(to: b), spacing: spacing)
        for j in 0..<steps {
          points.append(sample(Float(i) + Float(j) / Float(steps)))
        }
        a = b
      }
    }
    points.append(sample(Float(n - 1)))
    return points
  }

  /// The boundary of the union of the discs and the capsules between consecutive discs, one
  /// closed polygon whose non-zero fill is exactly that union. Every outline winds the same way.
  public static func outline(of input: [PenSample]) -> [Point] {
    var discs = input
    return discs.withUnsafeMutableBufferPointer { outline(ofDiscs: $0) }
  }

  /// Drops the discs of `buffer` that lie inside a neighbour (they add nothing to the union, and a
  /// tangent line between nested discs does not exist), moving the kept ones to its front, and
  /// returns how many it kept.
  static func keepUnnestedDiscs(_ buffer: UnsafeMutableBufferPointer<PenSample>) -> Int {
    let slack: Float = 1e-3
    // Nearly always every disc is too far from the one before it to nest (the first test below):
    // a pass that only counts says so and nothing moves, where the loop below copied every disc
    // onto itself (notes: 29 instructions a disc, 20 this way).
    var near = 0
    for k in buffer.indices.dropFirst() {
      let delta = buffer[k].center - buffer[k - 1].center
      let reach = abs(buffer[k].radius - buffer[k - 1].radius) + slack
      near &+= delta.x * delta.x + delta.y * delta.y > reach * reach ? 0 : 1
    }
    if near == 0 { return buffer.count }
    var count = 0
    for k in 0..<buffer.count {
      let s = buffer[k]
      if count > 0 {
        let last = buffer[count - 1]
        // Neighbours farther apart than their radii differ (nearly all: samples are 1.5 px apart,
        // radii change slowly) nest in neither direction; the squares say so without a root.
        let delta = s.center - last.center
        let reach = abs(s.radius - last.radius) + slack
        if delta.x * delta.x + delta.y * delta.y > reach * reach {
          buffer[count] = s
          count += 1
          continue
        }
        var distance = last.center.distance(to: s.center)
        if distance + s.radius <= last.radius + slack { continue }
        while distance + buffer[count - 1].radius <= s.radius + slack {
          count -= 1
          guard count > 0 else { break }
          distance = buffer[count - 1].center.distance(to: s.center)
        }
      }
      buffer[count] = s
      count += 1
    }
    return count
  }

  /// `outline(of:)` of the discs in `buffer`, which it reorders and overwrites.
  static func outline(ofDiscs buffer: UnsafeMutableBufferPointer<PenSample>) -> [Point] {
    outline(ofDiscs: buffer, scratch: nil)
  }

  /// `outline(ofDiscs:)`, its join plan in `scratch` (`JoinPlan.bytes(discs:)` bytes for as
  /// many discs as `buffer` has) when given, else in a temporary allocation; planned at the
  /// selected level or at `planLevel`.
  static func outline(
    ofDiscs buffer: UnsafeMutableBufferPointer<PenSample>, scratch: UnsafeMutableRawPointer?,
    planLevel: SIMDLevel? = nil
  ) -> [Point] {
    let count = keepUnnestedDiscs(buffer)
    guard count > 0 else { return [] }
    if count == 1 { return circle(center: buffer[0].center, radius: buffer[0].radius) }
    let discs = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
    if let scratch {
      return outline(ofUnnestedDiscs: discs, plan: JoinPlan(scratch: scratch, discs: count), level: planLevel)
    }
    return withUnsafeTemporaryAllocation(
      byteCount: JoinPlan.bytes(discs: count), alignment: MemoryLayout<SIMD4<Float>>.alignment
    ) { scratch in
      outline(
        ofUnnestedDiscs: discs, plan: JoinPlan(scratch: scratch.baseAddress!, discs: count), level: planLevel)
    }
  }

  /// `outline(ofDiscs:)` of at least two discs, none inside a neighbour, from their join plan
  /// (`planJoins`): the left sides run forward into the outline; after the tail's arc the right
  /// sides run backward, each join's points in reverse order, as the reversed chain.
  private static func outline(
    ofUnnestedDiscs buffer: UnsafeMutableBufferPointer<PenSample>, plan: JoinPlan, level: SIMDLevel?
  ) -> [Point] {
    planJoins(of: buffer, into: plan, level: level)
    let count = buffer.count
    let first = buffer[0]
    let segments = count - 1
    var outline: [Point] = []
    outline.reserveCapacity(2 * count + count / 2 + 8)
    /// Capsule `i`'s left (`side` 0) or right (1) side.
    @inline(__always) func side(_ side: Int, _ i: Int) -> Side {
      Side(plan.offset(side, i), from: buffer[i], to: buffer[i + 1])
    }
    let corner = JoinKind.corner.rawValue
    let crossing = JoinKind.crossing.rawValue
    // A run of planned joins goes into the outline in one copy, before the next join that takes
    // `join` (about one in a hundred on the notes page).
    var kind = plan.kind(0)
    var along = plan.along(0)
    var alongNext = plan.alongNext(0)
    let leftPoints = plan.leftPoints
    outline.append(side(0, 0).start)
    var entry: Float = 0
    var run = 1
    for j in 1..<segments {
      if kind[j] == corner {
        entry = 0
      } else if kind[j] == crossing && along[j] >= entry && alongNext[j] <= 1 {
        entry = alongNext[j]
      } else {
        outline.append(contentsOf: UnsafeBufferPointer(start: leftPoints + run, count: j - run))
        join(
          side(0, j - 1), side(0, j), at: buffer[j], outerWhenTurning: -1, reversed: false, entry: &entry,
          into: &outline)
        run = j + 1
      }
    }
    outline.append(contentsOf: UnsafeBufferPointer(start: leftPoints + run, count: segments - run))
    let leftEnd = side(0, segments - 1).end
    outline.append(leftEnd)

    let tail = buffer[segments]
    let rightEnd = side(1, segments - 1).end
    appendArc(
      center: tail.center, radius: tail.radius, from: leftEnd, to: rightEnd,
      through: tangents(buffer[segments - 1], tail).direction, into: &outline)
    outline.append(rightEnd)
    kind = plan.kind(1)
    along = plan.along(1)
    alongNext = plan.alongNext(1)
    // Join j's point at segments − 1 − j; the run pending holds joins `top` down to the last.
    let rightPoints = plan.rightPoints
    entry = 1
    var top = segments - 1
    for j in Swift.stride(from: segments - 1, through: 1, by: -1) {
      if kind[j] == corner {
        entry = 1
      } else if kind[j] == crossing && alongNext[j] <= entry && along[j] >= 0 {
        entry = along[j]
      } else {
        outline.append(
          contentsOf: UnsafeBufferPointer(start: rightPoints + (segments - 1 - top), count: top - j))
        join(
          side(1, j - 1), side(1, j), at: buffer[j], outerWhenTurning: 1, reversed: true, entry: &entry,
          into: &outline)
        top = j - 1
      }
    }
    outline.append(contentsOf: UnsafeBufferPointer(start: rightPoints + (segments - 1 - top), count: top))
    let rightStart = side(1, 0).start
    outline.append(rightStart)
    appendArc(
      center: first.center, radius: first.radius, from: rightStart, to: outline[0],
      through: tangents(first, buffer[1]).direction * -1, into: &outline)
    return fitted(outline)
  }

  /// The outline `outline(ofDiscs:)` is checked against: each capsule's tangents and each join
  /// worked out in turn as the chains reach them.
  static func referenceOutline(ofDiscs buffer: UnsafeMutableBufferPointer<PenSample>) -> [Point] {
    let count = keepUnnestedDiscs(buffer)
    guard count > 0 else { return [] }
    let first = buffer[0]
    if count == 1 { return circle(center: first.center, radius: first.radius) }
    return withUnsafeTemporaryAllocation(of: Point.self, capacity: 2 * (count - 1)) { offsets in
      referenceOutline(ofDiscs: buffer, count: count, offsets: offsets)
    }
  }

  /// `referenceOutline(ofDiscs:)` of the first `count` discs, none inside a neighbour.
  private static func referenceOutline(
    ofDiscs buffer: UnsafeMutableBufferPointer<PenSample>, count: Int,
    offsets: UnsafeMutableBufferPointer<Point>
  ) -> [Point] {
    let first = buffer[0]
    let segments = count - 1
    var outline: [Point] = []
    outline.reserveCapacity(2 * count + count / 2 + 8)
    for i in 0..<segments {
      let sides = tangents(buffer[i], buffer[i + 1])
      offsets[2 * i] = sides.left
      offsets[2 * i + 1] = sides.right
    }
    // The side is convex at a join (a gap to bridge with the disc's arc) when its offset turns
    // against the side's direction of traversal: clockwise on the left, counterclockwise on
    // the right. A change of taper alone can make either side convex.
    var left = Side(offsets[0], from: buffer[0], to: buffer[1])
    outline.append(left.start)
    var entry: Float = 0
    for j in 1..<segments {
      let next = Side(offsets[2 * j], from: buffer[j], to: buffer[j + 1])
      join(left, next, at: buffer[j], outerWhenTurning: -1, reversed: false, entry: &entry, into: &outline)
      left = next
    }
    outline.append(left.end)

    let tail = buffer[segments]
    var right = Side(offsets[2 * segments - 1], from: buffer[segments - 1], to: tail)
    appendArc(
      center: tail.center, radius: tail.radius, from: left.end, to: right.end,
      through: tangents(buffer[segments - 1], tail).direction, into: &outline)
    outline.append(right.end)
    entry = 1
    for j in stride(from: segments - 1, through: 1, by: -1) {
      let previous = Side(offsets[2 * j - 1], from: buffer[j - 1], to: buffer[j])
      join(
        previous, right, at: buffer[j], outerWhenTurning: 1, reversed: true, entry: &entry, into: &outline)
      right = previous
    }
    outline.append(right.start)
    appendArc(
      center: first.center, radius: first.radius, from: right.start, to: outline[0],
      through: tangents(first, buffer[1]).direction * -1, into: &outline)
    return fitted(outline)
  }

  /// `outline` itself, or a copy of its size when its capacity is far from it. The reserve the
  /// outlines make is what one usually takes: a point on each side of most joins (a corner), two
  /// or more on the outer side of a sharper turn, a few for the caps (notes: 2.2 a disc). An
  /// outline that outgrew it (twice the reserve) or took far less is copied to its size: the
  /// path keeps this array, and a page's worth of outlines (the band renderer keeps a million
  /// points) would hold that much more memory.
  @inline(__always)
  static func fitted(_ outline: [Point]) -> [Point] {
    guard outline.capacity > outline.count + outline.count / 2 else { return outline }
    var copy: [Point] = []
    copy.reserveCapacity(outline.count)
    copy.append(contentsOf: outline)
    return copy
  }

  /// The steps of a cap of radius `r` (a half turn, each step within `arcTolerance` of the
  /// circle) and the cosine and sine of one clockwise step.
  static func capRotation(radius r: Float) -> (steps: Int, cosine: Float, sine: Float) {
    let steps = Swift.max(2, arcSteps(Float.pi, step: angleStep(radius: r)))
    return (steps, FloatMath.cos(Float.pi / Float(steps)), -FloatMath.sin(Float.pi / Float(steps)))
  }

  /// `capRotation(radius: minimumRadius)`.
  static let hairlineCap = capRotation(radius: minimumRadius)

  /// `outline(ofDiscs:)` of discs that all have radius `minimumRadius` (a hairline's, which
  /// `discs` clamps): the same sides and joins, the sides' offsets the plain normals (equal radii
  /// give them no slope, so `tangents` would return the same floats), and caps stepped by a fixed
  /// rotation of a half turn instead of arcs measured by arctangents.
  static func outline(ofHairline buffer: UnsafeMutableBufferPointer<PenSample>) -> [Point] {
    outline(ofUnnestedHairline: UnsafeMutableBufferPointer(rebasing: buffer[0..<keepUnnestedDiscs(buffer)]))
  }

  /// `outline(ofHairline:)` of discs none of which lies inside a neighbour.
  static func outline(ofUnnestedHairline buffer: UnsafeMutableBufferPointer<PenSample>) -> [Point] {
    let count = buffer.count
    guard count > 0 else { return [] }
    let first = buffer[0]
    let r = first.radius
    if count == 1 { return circle(center: first.center, radius: r) }
    let segments = count - 1
    // A hairline's discs all have the minimum radius, so its caps' rotation is worked out once.
    let (capSteps, capCosine, capSine) = r == minimumRadius ? hairlineCap : capRotation(radius: r)
    /// A cap's interior points: `from` (an offset of length r) turned clockwise by a half turn.
    @inline(__always) func cap(_ center: Point, from start: Point, into outline: inout [Point]) {
      var v = start
      for _ in 1..<capSteps {
        v = Point(x: v.x * capCosine - v.y * capSine, y: v.x * capSine + v.y * capCosine)
        outline.append(center + v)
      }
    }
    return withUnsafeTemporaryAllocation(of: Point.self, capacity: 3 * segments) { scratch in
      // normals[i]: segment i's left normal; miters[j]: join j's offset to its left corner, or
      // NaN where the join takes `join`; entries[j]: where a mitred join's chain comes onto the
      // next side, as `join`'s `entry` (x going forward on the left, y backward on the right).
      let normals = UnsafeMutableBufferPointer(rebasing: scratch[0..<segments])
      let miters = UnsafeMutableBufferPointer(rebasing: scratch[segments..<(2 * segments)])
      let entries = UnsafeMutableBufferPointer(rebasing: scratch[(2 * segments)..<(3 * segments)])
      var outline: [Point] = []
      outline.reserveCapacity(2 * count + count / 4 + 2 * capSteps + 8)
      // Each segment's normal and length, and each join from the segment before, whose normal and
      // length are carried along: read back from `normals`, the compiler's vectors read four
      // normals straddling the two stores still in flight before them, and waited for them.
      @inline(__always) func normalAndLength(_ i: Int) -> (Point, Float) {
        let delta = buffer[i + 1].center - buffer[i].center
        let length = delta.length
        let d = delta * (1 / length)
        return (Point(x: -d.y, y: d.x), length)
      }
      var (previous, previousLength) = normalAndLength(0)
      normals[0] = previous
      for i in 1..<segments {
        let (normal, length) = normalAndLength(i)
        normals[i] = normal
        // A turn of under 45.6° (1 + cos > 1.7) whose inner corner lies within half of either
        // side (the corner is r·tan(θ/2) = r·|sin θ| / (1 + cos θ) along them).
        let k = 1 + (previous.x * normal.x + previous.y * normal.y)
        let turn = cross(previous, normal)
        let sine = abs(turn)
        miters[i] =
          k > 1.7 && r * sine <= 0.5 * Swift.min(previousLength, length) * k
          ? (previous + normal) * (r / k) : Point(x: .nan, y: .nan)
        // The inner side (the left for a counterclockwise turn) meets the next side r·tan(θ/2)
        // along it; the outer side's corner lies before that side, so the chain enters at its
        // near end.
        let along = r * sine / k
        entries[i] = Point(x: turn > 0 ? along / length : 0, y: turn < 0 ? 1 - along / previousLength : 1)
        previousLength = length
        previous = normal
      }
      // The sides of segment i, left and right: made where a join needs them, which most joins
      // of a hairline (its mitred corners) do not (the 200 thumbnail pages' build ran 0.97× the
      // instructions without making them at every join).
      @inline(__always) func leftSide(_ i: Int) -> Side {
        Side(normals[i], from: buffer[i], to: buffer[i + 1])
      }
      @inline(__always) func rightSide(_ i: Int) -> Side {
        Side(normals[i] * -1, from: buffer[i], to: buffer[i + 1])
      }
      outline.append(leftSide(0).start)
      var entry: Float = 0
      for j in 1..<segments {
        let miter = miters[j]
        if miter.x.isNaN {
          join(
            leftSide(j - 1), leftSide(j), at: buffer[j], outerWhenTurning: -1, reversed: false, entry: &entry,
            into: &outline)
        } else {
          outline.append(buffer[j].center + miter)
          entry = entries[j].x
        }
      }
      outline.append(leftSide(segments - 1).end)
      cap(buffer[segments].center, from: normals[segments - 1] * r, into: &outline)
      outline.append(rightSide(segments - 1).end)
      entry = 1
      for j in stride(from: segments - 1, through: 1, by: -1) {
        let miter = miters[j]
        if miter.x.isNaN {
          join(
            rightSide(j - 1), rightSide(j), at: buffer[j], outerWhenTurning: 1, reversed: true, entry: &entry,
            into: &outline)
        } else {
          outline.append(buffer[j].center - miter)
          entry = entries[j].y
        }
      }
      outline.append(rightSide(0).start)
      cap(first.center, from: normals[0] * -r, into: &outline)
      return outline
    }
  }

  /// Direction from `a` to `b` and the unit offsets from a disc's center to the left and right
  /// tangent sides of their capsule.
  @inline(__always)
  static func tangents(_ a: PenSample, _ b: PenSample) -> (direction: Point, left: Point, right: Point) {
    let delta = b.center - a.center
    let inverseLength = 1 / delta.length
    let d = delta * inverseLength
    let sine = Swift.min(Swift.max((b.radius - a.radius) * inverseLength, -1), 1)
    // `abs` of a non-negative value, as in `sampleParameters`: the bare root instruction.
    let cosine = abs(1 - sine * sine).squareRoot()
    let normal = Point(x: -d.y, y: d.x)
    return (d, normal * cosine - d * sine, normal * (-cosine) - d * sine)
  }

  /// One tangent side of a capsule: its offset and its ends on the two discs.
  struct Side {
    var offset: Point
    var start: Point
    var end: Point

    @inline(__always)
    init(_ offset: Point, from a: PenSample, to b: PenSample) {
      self.offset = offset
      start = a.center + offset * a.radius
      end = b.center + offset * b.radius
    }
  }

  /// Appends the join of side `a` and the next side `b` at `disc`: where the side turns outwards,
  /// the corner where the sides meet if it lies within the arc tolerance of the disc, else the
  /// disc's arc; where it turns inwards, the sides' crossing (or, for sharp turns, the disc's
  /// center). `reversed` appends the same points last to first.
  ///
  /// `entry` is where the chain came onto the side it runs along, as a fraction of that side
  /// from its start: `a` (0 for its start) going forward, `b` (1 for its end) reversed. A
  /// crossing is taken only where it lies on both sides and after `entry` in the chain's
  /// direction, so the chain never runs back along a side; the join leaves `entry` for the next.
  @inline(__always)
  static func join(
    _ a: Side, _ b: Side, at disc: PenSample, outerWhenTurning sign: Float, reversed: Bool,
    entry: inout Float, into chain: inout [Point]
  ) {
    let turn = cross(a.offset, b.offset)
    if turn * sign > 0 {
      // Both sides touch the disc, so they meet at center + (a + b)·r / (1 + a·b) for the unit
      // offsets a, b, which lies r·(1 / cos(θ/2) − 1) outside the disc for a turn θ: within the
      // arc's tolerance, that one corner stands for the arc.
      let r = disc.radius
      let k = 1 + (a.offset.x * b.offset.x + a.offset.y * b.offset.y)
      let epsilon = r > arcTolerance ? arcTolerance * 0.9 : arcTolerance * 0.25
      let q = r / (r + epsilon)
      entry = reversed ? 1 : 0
      if k >= 2 * q * q {
        chain.append(disc.center + (a.offset + b.offset) * (r / k))
        return
      }
      chain.append(reversed ? b.start : a.end)
      appendArc(
        center: disc.center, radius: disc.radius, from: a.end, to: b.start, reversed: reversed, into: &chain)
      chain.append(reversed ? a.end : b.start)
      return
    }
    if let (ta, tb) = crossing(
      previousStart: a.start, previousEnd: a.end, nextStart: b.start, nextEnd: b.end),
      ta <= 1, tb >= 0,
      reversed ? (tb <= entry && ta >= 0) : (ta >= entry && tb <= 1)
    {
      chain.append(a.start + (a.end - a.start) * ta)
      entry = reversed ? ta : tb
      return
    }
    chain.append(reversed ? b.start : a.end)
    chain.append(disc.center)
    chain.append(reversed ? a.end : b.start)
    entry = reversed ? 1 : 0
  }

  /// Where the lines through two sides cross, as fractions of each from its start; `nil` for
  /// (nearly) parallel sides.
  @inline(__always)
  static func crossing(
    previousStart a0: Point, previousEnd a1: Point, nextStart b0: Point, nextEnd b1: Point
  ) -> (Float, Float)? {
    let da = a1 - a0
    let db = b1 - b0
    let denominator = cross(da, db)
    guard abs(denominator) > 1e-12 else { return nil }
    let w = b0 - a0
    return (cross(w, db) / denominator, cross(w, da) / denominator)
  }

  @inline(__always) static func cross(_ a: Point, _ b: Point) -> Float { a.x * b.y - a.y * b.x }

  /// Angle step that keeps a flattened arc of radius `r` within `arcTolerance` of the circle,
  /// and never under `smallestAngleStep`.
  static func angleStep(radius r: Float) -> Float {
    // Every arc of a hairline has the minimum radius: its step, worked out once.
    r == minimumRadius ? minimumRadiusAngleStep : computedAngleStep(radius: r)
  }

  /// The step of the widest radius whose 1 − tolerance / r is still below 1 in float (about
  /// 1.7 million pixels): 2·acos(1 − 2⁻²⁴), about 9 100 steps a turn. Wider radii (a document's
  /// ink ten million units wide) had a step of 0, an infinite number of steps, and a trap
  /// converting it; they take this step, every narrower radius the one it always had. A radius
  /// that is not a number takes it too.
  static let smallestAngleStep = 2 * FloatMath.acos(0x1.fffffep-1)

  private static func computedAngleStep(radius r: Float) -> Float {
    let ratio = arcTolerance / Swift.max(r, 1e-6)
    guard ratio < 1 else { return Float.pi / 2 }
    return Swift.max(smallestAngleStep, 2 * FloatMath.acos(1 - ratio))
  }

  /// Steps of an arc that turns by `angle` (finite) with steps of at most `step`: ⌈angle / step⌉,
  /// which `smallestAngleStep` keeps under 9 100 a turn.
  @inline(__always)
  static func arcSteps(_ angle: Float, step: Float) -> Int {
    let q: Float = Swift.min(abs(angle) / step, 0x1p20)
    return q.isNaN ? 0 : Int(q.rounded(.up))
  }

  private static let minimumRadiusAngleStep = computedAngleStep(radius: minimumRadius)

  /// Appends the interior points of the shorter arc from `from` to `to` around `center`.
  static func appendArc(
    center: Point, radius: Float, from: Point, to: Point, reversed: Bool = false, into points: inout [Point]
  ) {
    // Most joins of a stroke sampled every pixel or two turn by less than an arc step, which adds
    // no point. The sagitta of the chord says so without trigonometry. Above the tolerance the
    // step is the turn whose sagitta is the tolerance, so a sagitta of at most nine tenths of it
    // means a turn of at most about 0.95 of a step (at a thumbnail's half-pixel radius, this
    // spares the arctangent for half the joins that turn by more than a quarter of a step); at or
    // below it (a step of a quarter turn) the test keeps to a quarter of the tolerance. The sagitta
    // r − √(r² − h²) of half-chord h is at most ε exactly when r ≤ ε or h² ≤ 2rε − ε², which needs
    // no square root.
    let epsilon = radius > arcTolerance ? arcTolerance * 0.9 : arcTolerance * 0.25
    let chord = to - from
    if radius <= epsilon || (chord.x * chord.x + chord.y * chord.y) * 0.25 <= (2 * radius - epsilon) * epsilon
    {
      return
    }
    let a = from - center
    let b = to - center
    let sweep = FloatMath.atan2(cross(a, b), a.x * b.x + a.y * b.y)
    appendArc(center: center, radius: radius, from: a, to: b, sweep: sweep, reversed: reversed, into: &points)
  }

  /// Appends the interior points of the arc from `from` to `to` around `center` that passes
  /// through direction `through`.
  static func appendArc(
    center: Point, radius: Float, from: Point, to: Point, through: Point, into points: inout [Point]
  ) {
    // Both ends' angles measured from `through`, in −π…π: the arc from one to the other that
    // passes angle 0 is the one that runs through `through`.
    let twoPi = 2 * Float.pi
    let a = from - center
    let b = to - center
    let angleA = FloatMath.atan2(cross(through, a), through.x * a.x + through.y * a.y)
    let angleB = FloatMath.atan2(cross(through, b), through.x * b.x + through.y * b.y)
    func positive(_ x: Float) -> Float { x < 0 ? x + twoPi : (x >= twoPi ? x - twoPi : x) }
    let counterclockwise = positive(angleB - angleA)
    let sweep = positive(-angleA) <= counterclockwise ? counterclockwise : counterclockwise - twoPi
    appendArc(center: center, radius: radius, from: a, to: b, sweep: sweep, reversed: false, into: &points)
  }

  /// Appends the interior points of the arc that turns `from` (an offset from `center`) by
  /// `sweep` radians, to `to`; `reversed` appends them last to first. The points step by a fixed
  /// rotation (one sine and cosine an arc), from the offset scaled onto the circle.
  @inline(never)
  static func appendArc(
    center: Point, radius: Float, from a: Point, to b: Point, sweep: Float, reversed: Bool,
    into points: inout [Point]
  ) {
    guard sweep.isFinite else { return }
    let steps = arcSteps(sweep, step: angleStep(radius: radius))
    guard steps > 1 else { return }
    let step = (reversed ? -sweep : sweep) / Float(steps)
    let cosine = FloatMath.cos(step)
    let sine = FloatMath.sin(step)
    let start = reversed ? b : a
    let length = start.length
    guard length > 0, length.isFinite else { return }
    var v = start * (radius / length)
    for _ in 1..<steps {
      v = Point(x: v.x * cosine - v.y * sine, y: v.x * sine + v.y * cosine)
      points.append(center + v)
    }
  }

  static func circle(center: Point, radius: Float) -> [Point] {
    let steps = Swift.max(8, arcSteps(2 * Float.pi, step: angleStep(radius: radius)))
    return (0..<steps).map { k in
      // Clockwise in the plane's own orientation, as the capsule outlines run.
      let angle = -2 * Float.pi * Float(k) / Float(steps)
      return Point(x: center.x + radius * FloatMath.cos(angle), y: center.y + radius * FloatMath.sin(angle))
    }
  }
}
