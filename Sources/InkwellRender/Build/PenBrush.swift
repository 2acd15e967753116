// The pen: a round tip whose diameter follows the point's size and force (and, a little, speed:
// fast strokes thin by up to 12%, see `speedScale`), tapered at both ends.
//
// The stroke is sampled along its B-spline into discs (center, radius) in pixel space. Its outline
// is the boundary of the union of the discs and of the tapered capsules between neighbours: each
// capsule side is the common tangent of two discs; on the outer side of a turn the discs' arc joins
// the sides; on the inner side the two sides meet at their intersection (or, for sharp turns,
// through the disc's center, which keeps every covered point at winding ≥ 1). Filled with the
// non-zero rule, the outline covers exactly the swept area, once, so the stroke is composited
// once. Near the outer boundary the winding is exactly 1, so exact-area anti-aliasing stays exact
// there; a capsule-by-capsule fill would count overlapping pieces twice in edge pixels and
// thicken every edge.

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
  /// Thinnest drawn radius. A thinner stroke is drawn at this radius with proportionally less
  /// alpha, which keeps its ink (coverage × alpha) while avoiding broken, aliased hairlines.
  static let minimumRadius: Float = 0.5

  /// Diameter multiplier for a normalized force: 0.2 + 0.8·f^0.8, so a light touch draws about a
  /// quarter of the full width and force 1 draws the point's full size.
  public static func pressureScale(_ force: Float) -> Float {
    let f = force.isFinite ? Swift.min(Swift.max(force, 0), 1) : 1
    return 0.2 + 0.8 * FloatMath.pow(f, 0.8)
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
  /// time (every timeOffset equal) are all 1.
  static func speedScales(of points: [StrokePath.TipPoint]) -> [Float] {
    let n = points.count
    guard n > 1 else { return [Float](repeating: 1, count: n) }
    var speeds = [Float](repeating: 0, count: n - 1)
    var valid = [Bool](repeating: false, count: n - 1)
    for k in 0..<(n - 1) {
      let dt = points[k + 1].timeOffset - points[k].timeOffset
      let d = points[k].location.distance(to: points[k + 1].location)
      if dt > 1e-6, dt.isFinite, d.isFinite {
        speeds[k] = d / dt
        valid[k] = true
      }
    }
    var result = [Float](repeating: 1, count: n)
    // An average of speeds none of which exceeds the steady speed does not exceed it either: every
    // scale is 1, as the windows below would find.
    guard zip(speeds, valid).contains(where: { $1 && $0 > steadySpeed }) else { return result }
    // Windows summed in order over every speed, an invalid one counting as +0 (which leaves a sum
    // of non-negative speeds unchanged), and counted from a running count of the valid ones.
    var validBefore = [Int](repeating: 0, count: n)
    for k in 0..<(n - 1) { validBefore[k + 1] = validBefore[k] + (valid[k] ? 1 : 0) }
    speeds.withUnsafeBufferPointer { speeds in
      validBefore.withUnsafeBufferPointer { validBefore in
        result.withUnsafeMutableBufferPointer { result in
          for k in 0..<n {
            let lower = Swift.max(k - 5, 0)
            let upper = Swift.min(k + 4, n - 1)
            let count = validBefore[upper] - validBefore[lower]
            guard count > 0 else { continue }
            var sum: Float = 0
            for j in lower..<upper { sum += speeds[j] }
            result[k] = speedScale(sum / Float(count))
          }
        }
      }
    }
    return result
  }

  /// Diameter multiplier near the ends of a stroke `length` long, at arc length `s` from its start:
  /// 0.45 at the very end, easing out to 1 over one nominal diameter (or a third of the stroke, if
  /// shorter). The ease-out (1 − (1 − x)²) has its steepest slope at the tip, so the end narrows
  /// to a rounded point instead of ending in a knob of constant width.
  static func taper(at s: Float, length: Float, nominalDiameter: Float) -> Float {
    let span = Swift.min(nominalDiameter, length / 3)
    guard span > 0 else { return 1 }
    let x = Swift.min(Swift.max(Swift.min(s, length - s) / span, 0), 1)
    let ease = 1 - (1 - x) * (1 - x)
    return 0.45 + 0.55 * ease
  }

  /// The stroke's outline in pixel space and the alpha multiplier that compensates for hairlines
  /// drawn at `minimumRadius`. `nil` when the stroke draws nothing.
  public static func outline(of stroke: Stroke, toPixels view: AffineTransform) -> (FlatPath, Float)? {
    let path = stroke.path
    guard !path.isEmpty else { return nil }
    let m = stroke.transform.concatenating(view)
    let scale = m.meanScale
    guard scale.isFinite, scale > 0 else { return nil }

    // Sample the spline: enough samples per segment that neighbours are about `sampleSpacing`
    // pixels apart, and none closer than a third of that (thumbnails skip sub-pixel detail).
    let points = splinePoints(of: path, through: m, spacing: sampleSpacing) {
      path.interpolatedTipPoint(at: $0)
    }

    let speedScales = speedScales(of: points)
    var centers: [Point] = []
    var radii: [Float] = []
    var opacitySum: Float = 0
    centers.reserveCapacity(points.count)
    radii.reserveCapacity(points.count)
    let minimumSpacing = sampleSpacing / 3
    for (index, p) in points.enumerated() {
      let c = m.apply(p.location)
      guard c.x.isFinite, c.y.isFinite else { continue }
      let width = p.width.isFinite && p.width > 0 ? p.width : stroke.ink.width
      var r = 0.5 * width * pressureScale(p.force) * scale
      if speedScales[index] < 1 { r *= speedScales[index] }
      guard r.isFinite else { continue }
      if let last = centers.last, last.distance(to: c) < minimumSpacing, index != points.count - 1 {
        continue
      }
      centers.append(c)
      radii.append(r)
      opacitySum += p.opacity.isFinite ? Swift.min(Swift.max(p.opacity, 0), 2) : 1
    }
    guard !centers.isEmpty else { return nil }

    // Taper by arc length from either end.
    var arc = [Float](repeating: 0, count: centers.count)
    for i in 1..<Swift.max(centers.count, 1) {
      arc[i] = arc[i - 1] + centers[i].distance(to: centers[i - 1])
    }
    let total = arc[arc.count - 1]
    let nominal = stroke.ink.width * scale
    for i in radii.indices {
      radii[i] *= taper(at: arc[i], length: total, nominalDiameter: nominal)
    }

    var alphaScale: Float = 1
    let largest = radii.max() ?? 0
    guard largest > 0 else { return nil }
    if largest < minimumRadius {
      alphaScale = radii.reduce(0, +) / (Float(radii.count) * minimumRadius)
      for i in radii.indices { radii[i] = minimumRadius }
    } else {
      for i in radii.indices { radii[i] = Swift.max(radii[i], minimumRadius * 0.7) }
    }
    alphaScale *= Swift.min(opacitySum / Float(centers.count), 2)

    let samples = zip(centers, radii).map { PenSample(center: $0, radius: $1) }
    var flat = FlatPath()
    flat.append(contour: outline(of: samples))
    return flat.isEmpty ? nil : (flat, alphaScale)
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
    for i in 0..<(n - 1) {
      let a = m.apply(path.controlPoints[i].location)
      let b = m.apply(path.controlPoints[i + 1].location)
      let length = a.distance(to: b)
      // ⌈length / spacing⌉ within 1…64, the ceiling taken by conversion (no library call).
      var steps = 1
      if length.isFinite {
        let q = Swift.min(length / spacing, 64)
        steps = Swift.max(Int(q) + (Float(Int(q)) < q ? 1 : 0), 1)
      }
      for j in 0..<steps {
        points.append(sample(Float(i) + Float(j) / Float(steps)))
      }
    }
    points.append(sample(Float(n - 1)))
    return points
  }

  /// The boundary of the union of the discs and the capsules between consecutive discs, one
  /// closed polygon whose non-zero fill is exactly that union. Every outline winds the same way.
  public static func outline(of input: [PenSample]) -> [Point] {
    // Drop discs that lie inside a neighbour: they add nothing to the union, and a tangent line
    // between nested discs does not exist.
    var discs: [PenSample] = []
    discs.reserveCapacity(input.count)
    let slack: Float = 1e-3
    for s in input {
      if let last = discs.last, last.center.distance(to: s.center) + s.radius <= last.radius + slack {
        continue
      }
      while let last = discs.last, last.center.distance(to: s.center) + last.radius <= s.radius + slack {
        discs.removeLast()
      }
      discs.append(s)
    }
    guard let first = discs.first else { return [] }
    if discs.count == 1 { return circle(center: first.center, radius: first.radius) }

    // Tangent sides of each capsule.
    let segments = discs.count - 1
    var direction = [Point](repeating: .zero, count: segments)
    var leftOffset = [Point](repeating: .zero, count: segments)
    var rightOffset = [Point](repeating: .zero, count: segments)
    for i in 0..<segments {
      let a = discs[i]
      let b = discs[i + 1]
      let delta = b.center - a.center
      let length = delta.length
      let d = delta * (1 / length)
      let sine = Swift.min(Swift.max((b.radius - a.radius) / length, -1), 1)
      let cosine = (1 - sine * sine).squareRoot()
      let normal = Point(x: -d.y, y: d.x)
      direction[i] = d
      leftOffset[i] = normal * cosine - d * sine
      rightOffset[i] = normal * (-cosine) - d * sine
    }

    func side(_ offsets: [Point], outerWhenTurning sign: Float) -> [Point] {
      var chain: [Point] = [discs[0].center + offsets[0] * discs[0].radius]
      chain.reserveCapacity(discs.count * 2)
      for j in 1..<segments {
        let c = discs[j].center
        let r = discs[j].radius
        let end = c + offsets[j - 1] * r
        let start = c + offsets[j] * r
        // The side is convex here (a gap to bridge with the disc's arc) when its offset turns
        // against the side's direction of traversal: clockwise on the left, counterclockwise on
        // the right. A change of taper alone can make either side convex.
        let turn = cross(offsets[j - 1], offsets[j])
        if turn * sign > 0 {
          chain.append(end)
          appendArc(center: c, radius: r, from: end, to: start, into: &chain)
          chain.append(start)
        } else if let x = innerCorner(
          previousStart: discs[j - 1].center + offsets[j - 1] * discs[j - 1].radius, previousEnd: end,
          nextStart: start, nextEnd: discs[j + 1].center + offsets[j] * discs[j + 1].radius)
        {
          chain.append(x)
        } else {
          chain.append(end)
          chain.append(c)
          chain.append(start)
        }
      }
      let last = discs[segments]
      chain.append(last.center + offsets[segments - 1] * last.radius)
      return chain
    }

    let left = side(leftOffset, outerWhenTurning: -1)
    let right = side(rightOffset, outerWhenTurning: 1)

    var outline = left
    outline.reserveCapacity(left.count + right.count + 32)
    let tail = discs[segments]
    appendArc(
      center: tail.center, radius: tail.radius, from: left[left.count - 1], to: right[right.count - 1],
      through: direction[segments - 1], into: &outline)
    outline.append(contentsOf: right.reversed())
    appendArc(
      center: first.center, radius: first.radius, from: right[0], to: left[0],
      through: direction[0] * -1, into: &outline)
    return outline
  }

  @inline(__always) static func cross(_ a: Point, _ b: Point) -> Float { a.x * b.y - a.y * b.x }

  /// Where the inner sides of two consecutive capsules cross, when that point lies in the second
  /// half of the first side and the first half of the second; otherwise `nil`.
  static func innerCorner(
    previousStart a0: Point, previousEnd a1: Point, nextStart b0: Point, nextEnd b1: Point
  )
    -> Point?
  {
    let da = a1 - a0
    let db = b1 - b0
    let denominator = cross(da, db)
    guard abs(denominator) > 1e-12 else { return nil }
    let w = b0 - a0
    let ta = cross(w, db) / denominator
    let tb = cross(w, da) / denominator
    guard ta >= 0.5, ta <= 1, tb >= 0, tb <= 0.5 else { return nil }
    return a0 + da * ta
  }

  /// Angle step that keeps a flattened arc of radius `r` within `arcTolerance` of the circle.
  static func angleStep(radius r: Float) -> Float {
    let ratio = arcTolerance / Swift.max(r, 1e-6)
    return ratio >= 1 ? Float.pi / 2 : 2 * FloatMath.acos(1 - ratio)
  }

  /// Appends the interior points of the shorter arc from `from` to `to` around `center`.
  static func appendArc(center: Point, radius: Float, from: Point, to: Point, into points: inout [Point]) {
    // Most joins of a stroke sampled every pixel or two turn by a fraction of an arc step, which
    // adds no point. The sagitta of the chord says so without trigonometry: at most a quarter of
    // the tolerance means at most about half a step (the arc below would find one step, no point).
    let half = from.distance(to: to) * 0.5
    if radius - (Swift.max(radius * radius - half * half, 0)).squareRoot() <= arcTolerance * 0.25 { return }
    let a = from - center
    let b = to - center
    let sweep = FloatMath.atan2(cross(a, b), a.x * b.x + a.y * b.y)
    appendArc(
      center: center, radius: radius, startAngle: FloatMath.atan2(a.y, a.x), sweep: sweep, into: &points)
  }

  /// Appends the interior points of the arc from `from` to `to` around `center` that passes
  /// through direction `through`.
  static func appendArc(
    center: Point, radius: Float, from: Point, to: Point, through: Point, into points: inout [Point]
  ) {
    let twoPi = 2 * Float.pi
    let a0 = FloatMath.atan2(from.y - center.y, from.x - center.x)
    let a1 = FloatMath.atan2(to.y - center.y, to.x - center.x)
    let ah = FloatMath.atan2(through.y, through.x)
    func positive(_ x: Float) -> Float {
      let m = x.truncatingRemainder(dividingBy: twoPi)
      return m < 0 ? m + twoPi : m
    }
    let counterclockwise = positive(a1 - a0)
    let sweep = positive(ah - a0) <= counterclockwise ? counterclockwise : counterclockwise - twoPi
    appendArc(center: center, radius: radius, startAngle: a0, sweep: sweep, into: &points)
  }

  static func appendArc(
    center: Point, radius: Float, startAngle: Float, sweep: Float, into points: inout [Point]
  ) {
    guard sweep.isFinite else { return }
    let steps = Int((abs(sweep) / angleStep(radius: radius)).rounded(.up))
    guard steps > 1 else { return }
    let step = sweep / Float(steps)
    for k in 1..<steps {
      let angle = startAngle + step * Float(k)
      points.append(
        Point(x: center.x + radius * FloatMath.cos(angle), y: center.y + radius * FloatMath.sin(angle)))
    }
  }

  static func circle(center: Point, radius: Float) -> [Point] {
    let steps = Swift.max(8, Int((2 * Float.pi / angleStep(radius: radius)).rounded(.up)))
    return (0..<steps).map { k in
      // Clockwise in the plane's own orientation, as the capsule outlines run.
      let angle = -2 * Float.pi * Float(k) / Float(steps)
      return Point(x: center.x + radius * FloatMath.cos(angle), y: center.y + radius * FloatMath.sin(angle))
    }
  }
}
