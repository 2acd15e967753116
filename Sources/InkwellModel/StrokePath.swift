// StrokePath: control points of a uniform cubic B-spline, the curve PencilKit defines a stroke on.
//
// Parametric values run from 0 to `count - 1`; a whole number `i` sits near control point `i`.
// Segment `i` (u = t − i in 0…1) blends control points i−1 … i+2 with the uniform cubic basis
//
//     b0 = (1−u)³/6   b1 = (3u³ − 6u² + 4)/6   b2 = (−3u³ + 3u² + 3u + 1)/6   b3 = u³/6
//
// The ends are clamped with reflected phantom points, P₋₁ = 2P₀ − P₁ and Pₙ = 2Pₙ₋₁ − Pₙ₋₂, so the
// curve starts exactly at the first control point and ends exactly at the last, and a straight run
// of evenly spaced points stays straight and evenly paced. Every point attribute is blended with the
// same basis; angles are unwrapped first, and attributes with a range are clamped into it.

/// How far apart `interpolatedPoints(in:by:)` places its points.
public enum InterpolationStride: Hashable, Sendable {
  /// Arc length in the stroke's own coordinates.
  case distance(Float)
  /// Seconds of `timeOffset`.
  case time(Float)
  /// Parametric units (1 = one control point).
  case parametricStep(Float)
}

/// The path of a stroke: its control points and when it was drawn.
public struct StrokePath: Hashable, Sendable {
  public var controlPoints: [StrokePoint]
  /// Seconds since 2001-01-01 00:00 UTC (Core Foundation's reference date), when known.
  public var creationDate: Double?

  public init(controlPoints: [StrokePoint], creationDate: Double? = nil) {
    self.controlPoints = controlPoints
    self.creationDate = creationDate
  }

  public var count: Int { controlPoints.count }
  public var isEmpty: Bool { controlPoints.isEmpty }

  /// The largest parametric value: `count − 1` (0 for a path of one point).
  public var parametricEnd: Float { Float(Swift.max(count - 1, 0)) }

  // MARK: Evaluation

  /// The point on the curve at parametric value `t`, clamped into `0…count−1`.
  /// - Precondition: the path is not empty.
  public func interpolatedPoint(at t: Float) -> StrokePoint {
    precondition(!controlPoints.isEmpty, "interpolatedPoint(at:) on an empty StrokePath")
    let n = controlPoints.count
    if n == 1 { return controlPoints[0] }
    let tc = t.isNaN ? 0 : Swift.min(Swift.max(t, 0), Float(n - 1))
    let i = Swift.min(Int(tc), n - 2)
    let u = tc - Float(i)
    let w = Self.basis(u)
    // Inside the path the four points are control points, read without the phantoms' tests.
    guard i >= 1 && i + 2 < n else {
      return Self.blend(phantom(i - 1), controlPoints[i], controlPoints[i + 1], phantom(i + 2), w)
    }
    return controlPoints.withUnsafeBufferPointer { Self.blend($0[i - 1], $0[i], $0[i + 1], $0[i + 2], w) }
  }

  /// The fields of `interpolatedPoint(at:)` that a round tip reads, computed exactly as it
  /// computes them, without the angles and the rest: the pen samples the spline every pixel or two.
  public func interpolatedTipPoint(at t: Float) -> TipPoint {
    precondition(!controlPoints.isEmpty, "interpolatedTipPoint(at:) on an empty StrokePath")
    let n = controlPoints.count
    if n == 1 { return TipPoint(controlPoints[0]) }
    let tc = t.isNaN ? 0 : Swift.min(Swift.max(t, 0), Float(n - 1))
    let i = Swift.min(Int(tc), n - 2)
    let w = Self.basis(tc - Float(i))
    return Self.tipBlend(
      Self.lanes(tipPhantom(i - 1)), Self.lanes(TipPoint(controlPoints[i])),
      Self.lanes(TipPoint(controlPoints[i + 1])), Self.lanes(tipPhantom(i + 2)), w)
  }

