// pencil: graphite on paper.
//
// Geometry: an elliptical lead, swept (NibSweep). Upright, it is a circle of the point's width ×
// (0.85 + 0.15·f) (the lead barely flattens under pressure). Tilted, it lengthens along the
// azimuth: the semi-axis along the azimuth is r·(1 + 2.5·tilt), tilt = 1 − altitude/(π/2), the way
// the side of the lead shades. Lateral jitter: where a point asks for it, the semi-axis across the
// path wanders by up to `lateralJitter` (stroke units) with seeded 1-D noise along the arc (one
// cell per 3 pixels), so the edges waver.
//
// Paint: alpha profile along the spine, opacity × (0.3 + 0.7·f^1.2) × (1 − 0.45·tilt): light
// pressure draws light grey, full pressure near the ink's color, and tilted shading is paler; then
// grain on a lattice of 0.6 stroke units fixed to the stroke (contrast 1.6, bite 0.3, gain 1.2, depth 0.4): speckled
// tooth in the interior, ragged thin edges. The color's alpha is scaled by 0.95: graphite never
// covers paper completely. One union outline per stroke, composited once: crossing its own path a
// pencil stroke does not darken (a second stroke does).

import InkwellModel

/// The built-in pencil.
public struct PencilInk: Brush {
  public init() {}

  /// Alpha multiplier for force f and tilt: (0.3 + 0.7·f^1.2) × (1 − 0.45·tilt).
  public static func alpha(force: Float, tilt: Float) -> Float {
    (0.3 + 0.7 * FloatMath.pow(force, 1.2)) * (1 - 0.45 * tilt)
  }

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    var widest: Float = 0
    let outline = InkSupport.sweep(s) { sample in
      let p = sample.point
      let tip = StrokeSamples.tipSize(p, ink: stroke.ink)
      let f = StrokeSamples.force(p)
      let tilt = StrokeSamples.tilt(p)
      let jitter = p.lateralJitter.isFinite ? Swift.max(p.lateralJitter, 0) : 0
      let wobble = jitter > 0 ? jitter * strokeNoise(sample.arc / 3, seed: stroke.randomSeed, channel: 1) : 0
      let minor = Swift.max(0.5 * tip.width * (0.85 + 0.15 * f) + wobble, 0.3 / s.scale)
      let major = minor * (1 + 2.5 * tilt)
      let azimuth = p.azimuth.isFinite ? p.azimuth : 0
      widest = Swift.max(widest, major)
      return NibShape.ellipse(major: major, minor: minor, angle: azimuth)
    }
    let alphas = s.samples.map {
      StrokeSamples.opacity($0.point)
        * Self.alpha(force: StrokeSamples.force($0.point), tilt: StrokeSamples.tilt($0.point))
    }
    let (profile, constant) = alphaProfile(s.samples, alphas: alphas, reach: widest * s.scale + 1)
    let grain = InkSupport.grain(
      s, seed: stroke.randomSeed, cell: 0.6, bite: 0.3, depth: 0.4, contrast: 1.6, gain: 1.2)
    let primitive = InkSupport.primitive(
      [outline], color: stroke.ink.color, alpha: 0.95 * constant, paint: Paint(profile: profile, grain: grain)
    )
    return primitive.map { [$0] } ?? []
  }
}
