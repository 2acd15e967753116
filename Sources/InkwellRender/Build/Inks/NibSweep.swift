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

import InkwellKernels
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

/// A nib's shape at one sample, in stroke units: what an ink hands `InkSupport.sweep`, which lays
/// the vertices of every sample end to end in one buffer instead of an array a sample.
enum NibShape {
  /// `NibSweep.ellipse(major:minor:angle:)`.
  case ellipse(major: Float, minor: Float, angle: Float)
  /// `NibSweep.rectangle(length:thickness:angle:)`.
  case rectangle(length: Float, thickness: Float, angle: Float)

  /// Hands `body` the vertices in order of increasing angle.
  @inline(__always)
  func forEachVertex(_ body: (Point) -> Void) {
    switch self {
    case .ellipse(let major, let minor, let angle):
      let (u, v) = NibSweep.axes(angle)
      for k in 0..<NibSweep.ellipseCount {
        let (cosine, sine) = NibSweep.ellipseAngles[k]
        body(u * (major * cosine) + v * (minor * sine))
      }
    case .rectangle(let length, let thickness, let angle):
      let (u, v) = NibSweep.axes(angle)
      let h = length / 2
      let t = thickness / 2
      body(u * h + v * t)
      body(u * (-h) + v * t)
      body(u * (-h) + v * (-t))
      body(u * h + v * (-t))
    }
  }

  /// The most vertices a shape has.
  static let largestVertexCount = NibSweep.ellipseCount

  /// Writes the vertices, mapped as `NibSweep.toPixels` maps them, to `vertices` on and returns
  /// how many (at most `largestVertexCount`).
  @inline(__always)
  func write(through m: AffineTransform, to vertices: UnsafeMutablePointer<Point>) -> Int {
    var count = 0
    forEachVertex {
      (vertices + count).initialize(to: m.applyLinear($0))
      count += 1
    }
    if m.a * m.d - m.b * m.c < 0 {
      var written = UnsafeMutableBufferPointer(start: vertices, count: count)
      written.reverse()
    }
    return count
  }
}

/// Outlines of convex nibs swept along a path.
public enum NibSweep {
  /// The unit vectors along `angle` (radians, atan2 convention) and a quarter turn from it.
  @inline(__always)
  static func axes(_ angle: Float) -> (Point, Point) {
    let u = Point(x: FloatMath.cos(angle), y: FloatMath.sin(angle))
    return (u, Point(x: -u.y, y: u.x))
  }

  /// A rectangle nib `length` long along `angle` (radians, atan2 convention) and `thickness` across.
  public static func rectangle(length: Float, thickness: Float, angle: Float) -> [Point] {
    var nib: [Point] = []
    nib.reserveCapacity(4)
    NibShape.rectangle(length: length, thickness: thickness, angle: angle).forEachVertex { nib.append($0) }
    return nib
  }

  /// An ellipse nib with semi-axes `major` along `angle` and `minor` across, as `count` vertices.
  public static func ellipse(major: Float, minor: Float, angle: Float, count: Int = 16) -> [Point] {
    guard count == ellipseCount else {
      let (u, v) = axes(angle)
      return (0..<count).map { k in
        let (cosine, sine) = ellipseAngle(k, of: count)
        return u * (major * cosine) + v * (minor * sine)
      }
    }
    var nib: [Point] = []
    nib.reserveCapacity(count)
    NibShape.ellipse(major: major, minor: minor, angle: angle).forEachVertex { nib.append($0) }
    return nib
  }

  /// The vertex count of `ellipse` unless asked otherwise.
  static let ellipseCount = 16

  /// The cosine and sine of vertex `k`'s angle, 2πk / `count`.
  @inline(__always)
  static func ellipseAngle(_ k: Int, of count: Int) -> (Float, Float) {
    let theta = 2 * Float.pi * Float(k) / Float(count)
    return (FloatMath.cos(theta), FloatMath.sin(theta))
  }

  /// `ellipseAngle(k, of: ellipseCount)` for each vertex, the same floats computed once: the
  /// pencil and the crayon take one nib a sample, and its 32 sines and cosines had been a twelfth
  /// of a pencil thumbnail's time.
  static let ellipseAngles: [(Float, Float)] = (0..<ellipseCount).map { ellipseAngle($0, of: ellipseCount) }

