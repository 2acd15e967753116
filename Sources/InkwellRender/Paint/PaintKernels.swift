// The paint kernels the rasterizer calls, and how a primitive's paint is applied to one tile.

import InkwellKernels
import InkwellModel

/// The paint stage kernels, so tests can swap in the scalar reference.
public struct PaintKernels: Sendable {
  public var grain:
    @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, UInt32, UnsafePointer<Float>) ->
      Void
  public var threshold: @Sendable (UnsafeMutablePointer<Float>, Float, Float) -> Void
  public var profile: @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, Int) -> Void
  public var thresholdProfile:
    @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, Int) -> Void
  public var compositeMultiply:
    @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void

  /// The C kernels in `shaders-cpu/inks.c`.
  public static let native = PaintKernels(
    grain: { inkwell_paint_grain($0, Int32($1), Int32($2), $3, $4, $5) },
    threshold: { inkwell_paint_threshold($0, $1, $2) },
    profile: { inkwell_paint_profile($0, Int32($1), Int32($2), $3, Int32($4)) },
    thresholdProfile: { inkwell_paint_threshold_profile($0, Int32($1), Int32($2), $3, Int32($4)) },
    compositeMultiply: { inkwell_composite_multiply($0, $1, $2) })

  /// The scalar Swift twins.
  public static let reference = PaintKernels(
    grain: { PaintReference.grain(coverage: $0, x0: $1, y0: $2, matrix: $3, seed: $4, parameters: $5) },
    threshold: { PaintReference.threshold(coverage: $0, threshold: $1, inverseSpan: $2) },
    profile: { PaintReference.profile(coverage: $0, x0: $1, y0: $2, segments: $3, count: $4) },
    thresholdProfile: {
      PaintReference.thresholdProfile(coverage: $0, x0: $1, y0: $2, segments: $3, count: $4)
    },
    compositeMultiply: { PaintReference.compositeMultiply(tile: $0, coverage: $1, color: $2) })

  /// Applies `paint`'s stages, in order, to the coverage of the tile whose top-left pixel is
  /// (x0, y0). `segments` is scratch space for the profile's nearby segments.
  public func apply(
    _ paint: Paint, coverage: UnsafeMutablePointer<Float>, x0: Int, y0: Int, segments: inout [Float]
  ) {
    let size = Int(INKWELL_TILE)
    if let profile = paint.profile {
      nearbySegments(profile, x0: x0, y0: y0, size: size, into: &segments)
      let count = segments.count / 6
      segments.withUnsafeBufferPointer { self.profile(coverage, x0, y0, $0.baseAddress!, count) }
    }
    if let grain = paint.grain {
      let matrix = grain.matrix
      let parameters = grain.parameters
      self.grain(coverage, x0, y0, matrix, grain.seed, parameters)
    }
    if let shader = paint.shader {
      shader.shade(
        PaintTile(
          originX: x0, originY: y0, size: size,
          coverage: UnsafeMutableBufferPointer(start: coverage, count: size * size)))
    }
    if let profile = paint.thresholdProfile {
      nearbySegments(profile, x0: x0, y0: y0, size: size, into: &segments)
      let count = segments.count / 6
      segments.withUnsafeBufferPointer { self.thresholdProfile(coverage, x0, y0, $0.baseAddress!, count) }
    } else if paint.threshold > 0 {
      let t = Swift.min(paint.threshold, 1)
      threshold(coverage, t, t < 1 ? 1 / (1 - t) : 0)
    }
  }

  /// The profile's segments that come within its reach of the tile, as 6 floats each; every segment
  /// when none does (then the tile's coverage comes from afar and the nearest is searched anyway).
  func nearbySegments(_ profile: AlphaProfile, x0: Int, y0: Int, size: Int, into out: inout [Float]) {
    out.removeAll(keepingCapacity: true)
    let p = profile.points
    let a = profile.alphas
    guard !p.isEmpty else {
      out.append(contentsOf: [0, 0, 1, 0, 0, 1])
      return
    }
    if p.count == 1 {
      out.append(contentsOf: [p[0].x, p[0].y, a[0], p[0].x, p[0].y, a[0]])
      return
    }
    let reach = profile.reach + 1
    let minX = Float(x0) - reach
    let minY = Float(y0) - reach
    let maxX = Float(x0 + size) + reach
    let maxY = Float(y0 + size) + reach
    // Six floats a segment, appended one by one: an array literal a segment had cost a third of
    // the search's set-up on a pencil thumbnail.
    @inline(__always) func append(_ k: Int) {
      out.append(p[k].x)
      out.append(p[k].y)
      out.append(a[k])
      out.append(p[k + 1].x)
      out.append(p[k + 1].y)
      out.append(a[k + 1])
    }
    out.reserveCapacity(6 * (p.count - 1))
    let runs = profile.runBounds
    // Without runs, one run of every segment.
    let perRun = runs.isEmpty ? p.count - 1 : AlphaProfile.segmentsPerRun
    for run in 0..<(runs.isEmpty ? 1 : runs.count / 4) {
      // A run whose points all lie beyond one side holds no segment that reaches the tile.
      if !runs.isEmpty,
        runs[4 * run + 2] < minX || runs[4 * run] > maxX || runs[4 * run + 3] < minY
          || runs[4 * run + 1] > maxY
      {
        continue
      }
      for k in (run * perRun)..<Swift.min((run + 1) * perRun, p.count - 1) {
        let s = p[k]
        let e = p[k + 1]
        if Swift.max(s.x, e.x) < minX || Swift.min(s.x, e.x) > maxX || Swift.max(s.y, e.y) < minY
          || Swift.min(s.y, e.y) > maxY
        {
          continue
        }
        append(k)
      }
    }
    if out.isEmpty {
      for k in 0..<(p.count - 1) { append(k) }
    }
    // The kernels prune again 8 × 8 pixels at a time, with one distance a segment and block,
    // where this costs about ten a segment; a tile that a thin stroke reaches with few segments
    // is left to them (40 pencil thumbnails: 821.2 → 787.4 M instructions). A stroke wider than a
    // tile covers most of its blocks, and one as wide as the page reaches every tile with every
    // segment: those are pruned here first (the mypaint example in pencil 2000 units wide took
    // 1.2× the time without).
    if out.count > 6 * Self.segmentsPrunedPerBlockOnly || !(profile.reach <= Float(size)) {
      Self.keepPossiblyNearest(&out, x0: x0, y0: y0, size: size)
    }
  }

  /// The most segments a tile hands the kernels without the tile-wide pruning first.
  static let segmentsPrunedPerBlockOnly = 64

  /// Drops the segments (6 floats each, in order) that cannot be the nearest to any pixel center
  /// of the tile: one whose distance to the centers' square is more than the farthest any center
  /// lies from some other segment. The kernels search the nearest segment pixel by pixel, the
  /// first of equals winning, so a segment that is farther than another from every center never
  /// wins, and the kept ones stay in order: the values are the same. Reach only filters by
  /// the stroke's width, and a stroke wider than the page reaches every tile with every
  /// segment: a page with such a stroke of 450 points took 9 s in the search alone, and a
  /// translucent marker as wide as a tile searched its neighbours' segments at every pixel.
  /// Each distance is widened by 10⁻³ of itself and 10⁻⁵ of the segment's and the tile's largest
  /// coordinate (about a hundred times the kernels' rounding there), so a float difference never
  /// drops a winner, and a segment reaching float's far range is always kept.
  static func keepPossiblyNearest(_ segments: inout [Float], x0: Int, y0: Int, size: Int) {
    let count = segments.count / 6
    guard count > 1 else { return }
    let low = Point(x: Float(x0) + 0.5, y: Float(y0) + 0.5)
    let high = Point(x: Float(x0 + size) - 0.5, y: Float(y0 + size) - 0.5)
    let corners = (low, Point(x: high.x, y: low.y), Point(x: low.x, y: high.y), high)
    let tileMagnitude = Swift.max(abs(low.x), abs(low.y), abs(high.x), abs(high.y))
    @inline(__always) func ends(_ k: Int) -> (Point, Point, Float) {
      let a = Point(x: segments[6 * k], y: segments[6 * k + 1])
      let b = Point(x: segments[6 * k + 3], y: segments[6 * k + 4])
      let magnitude = Swift.max(tileMagnitude, abs(a.x), abs(a.y), abs(b.x), abs(b.y))
      return (a, b, 1e-5 * magnitude)
    }
    var bound = Float.infinity
    for k in 0..<count {
      let (a, b, slack) = ends(k)
      // Distance to a segment is convex, so its largest over the square is at a corner.
      var farthest: Float = 0
      farthest = Swift.max(farthest, distance(corners.0, toSegment: a, b))
      farthest = Swift.max(farthest, distance(corners.1, toSegment: a, b))
      farthest = Swift.max(farthest, distance(corners.2, toSegment: a, b))
      farthest = Swift.max(farthest, distance(corners.3, toSegment: a, b))
      bound = Swift.min(bound, farthest * 1.001 + slack)
    }
    guard bound.isFinite else { return }
    var kept = 0
    for k in 0..<count {
      let (a, b, slack) = ends(k)
      let nearest = distance(fromSquare: low, high, toSegment: a, b)
      // Not a number (a far coordinate's overflow) is kept, and so is the first segment: the
      // search starts from its value, which stands where every distance overflows.
      guard k == 0 || !(nearest * 0.999 - slack > bound) else { continue }
      if kept != k {
        for j in 0..<6 { segments[6 * kept + j] = segments[6 * k + j] }
      }
      kept += 1
    }
    segments.removeLast(6 * (count - kept))
  }

  /// Distance from `q` to the segment from `a` to `b`.
  private static func distance(_ q: Point, toSegment a: Point, _ b: Point) -> Float {
    let d = b - a
    let length2 = d.x * d.x + d.y * d.y
    var t = length2 > 0 ? ((q.x - a.x) * d.x + (q.y - a.y) * d.y) / length2 : 0
    t = Swift.min(Swift.max(t, 0), 1)
    return (a + d * t - q).length
  }

  /// Distance between the square from `low` to `high` and the segment from `a` to `b`: 0 when they
  /// meet, otherwise the least distance from a corner to the segment or from an end to the square
  /// (for two convex polygons apart, the closest pair includes a vertex of one).
  private static func distance(fromSquare low: Point, _ high: Point, toSegment a: Point, _ b: Point)
    -> Float
  {
    if segmentMeetsBox(a, b, low, high) { return 0 }
    func toBox(_ q: Point) -> Float {
      let dx = Swift.max(low.x - q.x, 0, q.x - high.x)
      let dy = Swift.max(low.y - q.y, 0, q.y - high.y)
      return (dx * dx + dy * dy).squareRoot()
    }
    var nearest = Swift.min(toBox(a), toBox(b))
    nearest = Swift.min(nearest, distance(low, toSegment: a, b))
    nearest = Swift.min(nearest, distance(Point(x: high.x, y: low.y), toSegment: a, b))
    nearest = Swift.min(nearest, distance(Point(x: low.x, y: high.y), toSegment: a, b))
    return Swift.min(nearest, distance(high, toSegment: a, b))
  }

  /// Whether the segment from `a` to `b` meets the box from `low` to `high` (clipped against its
  /// four sides).
  private static func segmentMeetsBox(_ a: Point, _ b: Point, _ low: Point, _ high: Point) -> Bool {
    var t0: Float = 0
    var t1: Float = 1
    let d = b - a
    // Each side in turn; false as soon as the segment is found outside.
    @inline(__always) func clip(_ p: Float, _ q: Float) -> Bool {
      if p == 0 { return !(q < 0) }
      let r = q / p
      if p < 0 { t0 = Swift.max(t0, r) } else { t1 = Swift.min(t1, r) }
      return !(t0 > t1)
    }
    return clip(-d.x, a.x - low.x) && clip(d.x, high.x - a.x) && clip(-d.y, a.y - low.y)
      && clip(d.y, high.y - a.y)
  }
}
