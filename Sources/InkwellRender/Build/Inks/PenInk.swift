// pen: opaque, smooth, round; width follows force and, a little, speed; tapered ends. The geometry
// is PenBrush's (exact union of discs and tapered capsules, composited once), so golden/pen holds
// it. Per-point opacity: constant opacity goes into the color; where it varies along the stroke,
// an alpha profile carries it (the color takes the largest opacity, the profile the ratio to it).

import InkwellModel

/// The built-in pen.
public struct PenInk: Brush {
  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    var primitives: [Primitive] = []
    appendPrimitives(for: stroke, view: view, to: &primitives)
    return primitives
  }

  public func appendPrimitives(for stroke: Stroke, view: AffineTransform, to primitives: inout [Primitive]) {
    guard let (path, alphaScale) = PenBrush.outline(of: stroke, toPixels: view) else { return }
    if Self.opacityVaries(stroke.path.controlPoints), let s = StrokeSamples(stroke: stroke, view: view) {
      let alphas = s.samples.map { StrokeSamples.opacity($0.point) }
      let mean = Swift.min(alphas.reduce(0, +) / Float(alphas.count), 2)
      let widest = s.samples.map { StrokeSamples.tipSize($0.point, ink: stroke.ink).width }.max() ?? 0
      let (profile, top) = alphaProfile(s.samples, alphas: alphas, reach: widest * s.scale / 2 + 1)
      if let profile, mean > 0 {
        let color = LinearColor(stroke.ink.color, opacity: alphaScale / mean * top)
        guard color.alpha > 0 else { return }
        primitives.append(Primitive(path: path, rule: .nonZero, color: color, paint: Paint(profile: profile)))
        return
      }
    }
    let color = LinearColor(stroke.ink.color, opacity: alphaScale)
    guard color.alpha > 0 else { return }
    primitives.append(Primitive(path: path, rule: .nonZero, color: color))
  }

  /// Whether the points' clamped opacities span at least half an 8-bit level.
  static func opacityVaries(_ points: [StrokePoint]) -> Bool {
    points.withUnsafeBufferPointer { points in
      guard let first = points.first else { return false }
      // The span of the raw opacities, clamped afterwards (clamping keeps the order). A value
      // that is not finite (which comparisons would pass over, or clamping map to 1) makes a
      // lane's sum not finite: then each is clamped first, as `StrokeSamples.opacity` does. Four
      // lanes, each a quarter of the points: one lane's minimum, maximum and sum made a chain of
      // dependent instructions per point.
      var lo = SIMD4(repeating: first.opacity)
      var hi = lo
      var sum = SIMD4<Float>.zero
      var i = 0
      while i + 4 <= points.count {
        let o = SIMD4(points[i].opacity, points[i + 1].opacity, points[i + 2].opacity, points[i + 3].opacity)
        lo.replace(with: o, where: o .< lo)
        hi.replace(with: o, where: hi .< o)
        sum += o
        i += 4
      }
      while i < points.count {
        let o = SIMD4(repeating: points[i].opacity)
        lo.replace(with: o, where: o .< lo)
        hi.replace(with: o, where: hi .< o)
        sum[0] += o[0]
        i += 1
      }
      guard all(sum .< .infinity .& sum .> -.infinity) else { return clampedSpan(points) >= 1 / 512 }
      // The lanes' extremes by hand: `SIMD4.max()` and `min()` were calls looping over the lanes
      // (the sums above are finite, so every lane is, and the order does not matter).
      let highest = Swift.max(Swift.max(hi[0], hi[1]), Swift.max(hi[2], hi[3]))
      let lowest = Swift.min(Swift.min(lo[0], lo[1]), Swift.min(lo[2], lo[3]))
      return StrokeSamples.opacity(value: highest) - StrokeSamples.opacity(value: lowest) >= 1 / 512
    }
  }

  /// The span of the points' opacities as `StrokeSamples.opacity` clamps them.
  private static func clampedSpan(_ points: UnsafeBufferPointer<StrokePoint>) -> Float {
    var lo = StrokeSamples.opacity(points[0])
    var hi = lo
    for p in points {
      let o = StrokeSamples.opacity(p)
      if o < lo { lo = o }
      if hi < o { hi = o }
    }
    return hi - lo
  }
}