  /// Maps a nib given in stroke units through the linear part of `m` into pixels, keeping the
  /// vertex order increasing in angle (a mirroring map reverses it).
  public static func toPixels(_ nib: [Point], _ m: AffineTransform) -> [Point] {
    let mapped = nib.map { m.applyLinear($0) }
    return m.a * m.d - m.b * m.c < 0 ? mapped.reversed() : mapped
  }

  @inline(__always) static func cross(_ a: Point, _ b: Point) -> Float { a.x * b.y - a.y * b.x }
  @inline(__always) static func dot(_ a: Point, _ b: Point) -> Float { a.x * b.x + a.y * b.y }

  /// The vertex of `nib` farthest in direction `n` (the first, on a tie): the first whose dot
  /// product beats every one before it by more than 10⁻⁶ (`inkwell_nib_support`, which decides
  /// most searches from the dots four at a time).
  @inline(__always)
  static func support(_ nib: UnsafeBufferPointer<Point>, _ n: Point) -> Int {
    guard let base = nib.baseAddress, nib.count <= NibShape.largestVertexCount else {
      return scannedSupport(nib, n)
    }
    return UnsafeRawPointer(base).withMemoryRebound(to: Float.self, capacity: 2 * nib.count) {
      Int(inkwell_nib_support($0, Int32(nib.count), n.x, n.y))
    }
  }

  /// `support` as a scan in order, one vertex at a time: the reference the search is held to.
  static func scannedSupport(_ nib: UnsafeBufferPointer<Point>, _ n: Point) -> Int {
    var best = 0
    var value = -Float.infinity
    for k in 0..<nib.count {
      let d = dot(nib[k], n)
      if d > value + 1e-6 {
        value = d
        best = k
      }
    }
    return best
  }

  /// The swept area's outline, one closed polygon. Samples must be at distinct centers.
  public static func outline(of samples: [NibSample]) -> [Point] {
    var vertices: [Point] = []
    var starts = [0]
    starts.reserveCapacity(samples.count + 1)
    for sample in samples {
      vertices.append(contentsOf: sample.nib)
      starts.append(vertices.count)
    }
    return outline(centers: samples.map(\.center), vertices: vertices, starts: starts)
  }

  /// The swept area's outline of the nibs laid end to end in `vertices`: sample i's nib is
  /// `vertices[starts[i] ..< starts[i + 1]]`, centered on `centers[i]`.
  static func outline(centers: [Point], vertices: [Point], starts: [Int]) -> [Point] {
    centers.withUnsafeBufferPointer { centers in
      vertices.withUnsafeBufferPointer { vertices in
        starts.withUnsafeBufferPointer { starts in
          outline(Nibs(centers: centers, vertices: vertices, starts: starts))
        }
      }
    }
  }

  /// The samples' centers and nibs, laid end to end.
  struct Nibs {
    let centers: UnsafeBufferPointer<Point>
    let vertices: UnsafeBufferPointer<Point>
    let starts: UnsafeBufferPointer<Int>

    var count: Int { centers.count }

    @inline(__always)
    func nib(_ i: Int) -> UnsafeBufferPointer<Point> {
      UnsafeBufferPointer(rebasing: vertices[starts[i]..<starts[i + 1]])
    }

    /// Sample i's vertex farthest in direction `n`, placed at its center.
    @inline(__always)
    func supportPoint(_ i: Int, _ n: Point) -> Point {
      let nib = self.nib(i)
      return centers[i] + nib[support(nib, n)]
    }
  }

