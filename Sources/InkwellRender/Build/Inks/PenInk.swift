// pen: opaque, smooth, round; width follows force and, a little, speed; tapered ends. The geometry
// is PenBrush's (exact union of discs and tapered capsules, composited once), so golden/pen holds
// it. Per-point opacity: constant opacity goes into the color; where it varies along the stroke,
// an alpha profile carries it (the color takes the largest opacity, the profile the ratio to it).

import InkwellModel

/// The built-in pen.
public struct PenInk: Brush {
  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let (path, alphaScale) = PenBrush.outline(of: stroke, toPixels: view) else { return [] }
    if Self.opacityVaries(stroke.path.controlPoints), let s = StrokeSamples(stroke: stroke, view: view) {
      let alphas = s.samples.map { StrokeSamples.opacity($0.point) }
      let mean = Swift.min(alphas.reduce(0, +) / Float(alphas.count), 2)
      let widest = s.samples.map { StrokeSamples.tipSize($0.point, ink: stroke.ink).width }.max() ?? 0
      let (profile, top) = alphaProfile(s.samples, alphas: alphas, reach: widest * s.scale / 2 + 1)
      if let profile, mean > 0 {
        let color = LinearColor(stroke.ink.color, opacity: alphaScale / mean * top)
        guard color.alpha > 0 else { return [] }
        return [Primitive(path: path, rule: .nonZero, color: color, paint: Paint(profile: profile))]
      }
    }
    let color = LinearColor(stroke.ink.color, opacity: alphaScale)
    guard color.alpha > 0 else { return [] }
    return [Primitive(path: path, rule: .nonZero, color: color)]
  }

  /// Whether the points' clamped opacities span at least half an 8-bit level.
  static func opacityVaries(_ points: [StrokePoint]) -> Bool {
    guard let first = points.first else { return false }
    var lo = StrokeSamples.opacity(first)
    var hi = lo
    for p in points.dropFirst() {
      let o = StrokeSamples.opacity(p)
      if o < lo { lo = o }
      if hi < o { hi = o }
    }
    return hi - lo >= 1 / 512
  }
}
