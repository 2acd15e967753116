// The area a convex nib sweeps along a path, as one outline whose non-zero fill is that area.
//
// For round tips the pen's outline (PenBrush) is exact. A flat or elliptical nib is a convex
// polygon P (per sample: it may turn with roll, tilt or azimuth). Between two samples the nib
// sweeps the convex hull of P at both; the union of those hulls is the mark. Rather than fill the
// hulls as separate contours (consecutive hulls overlap by a whole nib, so in edge pixels the
// exact-area winding would count the overlap twice and harden every edge), this traces the union's
// boundary directly, the way PenBrush does with discs: each side of the path is offset by P's
// support vertex in that side's normal direction (the vertex farthest out); where the path turns,
// the outer side follows P's own edges from the old support vertex to the new one, and the inner
// side joins at the crossing of its two offset segments (or, for sharp turns, through the sample's
// center, which keeps every covered point at winding ≥ 1). Ends are capped with the half of P
// facing away from the path. Near the boundary the winding is exactly 1, so anti-aliasing stays
// exact; where the path turns back over itself the outline crosses itself and non-zero fill takes
// the union, with the same residual as the pen: at most the edge pixels of the inner corner of a
// sharp turn count a sliver twice (coverage saturates to 1 a fraction of a pixel early there).
//
// A nib whose thickness is near zero (the reed) sweeps almost nothing when the path runs along it:
// the mark thins to a hairline and, through the reed's threshold, breaks, as a reed does.

import InkwellModel

/// A nib at one sample: its center and its vertices relative to it, convex, in order of increasing
/// angle (atan2), in pixels.
public struct NibSample: Hashable, Sendable {
  public var center: Point
  public var nib: [Point]

  public init(center: Point, nib: [Point]) {
    self.center = center
    self.nib = nib
  }
}

/// Outlines of convex nibs swept along a path.
public enum NibSweep {
  /// A rectangle nib `length` long along `angle` (radians, atan2 convention) and `thickness` across.
  public static func rectangle(length: Float, thickness: Float, angle: Float) -> [Point] {
    let u = Point(x: FloatMath.cos(angle), y: FloatMath.sin(angle))
    let v = Point(x: -u.y, y: u.x)
    let h = length / 2
    let t = thickness / 2
    return [u * h + v * t, u * (-h) + v * t, u * (-h) + v * (-t), u * h + v * (-t)]
  }

  /// An ellipse nib with semi-axes `major` along `angle` and `minor` across, as `count` vertices.
  public static func ellipse(major: Float, minor: Float, angle: Float, count: Int = 16) -> [Point] {
    let u = Point(x: FloatMath.cos(angle), y: FloatMath.sin(angle))
    let v = Point(x: -u.y, y: u.x)
    guard count == ellipseCount else {
      return (0..<count).map { k in
        let (cosine, sine) = ellipseAngle(k, of: count)
        return u * (major * cosine) + v * (minor * sine)
      }
    }
    // The default count's angles from a table: the pencil and the crayon take one nib a sample,
    // and its 32 sines and cosines had been a twelfth of a pencil thumbnail's time.
    return [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
      for k in 0..<count {
        let (cosine, sine) = ellipseAngles[k]
        buffer[k] = u * (major * cosine) + v * (minor * sine)
      }
      initialized = count
    }
  }

  /// The vertex count of `ellipse` unless asked otherwise.
  static let ellipseCount = 16

  /// The cosine and sine of vertex `k`'s angle, 2πk / `count`.
  @inline(__always)
  static func ellipseAngle(_ k: Int, of count: Int) -> (Float, Float) {
    let theta = 2 * Float.pi * Float(k) / Float(count)
    return (FloatMath.cos(theta), FloatMath.sin(theta))
  }

  /// `ellipseAngle(k, of: ellipseCount)` for each vertex, the same floats computed once.
  static let ellipseAngles: [(Float, Float)] = (0..<ellipseCount).map { ellipseAngle($0, of: ellipseCount) }

  /// Maps a nib given in stroke units through the linear part of `m` into pixels, keeping the
  /// vertex order increasing in angle (a mirroring map reverses it).
  public static func toPixels(_ nib: [Point], _ m: AffineTransform) -> [Point] {
    // In place: the nib is usually this call's own array, so no second one is made.
    var mapped = nib
    for k in mapped.indices { mapped[k] = m.applyLinear(mapped[k]) }
    return m.a * m.d - m.b * m.c < 0 ? mapped.reversed() : mapped
  }

  @inline(__always) static func cross(_ a: Point, _ b: Point) -> Float { a.x * b.y - a.y * b.x }
  @inline(__always) static func dot(_ a: Point, _ b: Point) -> Float { a.x * b.x + a.y * b.y }

  /// The vertex of `nib` farthest in direction `n` (the first, on a tie).
  static func support(_ nib: [Point], _ n: Point) -> Int {
    var best = 0
    var value = -Float.infinity
    for (k, v) in nib.enumerated() {
      let d = dot(v, n)
      if d > value + 1e-6 {
        value = d
        best = k
      }
    }
    return best
  }