  private static func outline(_ samples: Nibs) -> [Point] {
    guard samples.count > 0 else { return [] }
    if samples.count == 1 { return samples.nib(0).map { samples.centers[0] + $0 } }
    let segments = samples.count - 1
    let centers = samples.centers
    return withUnsafeTemporaryAllocation(of: Point.self, capacity: segments) { direction in
      for i in 0..<segments {
        let delta = centers[i + 1] - centers[i]
        let length = delta.length
        direction[i] = length > 0 ? delta * (1 / length) : (i > 0 ? direction[i - 1] : Point(x: 1, y: 0))
      }
      let direction = UnsafeBufferPointer(direction)
      // Side A's normal is the direction turned by +90° (atan2 sense): a positive turn bends the
      // path towards A, so A is the outer side of negative turns and B of positive ones.
      let a = side(samples, direction, normalSign: 1, outerWhenTurning: -1)
      let b = side(samples, direction, normalSign: -1, outerWhenTurning: 1)
      var outline = a
      outline.reserveCapacity(a.count + b.count + 16)
      let normalA = normal(direction[segments - 1], sign: 1)
      let normalB = normal(direction[segments - 1], sign: -1)
      let last = samples.nib(segments)
      capWalk(
        last, center: centers[segments], from: support(last, normalA), to: support(last, normalB),
        into: &outline)
      outline.append(contentsOf: b.reversed())
      let first = samples.nib(0)
      capWalk(
        first, center: centers[0], from: support(first, normal(direction[0], sign: -1)),
        to: support(first, normal(direction[0], sign: 1)), into: &outline)
      return outline
    }
  }

  /// The direction turned by +90° (`sign` 1, side A) or −90° (`sign` −1, side B).
  @inline(__always)
  static func normal(_ direction: Point, sign: Float) -> Point {
    sign > 0 ? Point(x: -direction.y, y: direction.x) : Point(x: direction.y, y: -direction.x)
  }

  /// One side of the outline, from the first sample to the last.
  private static func side(
    _ samples: Nibs, _ direction: UnsafeBufferPointer<Point>, normalSign: Float, outerWhenTurning sign: Float
  ) -> [Point] {
    let segments = samples.count - 1
    let centers = samples.centers
    @inline(__always) func normal(_ i: Int) -> Point { NibSweep.normal(direction[i], sign: normalSign) }
    var chain: [Point] = [samples.supportPoint(0, normal(0))]
    chain.reserveCapacity(samples.count * 2)
    // Where the chain came onto the current side, as a fraction of it (see `PenBrush.join`).
    var entry: Float = 0
    for j in 1..<segments {
      let nib = samples.nib(j)
      let center = centers[j]
      let i0 = support(nib, normal(j - 1))
      let i1 = support(nib, normal(j))
      let end = center + nib[i0]
      let start = center + nib[i1]
      if i0 == i1 {
        chain.append(end)
        entry = 0
        continue
      }
      let turn = cross(direction[j - 1], direction[j])
      if turn * sign > 0 {
        chain.append(end)
        walk(
          nib, center: center, from: i0, to: i1, turn: turn, gentle: dot(direction[j - 1], direction[j]) > 0,
          into: &chain)
        chain.append(start)
        entry = 0
      } else {
        // The sides' crossing where it lies on both, after where the chain came onto the first.
        let previousStart = samples.supportPoint(j - 1, normal(j - 1))
        let nextEnd = samples.supportPoint(j + 1, normal(j))
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
          walk(nib, center: center, from: i0, to: i1, turn: turn, gentle: true, into: &chain)
          chain.append(start)
          entry = 0
        }
      }
    }
    chain.append(samples.supportPoint(segments, normal(segments - 1)))
    return chain
  }

  /// Appends the nib's vertices strictly between `i0` and `i1`, stepping with the turn's sign
  /// (the normal turns that way, and the support vertex with it); a gentle turn never goes the
  /// long way round (a tie between two vertices can make the support step back by one).
  static func walk(
    _ nib: UnsafeBufferPointer<Point>, center: Point, from i0: Int, to i1: Int, turn: Float, gentle: Bool,
    into chain: inout [Point]
  ) {
    let k = nib.count
    var step = turn > 0 ? 1 : -1
    let count = step > 0 ? (i1 - i0 + k) % k : (i0 - i1 + k) % k
    if gentle && count * 2 > k { step = -step }
    var i = (i0 + step + k) % k
    while i != i1 {
      chain.append(center + nib[i])
      i = (i + step + k) % k
    }
  }

  /// Appends the vertices strictly between `i0` and `i1` in decreasing order: the half of the nib
  /// that faces away from the path at an end.
  static func capWalk(
    _ nib: UnsafeBufferPointer<Point>, center: Point, from i0: Int, to i1: Int, into chain: inout [Point]
  ) {
    let k = nib.count
    guard i0 != i1 else { return }
    var i = (i0 - 1 + k) % k
    var guardCount = 0
    while i != i1 && guardCount < k {
      chain.append(center + nib[i])
      i = (i - 1 + k) % k
      guardCount += 1
    }
  }
}
