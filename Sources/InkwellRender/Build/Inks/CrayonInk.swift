// crayon: wax on rough paper.
//
// Geometry: a round, slightly flattened tip like the pencil's but blunter: radius half the point's
// width × (0.8 + 0.2·f), lengthened by 1 + 1.2·tilt along the azimuth, its edge always wavering by
// 12% of the radius (seeded noise along the arc, one cell per 2 pixels), more where the point asks
// for lateral jitter.
//
// Paint: alpha profile opacity × (0.55 + 0.45·f); grain on a coarse lattice of 1.5 stroke units
// (contrast 2.2, bite 0.8, gain 1.6, depth 0.15, second
// octave ×2.9 at 0.45): wax skips the valleys of the paper's tooth,
// so the interior is broken into flecks and thin coverage at the edges is bitten away (broken
// edges). One union outline per stroke.

import InkwellModel

/// The built-in crayon.
public struct CrayonInk: Brush {
  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    var widest: Float = 0
    let outline = InkSupport.sweep(s) { sample in
      let p = sample.point
      let tip = StrokeSamples.tipSize(p, ink: stroke.ink)
      let f = StrokeSamples.force(p)
      let tilt = StrokeSamples.tilt(p)
      let radius = 0.5 * tip.width * (0.8 + 0.2 * f)
      let jitter = (p.lateralJitter.isFinite ? Swift.max(p.lateralJitter, 0) : 0) + 0.12 * radius
      let minor = Swift.max(
        radius + jitter * strokeNoise(sample.arc / 2, seed: stroke.randomSeed, channel: 2), 0.3 / s.scale)
      let major = minor * (1 + 1.2 * tilt)
      widest = Swift.max(widest, major)
      return NibShape.ellipse(major: major, minor: minor, angle: p.azimuth.isFinite ? p.azimuth : 0)
    }
    let alphas = s.samples.map {
      StrokeSamples.opacity($0.point) * (0.55 + 0.45 * StrokeSamples.force($0.point))
    }
    let (profile, constant) = alphaProfile(s.samples, alphas: alphas, reach: widest * s.scale + 1)
    let grain = InkSupport.grain(
      s, seed: stroke.randomSeed, cell: 1.5, bite: 0.8, depth: 0.15, octave: 2.9, octaveWeight: 0.45,
      contrast: 2.2,
      gain: 1.6)
    let primitive = InkSupport.primitive(
      [outline], color: stroke.ink.color, alpha: constant, paint: Paint(profile: profile, grain: grain))
    return primitive.map { [$0] } ?? []
  }
}