  /// The swept area's outline, one closed polygon. Samples must be at distinct centers.
  public static func outline(of samples: [NibSample]) -> [Point] {
    guard let first = samples.first else { return [] }
    if samples.count == 1 { return first.nib.map { first.center + $0 } }
    let segments = samples.count - 1
    var direction = [Point](repeating: .zero, count: segments)
    for i in 0..<segments {
      let delta = samples[i + 1].center - samples[i].center
      let length = delta.length
      direction[i] = length > 0 ? delta * (1 / length) : (i > 0 ? direction[i - 1] : Point(x: 1, y: 0))
    }
    func normalA(_ i: Int) -> Point { Point(x: -direction[i].y, y: direction[i].x) }
    func normalB(_ i: Int) -> Point { Point(x: direction[i].y, y: -direction[i].x) }

    func side(_ normal: (Int) -> Point, outerWhenTurning sign: Float) -> [Point] {
      var chain: [Point] = [first.center + first.nib[support(first.nib, normal(0))]]
      chain.reserveCapacity(samples.count * 2)
      // Where the chain came onto the current side, as a fraction of it (see `PenBrush.join`).
      var entry: Float = 0
      for j in 1..<segments {
        let s = samples[j]
        let i0 = support(s.nib, normal(j - 1))
        let i1 = support(s.nib, normal(j))
        let end = s.center + s.nib[i0]
        let start = s.center + s.nib[i1]
        if i0 == i1 {
          chain.append(end)
          entry = 0
          continue
        }
        let turn = cross(direction[j - 1], direction[j])
        if turn * sign > 0 {
          chain.append(end)
          walk(s, from: i0, to: i1, turn: turn, gentle: dot(direction[j - 1], direction[j]) > 0, into: &chain)
          chain.append(start)
          entry = 0
        } else {
          // The sides' crossing where it lies on both, after where the chain came onto the first.
          let previous = samples[j - 1]
          let next = samples[j + 1]
          let previousStart = previous.center + previous.nib[support(previous.nib, normal(j - 1))]
          let nextEnd = next.center + next.nib[support(next.nib, normal(j))]
          if let (ta, tb) = PenBrush.crossing(
            previousStart: previousStart, previousEnd: end, nextStart: start, nextEnd: nextEnd),
            ta >= entry, ta <= 1, tb >= 0, tb <= 1
          {
            chain.append(previousStart + (end - previousStart) * ta)
            entry = tb
          } else {
            // No crossing: the sides meet the nib at two different vertices, and the nib's own
            // edge between them (the short way round) joins them. Through the center, the chain
            // ran back along the sides and its loops covered what the sweep does not.
            chain.append(end)
            walk(s, from: i0, to: i1, turn: turn, gentle: true, into: &chain)
            chain.append(start)
            entry = 0
          }
        }
      }
      let last = samples[segments]
      chain.append(last.center + last.nib[support(last.nib, normal(segments - 1))])
      return chain
    }

    // Side A's normal is the direction turned by +90° (atan2 sense): a positive turn bends the
    // path towards A, so A is the outer side of negative turns and B of positive ones.
    let a = side(normalA, outerWhenTurning: -1)
    let b = side(normalB, outerWhenTurning: 1)
    var outline = a
    outline.reserveCapacity(a.count + b.count + 16)
    let last = samples[segments]
    capWalk(
      last, from: support(last.nib, normalA(segments - 1)), to: support(last.nib, normalB(segments - 1)),
      into: &outline)
    outline.append(contentsOf: b.reversed())
    capWalk(first, from: support(first.nib, normalB(0)), to: support(first.nib, normalA(0)), into: &outline)
    return outline
  }

  /// Appends the nib's vertices strictly between `i0` and `i1`, stepping with the turn's sign
  /// (the normal turns that way, and the support vertex with it); a gentle turn never goes the
  /// long way round (a tie between two vertices can make the support step back by one).
  static func walk(
    _ s: NibSample, from i0: Int, to i1: Int, turn: Float, gentle: Bool, into chain: inout [Point]
  ) {
    let k = s.nib.count
    var step = turn > 0 ? 1 : -1
    let count = step > 0 ? (i1 - i0 + k) % k : (i0 - i1 + k) % k
    if gentle && count * 2 > k { step = -step }
    var i = (i0 + step + k) % k
    while i != i1 {
      chain.append(s.center + s.nib[i])
      i = (i + step + k) % k
    }
  }

  /// Appends the vertices strictly between `i0` and `i1` in decreasing order: the half of the nib
  /// that faces away from the path at an end.
  static func capWalk(_ s: NibSample, from i0: Int, to i1: Int, into chain: inout [Point]) {
    let k = s.nib.count
    guard i0 != i1 else { return }
    var i = (i0 - 1 + k) % k
    var guardCount = 0
    while i != i1 && guardCount < k {
      chain.append(s.center + s.nib[i])
      i = (i - 1 + k) % k
      guardCount += 1
    }
  }
}