  /// `interpolatedTipPoint(at:)` at each of `parameters`, which must not decrease: the same
  /// floats, computed as that function computes them, with each segment's control points read
  /// once as the parameters move along the path.
  public func interpolatedTipPoints(at parameters: [Float]) -> [TipPoint] {
    // Written once, into uninitialized storage: an array made with `repeating:` first was zeroed
    // (a memset, 2.8 % of the sketch build's instructions).
    [TipPoint](unsafeUninitializedCapacity: parameters.count) { out, initialized in
      parameters.withUnsafeBufferPointer { parameters in
        withUnsafeTemporaryAllocation(
          byteCount: tipPointScratchBytes(samples: parameters.count),
          alignment: MemoryLayout<SIMD8<Float>>.alignment
        ) { scratch in
          interpolateTipPoints(at: parameters, into: out.baseAddress!, scratch: scratch.baseAddress!)
        }
      }
      initialized = parameters.count
    }
  }

  /// The bytes of scratch `interpolateTipPoints(at:into:scratch:)` takes for `samples` parameters.
  public func tipPointScratchBytes(samples: Int) -> Int {
    MemoryLayout<SIMD8<Float>>.stride * (count + 2 + samples)
  }

  /// `interpolatedTipPoints(at:)` written to the first `parameters.count` points at `out`
  /// (uninitialized or trivially overwritten), with `tipPointScratchBytes(samples:)` bytes at
  /// `scratch`, aligned for `SIMD8<Float>`, to work in: for a caller that keeps its own storage
  /// from stroke to stroke.
  public func interpolateTipPoints(
    at parameters: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<TipPoint>,
    scratch: UnsafeMutableRawPointer
  ) {
    let n = controlPoints.count
    guard n > 1 else {
      if n == 1 { for j in parameters.indices { (out + j).initialize(to: TipPoint(controlPoints[0])) } }
      return
    }
    guard !parameters.isEmpty else { return }
    // The control points as lanes, phantoms included (entry k is control point k − 1), so that
    // segment i blends entries i … i + 3 straight from memory. The blends are stored whole, then
    // clamped and written out in a second pass: clamping lanes of a vector just blended, the
    // compiler splits the blend itself into lanes and shuffles (175 instructions a sample; 113
    // this way).
    let scratch = UnsafeMutableBufferPointer(
      start: scratch.bindMemory(to: SIMD8<Float>.self, capacity: n + 2 + parameters.count),
      count: n + 2 + parameters.count)
    let lanes = UnsafeMutableBufferPointer(rebasing: scratch[0..<(n + 2)])
    let blends = UnsafeMutableBufferPointer(rebasing: scratch[(n + 2)...])
    writeTipLanes(into: lanes.baseAddress!)
    let last = Float(n - 1)
    @inline(__always) func blend(_ i: Int, _ w: (Float, Float, Float, Float)) -> SIMD8<Float> {
      var v = w.0 * lanes[i]
      v += w.1 * lanes[i + 1]
      v += w.2 * lanes[i + 2]
      v += w.3 * lanes[i + 3]
      return v
    }
    // Eight parameters at a time, their clamps, segments and weights as vectors (the scalar
    // loop's floats: see `segmentWeights`), then each sample's blend; the last few from the
    // last eight, those before them already blended. Fewer than eight parameters, or a path
    // too long for that, take the scalar loop below. One sample at a time, the clamps, the
    // conversions' range checks and the basis had been half of a sample's 106 instructions;
    // the notes and sketch builds take 0.967× the instructions this way.
    var j = 0
    if n <= Self.widestVectorPath && parameters.count >= 8 {
      j = withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 5) { chunk in
        let weights = UnsafeMutableRawPointer(chunk.baseAddress!).assumingMemoryBound(to: Float.self)
        let segments = UnsafeMutableRawPointer(chunk.baseAddress! + 4).assumingMemoryBound(
          to: UInt32.self)
        var j = 0
        while j < parameters.count {
          let start = Swift.min(j, parameters.count - 8)
          let t = UnsafeRawPointer(parameters.baseAddress! + start).loadUnaligned(as: SIMD8<Float>.self)
          let (i, w) = Self.segmentWeights(t, last: last, lastSegment: Float(n - 2))
          chunk[0] = w.0
          chunk[1] = w.1
          chunk[2] = w.2
          chunk[3] = w.3
          UnsafeMutableRawPointer(chunk.baseAddress! + 4).storeBytes(of: i, as: SIMD8<UInt32>.self)
          for l in (j - start)..<8 {
            blends[start + l] = blend(
              Int(segments[l]), (weights[l], weights[8 + l], weights[16 + l], weights[24 + l]))
          }
          j = start + 8
        }
        return j
      }
    }
    while j < parameters.count {
      let t = parameters[j]
      let tc = t.isNaN ? 0 : Swift.min(Swift.max(t, 0), last)
      let i = Swift.min(Int(tc), n - 2)
      blends[j] = blend(i, Self.basis(tc - Float(i)))
      j += 1
    }
    for j in 0..<parameters.count { (out + j).initialize(to: Self.tipPoint(clamping: blends[j])) }
  }

  /// The lanes the tip points are blended from (`interpolateTipPoints`): `count` + 2 entries,
  /// entry k being control point k − 1 as location x and y, time, width, force, opacity and two
  /// zeros, entries 0 and `count` + 1 the phantoms, so that segment i blends entries i … i + 3.
  /// - Precondition: `count > 1`.
  public func writeTipLanes(into lanes: UnsafeMutablePointer<SIMD8<Float>>) {
    let n = controlPoints.count
    precondition(n > 1, "writeTipLanes(into:) of a path of \(n) points")
    lanes[0] = Self.lanes(tipPhantom(-1))
    for k in 0..<n { lanes[k + 1] = Self.lanes(TipPoint(controlPoints[k])) }
    lanes[n + 1] = Self.lanes(tipPhantom(n))
  }

  /// `interpolatedTipPoint(at: Float(i))`, the curve at knot `i`, for `i` in `0 ..< count`: the
  /// same floats, blended from the same four points with the basis's values written out (1/6,
  /// 4/6, 1/6, 0 at u = 0; the last knot is segment n − 2 at u = 1, weights 0, 1/6, 4/6, 1/6),
  /// without clamping the parameter or evaluating the polynomials.
  /// - Precondition: `count > 1` and `0 <= i < count`.
  public func knotTipPoint(_ i: Int) -> TipPoint {
    Self.tipPoint(clamping: knotTipLanes(i))
  }

  /// `knotTipPoint(_:)` before its clamps, as lanes: location x and y, time, width, force and
  /// opacity, then two zeros. A vector comes back in registers, where the 24-byte tip point comes
  /// back through memory in four stores that a caller copying it whole reads back as two loads,
  /// each waiting for the stores it spans; a caller that builds the point from the lanes
  /// (`tipPoint(clamping:)`) stores each field once.
  /// - Precondition: `count > 1` and `0 <= i < count`.
  public func knotTipLanes(_ i: Int) -> SIMD8<Float> {
    let n = controlPoints.count
    precondition(n > 1 && i >= 0 && i < n, "knotTipLanes(_:) out of range")
    let sixth: Float = 1.0 / 6
    let w0 = sixth
    let w1 = 4 * sixth
    if i >= 1 && i + 2 < n {
      return controlPoints.withUnsafeBufferPointer { Self.interiorKnotTipLanes($0.baseAddress!, i) }
    }
    if i == n - 1 {
      let p1 = Self.lanes(tipPhantom(n - 3))
      let p2 = Self.lanes(TipPoint(controlPoints[n - 2]))
      let p3 = Self.lanes(TipPoint(controlPoints[n - 1]))
      let p4 = Self.lanes(tipPhantom(n))
      return Self.blendLanes(p1, p2, p3, p4, (0, w0, w1, w0))
    }
    let p0 = Self.lanes(i == 0 ? tipPhantom(-1) : TipPoint(controlPoints[i - 1]))
    let p1 = Self.lanes(TipPoint(controlPoints[i]))
    let p2 = Self.lanes(TipPoint(controlPoints[i + 1]))
    let p3 = Self.lanes(tipPhantom(i + 2))
    return Self.blendLanes(p0, p1, p2, p3, (w0, w1, w0, 0))
  }

  /// `knotTipLanes(i)` of a knot inside the path (1 ≤ i ≤ count − 3), whose four points are
  /// control points, from `points`, the control points' buffer: the same floats, without the
  /// ends' tests and inlined where it is called (the hairline's knots are nearly all inside).
  @inlinable @inline(__always)
  public static func interiorKnotTipLanes(_ points: UnsafePointer<StrokePoint>, _ i: Int) -> SIMD8<Float> {
    let sixth: Float = 1.0 / 6
    return blendLanes(
      lanes(TipPoint(points[i - 1])), lanes(TipPoint(points[i])), lanes(TipPoint(points[i + 1])),
      lanes(TipPoint(points[i + 2])), (sixth, 4 * sixth, sixth, 0))
  }

  /// A tip point's fields as lanes: location x and y, time, width, force, opacity.
  @inlinable @inline(__always)
  static func lanes(_ p: TipPoint) -> SIMD8<Float> {
    SIMD8(p.location.x, p.location.y, p.timeOffset, p.width, p.force, p.opacity, 0, 0)
  }

  /// The blend of `interpolatedTipPoint(at:)`: the same sums as `blend`'s, in the same order, lane
  /// by lane.
  @inline(__always)
  private static func tipBlend(
    _ p0: SIMD8<Float>, _ p1: SIMD8<Float>, _ p2: SIMD8<Float>, _ p3: SIMD8<Float>,
    _ w: (Float, Float, Float, Float)
  ) -> TipPoint {
    tipPoint(clamping: blendLanes(p0, p1, p2, p3, w))
  }

  /// `tipBlend` before its clamps.
  @inlinable @inline(__always)
  static func blendLanes(
    _ p0: SIMD8<Float>, _ p1: SIMD8<Float>, _ p2: SIMD8<Float>, _ p3: SIMD8<Float>,
    _ w: (Float, Float, Float, Float)
  ) -> SIMD8<Float> {
    w.0 * p0 + w.1 * p1 + w.2 * p2 + w.3 * p3
  }

  /// The tip point of blended lanes, its width and force at least 0 and its opacity within 0…2.
  @inlinable @inline(__always)
  public static func tipPoint(clamping v: SIMD8<Float>) -> TipPoint {
    TipPoint(
      location: Point(x: v[0], y: v[1]), timeOffset: v[2], width: Swift.max(0, v[3]),
      force: Swift.max(0, v[4]), opacity: Swift.min(Swift.max(v[5], 0), 2))
  }

  /// Location, time, width, force and opacity of a point on the curve: what a round tip reads.
  public struct TipPoint: Hashable, Sendable {
    public var location: Point
    public var timeOffset: Float
    /// The point's `size.width`.
    public var width: Float
    public var force: Float
    public var opacity: Float

    @inlinable
    public init(location: Point, timeOffset: Float, width: Float, force: Float, opacity: Float) {
      self.location = location
      self.timeOffset = timeOffset
      self.width = width
      self.force = force
      self.opacity = opacity
    }

    @inlinable
    public init(_ point: StrokePoint) {
      self.init(
        location: point.location, timeOffset: point.timeOffset, width: point.size.width, force: point.force,
        opacity: point.opacity)
    }
  }

  /// Control point `i` as a tip point, or the reflected phantom just beyond either end.
  @inline(__always)
  private func tipPhantom(_ i: Int) -> TipPoint {
    let n = controlPoints.count
    if i >= 0 && i < n { return TipPoint(controlPoints[i]) }
    let (edge, inner) =
      i < 0 ? (controlPoints[0], controlPoints[1]) : (controlPoints[n - 1], controlPoints[n - 2])
    return TipPoint(
      location: edge.location * 2 - inner.location, timeOffset: 2 * edge.timeOffset - inner.timeOffset,
      width: 2 * edge.size.width - inner.size.width, force: 2 * edge.force - inner.force,
      opacity: 2 * edge.opacity - inner.opacity)
  }

  /// The location alone at `t`; cheaper than `interpolatedPoint(at:)`.
  public func interpolatedLocation(at t: Float) -> Point {
    precondition(!controlPoints.isEmpty, "interpolatedLocation(at:) on an empty StrokePath")
    let n = controlPoints.count
    if n == 1 { return controlPoints[0].location }
    let tc = t.isNaN ? 0 : Swift.min(Swift.max(t, 0), Float(n - 1))
    let i = Swift.min(Int(tc), n - 2)
    let w = Self.basis(tc - Float(i))
    // Inside the path the four points are control points, read without the phantoms' tests.
    let (l0, l1, l2, l3) =
      i >= 1 && i + 2 < n
      ? controlPoints.withUnsafeBufferPointer {
        ($0[i - 1].location, $0[i].location, $0[i + 1].location, $0[i + 2].location)
      }
      : (
        phantomLocation(i - 1), controlPoints[i].location, controlPoints[i + 1].location,
        phantomLocation(i + 2)
      )
    return Point(
      x: w.0 * l0.x + w.1 * l1.x + w.2 * l2.x + w.3 * l3.x,
      y: w.0 * l0.y + w.1 * l1.y + w.2 * l2.y + w.3 * l3.y)
  }

  /// Points along the curve from `range.lowerBound` (default: the whole path), one every `stride`,
  /// ending with the point at `range.upperBound`. A non-positive or non-finite stride yields the two
  /// ends only.
  public func interpolatedPoints(
    in range: ClosedRange<Float>? = nil, by stride: InterpolationStride
  ) -> [StrokePoint] {
    guard !controlPoints.isEmpty else { return [] }
    let r = clampedRange(range)
    var result = [interpolatedPoint(at: r.lowerBound)]
    guard r.upperBound > r.lowerBound else { return result }
    let table = ParameterTable(path: self, stride: stride)
    var t = r.lowerBound
    // Bounded: a pathological stride cannot make this loop forever or exhaust memory.
    let limit = 1 << 22
    while result.count < limit {
      let next = table.map { $0.offset(t, by: stride.amount) } ?? (t + stride.amount)
      guard next.isFinite, next > t + 1e-6, next < r.upperBound - 1e-4 else { break }
      result.append(interpolatedPoint(at: next))
      t = next
    }
    result.append(interpolatedPoint(at: r.upperBound))
    return result
  }

  /// The parametric value reached by moving `step` from `t` (backwards for a negative amount),
  /// clamped into `0…count−1`.
  public func parametricValue(_ t: Float, offsetBy step: InterpolationStride) -> Float {
    guard !controlPoints.isEmpty else { return 0 }
    let tc = Swift.min(Swift.max(t.isNaN ? 0 : t, 0), parametricEnd)
    let moved: Float
    if let table = ParameterTable(path: self, stride: step) {
      moved = table.offset(tc, by: step.amount)
    } else {
      moved = tc + step.amount
    }
    return Swift.min(Swift.max(moved.isNaN ? tc : moved, 0), parametricEnd)
  }

  /// Arc length of the whole curve, in the stroke's own coordinates.
  public var length: Float {
    guard count > 1 else { return 0 }
    return ParameterTable(path: self, stride: .distance(1))!.values.last!
  }

  /// The exact bounds of the curve's locations (not of its control points): each segment's
  /// cubic is bounded by its ends and the zeros of its derivative. `nil` for an empty path or one
  /// with non-finite locations.
  public var curveBounds: Rect? {
    guard !controlPoints.isEmpty else { return nil }
    var minX = Float.infinity
    var minY = Float.infinity
    var maxX = -Float.infinity
    var maxY = -Float.infinity
    func include(_ p: Point) {
      minX = Swift.min(minX, p.x)
      maxX = Swift.max(maxX, p.x)
      minY = Swift.min(minY, p.y)
      maxY = Swift.max(maxY, p.y)
    }
    let n = controlPoints.count
    if n == 1 {
      include(controlPoints[0].location)
    } else {
      // Every segment's ends are knots, and each knot is the same point from either segment.
      for i in 0..<n { include(interpolatedLocation(at: Float(i))) }
      for i in 0..<(n - 1) {
        let (p0, p1, p2, p3) = (
          phantomLocation(i - 1), controlPoints[i].location, controlPoints[i + 1].location,
          phantomLocation(i + 2)
        )
        // d/du of the uniform cubic B-spline: a·u² + b·u + c per coordinate.
        for axis in 0..<2 {
          let v0 = axis == 0 ? p0.x : p0.y
          let v1 = axis == 0 ? p1.x : p1.y
          let v2 = axis == 0 ? p2.x : p2.y
          let v3 = axis == 0 ? p3.x : p3.y
          let a = (-v0 + 3 * v1 - 3 * v2 + v3) / 2
          let b = v0 - 2 * v1 + v2
          let c = (v2 - v0) / 2
          let (first, second) = Self.roots(a, b, c)
          if first > 0 && first < 1 { include(interpolatedLocation(at: Float(i) + first)) }
          if second > 0 && second < 1 { include(interpolatedLocation(at: Float(i) + second)) }
        }
      }
    }
    guard minX <= maxX, minY <= maxY, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else {
      return nil
    }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Real roots of a·u² + b·u + c (of b·u + c when a is 0).
  static func roots(_ a: Float, _ b: Float, _ c: Float) -> (Float, Float) {
    if abs(a) < 1e-12 {
      return (abs(b) < 1e-12 ? .nan : -c / b, .nan)
    }
    let d = b * b - 4 * a * c
    guard d >= 0 else { return (.nan, .nan) }
    let s = d.squareRoot()
    return ((-b - s) / (2 * a), (-b + s) / (2 * a))
  }

  // MARK: Internals

  private func clampedRange(_ range: ClosedRange<Float>?) -> ClosedRange<Float> {
    guard let range else { return 0...parametricEnd }
    let lo = Swift.min(Swift.max(range.lowerBound, 0), parametricEnd)
    let hi = Swift.min(Swift.max(range.upperBound, lo), parametricEnd)
    return lo...hi
  }

  /// The most control points for which `interpolatedTipPoints(at:)` works out eight parameters'
  /// segments at a time: their indices stay below 2²², where float arithmetic on them is exact.
  static let widestVectorPath = 1 << 22

  /// The segment and weights of each of eight parameters, as the scalar evaluation makes them:
  /// tc = t clamped into 0…`last` (NaN to 0), i = min(⌊tc⌋, `lastSegment`), the basis at tc − i.
  /// With every index below 2²², ⌊tc⌋ is (tc + 2²³) − 2²³ less one where that rounded up, and i
  /// the low bits of i + 2²³: the floats `Int` and `Float` conversions give, without a
  /// conversion's range checks, eight lanes at a time.
  @inline(__always)
  static func segmentWeights(_ t: SIMD8<Float>, last: Float, lastSegment: Float) -> (
    SIMD8<UInt32>, (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
  ) {
    // Swift.max(t, 0) is 0 where 0 ≥ t; Swift.min(x, last) is last where last < x.
    var tc = t.replacing(with: 0, where: t .<= 0)
    tc.replace(with: last, where: tc .> last)
    tc.replace(with: 0, where: t .!= t)
    let magic = SIMD8<Float>(repeating: 0x1p23)
    var i = (tc + magic) - magic
    i.replace(with: i - 1, where: i .> tc)
    i.replace(with: lastSegment, where: i .> lastSegment)
    let u = tc - i
    let u2 = u * u
    let u3 = u2 * u
    let v = 1 - u
    let sixth: Float = 1.0 / 6
    let w0 = v * v * v * sixth
    let w1 = (3 * u3 - 6 * u2 + 4) * sixth
    let w2 = (-3 * u3 + 3 * u2 + 3 * u + 1) * sixth
    let w3 = u3 * sixth
    return (unsafeBitCast(i + magic, to: SIMD8<UInt32>.self) & 0x7f_ffff, (w0, w1, w2, w3))
  }

  @inline(__always) static func basis(_ u: Float) -> (Float, Float, Float, Float) {
    let u2 = u * u
    let u3 = u2 * u
    let v = 1 - u
    let sixth: Float = 1.0 / 6
    return (
      v * v * v * sixth,
      (3 * u3 - 6 * u2 + 4) * sixth,
      (-3 * u3 + 3 * u2 + 3 * u + 1) * sixth,
      u3 * sixth
    )
  }

  private func phantomLocation(_ i: Int) -> Point {
    let n = controlPoints.count
    if i < 0 { return controlPoints[0].location * 2 - controlPoints[1].location }
    if i >= n { return controlPoints[n - 1].location * 2 - controlPoints[n - 2].location }
    return controlPoints[i].location
  }

  private func phantom(_ i: Int) -> StrokePoint {
    let n = controlPoints.count
    if i >= 0 && i < n { return controlPoints[i] }
    let (edge, inner) =
      i < 0 ? (controlPoints[0], controlPoints[1]) : (controlPoints[n - 1], controlPoints[n - 2])
    func reflect(_ a: Float, _ b: Float) -> Float { 2 * a - b }
    return StrokePoint(
      location: edge.location * 2 - inner.location,
      timeOffset: reflect(edge.timeOffset, inner.timeOffset),
      size: Size(
        width: reflect(edge.size.width, inner.size.width),
        height: reflect(edge.size.height, inner.size.height)),
      opacity: reflect(edge.opacity, inner.opacity),
      force: reflect(edge.force, inner.force),
      azimuth: edge.azimuth + Self.angleDifference(edge.azimuth, inner.azimuth),
      altitude: reflect(edge.altitude, inner.altitude),
      rollAngle: edge.rollAngle + Self.angleDifference(edge.rollAngle, inner.rollAngle),
      secondaryScale: reflect(edge.secondaryScale, inner.secondaryScale),
      threshold: reflect(edge.threshold, inner.threshold),
      lateralJitter: reflect(edge.lateralJitter, inner.lateralJitter))
  }

  /// `a − b` wrapped into −π…π.
  static func angleDifference(_ a: Float, _ b: Float) -> Float {
    var d = a - b
    let twoPi = 2 * Float.pi
    if !d.isFinite { return 0 }
    let turns = d / twoPi
    // Under half a turn the rounding gives a zero of the quotient's sign, which 0 × the quotient
    // is too: the same floats without the rounding call, six of them a blended point.
    d = d - twoPi * (abs(turns) < 0.5 ? 0 * turns : turns.rounded())
    return d
  }

  static func blend(
    _ p0: StrokePoint, _ p1: StrokePoint, _ p2: StrokePoint, _ p3: StrokePoint,
    _ w: (Float, Float, Float, Float)
  ) -> StrokePoint {
    func mix(_ k: KeyPath<StrokePoint, Float>) -> Float {
      w.0 * p0[keyPath: k] + w.1 * p1[keyPath: k] + w.2 * p2[keyPath: k] + w.3 * p3[keyPath: k]
    }
    func mixAngle(_ k: KeyPath<StrokePoint, Float>) -> Float {
      let base = p1[keyPath: k]
      let d0 = angleDifference(p0[keyPath: k], base)
      let d2 = angleDifference(p2[keyPath: k], base)
      let d3 = d2 + angleDifference(p3[keyPath: k], p2[keyPath: k])
      return base + w.0 * d0 + w.2 * d2 + w.3 * d3
    }
    let location = Point(
      x: w.0 * p0.location.x + w.1 * p1.location.x + w.2 * p2.location.x + w.3 * p3.location.x,
      y: w.0 * p0.location.y + w.1 * p1.location.y + w.2 * p2.location.y + w.3 * p3.location.y)
    let size = Size(
      width: Swift.max(0, mix(\.size.width)),
      height: Swift.max(0, mix(\.size.height)))
    return StrokePoint(
      location: location,
      timeOffset: mix(\.timeOffset),
      size: size,
      opacity: Swift.min(Swift.max(mix(\.opacity), 0), 2),
      force: Swift.max(0, mix(\.force)),
      azimuth: mixAngle(\.azimuth),
      altitude: Swift.min(Swift.max(mix(\.altitude), 0), .pi / 2),
      rollAngle: mixAngle(\.rollAngle),
      secondaryScale: Swift.max(0, mix(\.secondaryScale)),
      threshold: Swift.min(Swift.max(mix(\.threshold), 0), 1),
      lateralJitter: Swift.max(0, mix(\.lateralJitter)))
  }
}

extension InterpolationStride {
  var amount: Float {
    switch self {
    case .distance(let d): return d
    case .time(let s): return s
    case .parametricStep(let p): return p
    }
  }
}

/// A monotone table from parametric value to accumulated distance or time, sampled finely enough
/// (16 samples a segment) that linear interpolation between samples is well under a hundredth of a
/// unit off on handwriting, and inverted by binary search.
struct ParameterTable {
  static let samplesPerSegment = 16
  let values: [Float]
  let step: Float

  init?(path: StrokePath, stride: InterpolationStride) {
    let n = path.count
    guard n > 1 else { return nil }
    let k = Self.samplesPerSegment
    let total = (n - 1) * k
    step = 1 / Float(k)
    var values = [Float](repeating: 0, count: total + 1)
    switch stride {
    case .parametricStep:
      return nil
    case .distance:
      var previous = path.interpolatedLocation(at: 0)
      var sum: Float = 0
      for j in 1...total {
        let p = path.interpolatedLocation(at: Float(j) * step)
        sum += p.distance(to: previous)
        values[j] = sum
        previous = p
      }
    case .time:
      var running = -Float.infinity
      for j in 0...total {
        let t = path.interpolatedPoint(at: Float(j) * step).timeOffset
        running = Swift.max(running, t.isFinite ? t : running)
        values[j] = running
      }
      let first = values[0].isFinite ? values[0] : 0
      for j in 0...total { values[j] = values[j].isFinite ? values[j] - first : 0 }
    }
    self.values = values
  }

  /// Accumulated value at parametric `t`.
  func value(at t: Float) -> Float {
    let x = t / step
    let j = Swift.min(Swift.max(Int(x), 0), values.count - 2)
    let f = Swift.min(Swift.max(x - Float(j), 0), 1)
    return values[j] + (values[j + 1] - values[j]) * f
  }

  /// Parametric value where the accumulated value first reaches `v`.
  func parameter(for v: Float) -> Float {
    if v <= values[0] { return 0 }
    if v >= values[values.count - 1] { return Float(values.count - 1) * step }
    var lo = 0
    var hi = values.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if values[mid] < v { lo = mid } else { hi = mid }
    }
    let span = values[hi] - values[lo]
    let f = span > 0 ? (v - values[lo]) / span : 0
    return (Float(lo) + f) * step
  }

  func offset(_ t: Float, by amount: Float) -> Float {
    parameter(for: value(at: t) + amount)
  }
}
