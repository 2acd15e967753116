// watercolor: a translucent wash with darker edges where pigment pools.
//
// Geometry: a round brush whose radius is half the point's width × (0.6 + 0.4·f) × spread, with
// spread = 0.4 + 0.6·secondaryScale (1 at the default secondaryScale 1; 0 draws a tight stroke,
// 2 spreads to 1.6×), wobbling by 8% with seeded noise along the arc (one cell per 6 pixels) so
// the edge is organic. Two primitives per stroke, in this order:
//   wash  the outline at 0.38 × the color's alpha;
//   rim   the same outline with an inner outline (radius − max(1 px, 0.22·radius)) knocked out,
//         at 0.32 × alpha over the wash: edges come out at 1 − 0.62·0.68 ≈ 0.58, half again the
//         center's 0.38.
// Both carry a mild paper grain (lattice 1.2 stroke units, bite 0.1, depth 0.3) and the opacity
// profile. Each primitive is a union, so a stroke does not darken where it crosses itself except
// along its own rim lines; separate strokes build up (source-over), as washes do.

import InkwellModel

/// The built-in watercolor.
public struct WatercolorInk: Brush {
  /// Alpha multiplier of the wash and of the rim.
  public static let washAlpha: Float = 0.38
  public static let rimAlpha: Float = 0.32

  public init() {}

  /// Radius multiplier for `secondaryScale`: 0.4 + 0.6·s, s clamped into 0…3.
  public static func spread(_ secondaryScale: Float) -> Float {
    let s = secondaryScale.isFinite ? Swift.min(Swift.max(secondaryScale, 0), 3) : 1
    return 0.4 + 0.6 * s
  }

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    let radii = s.samples.map { sample -> Float in
      let p = sample.point
      let tip = StrokeSamples.tipSize(p, ink: stroke.ink)
      let wobble = 1 + 0.08 * strokeNoise(sample.arc / 6, seed: stroke.randomSeed, channel: 3)
      let r = 0.5 * tip.width * (0.6 + 0.4 * StrokeSamples.force(p)) * Self.spread(p.secondaryScale) * wobble
      return Swift.max(r * s.scale, PenBrush.minimumRadius)
    }
    let outer = PenBrush.outline(of: zip(s.samples, radii).map { PenSample(center: $0.center, radius: $1) })
    let inner = PenBrush.outline(
      of: zip(s.samples, radii).map {
        PenSample(center: $0.center, radius: Swift.max($1 - Swift.max(1, 0.22 * $1), 0.05))
      })
    let (profile, constant) = alphaProfile(
      s.samples, alphas: s.samples.map { StrokeSamples.opacity($0.point) }, reach: (radii.max() ?? 0) + 1)
    let grain = InkSupport.grain(s, seed: stroke.randomSeed, cell: 1.2, bite: 0.1, depth: 0.3)
    let paint = Paint(profile: profile, grain: grain)
    var result: [Primitive] = []
    if let wash = InkSupport.primitive(
      [outer], color: stroke.ink.color, alpha: Self.washAlpha * constant, paint: paint)
    {
      result.append(wash)
    }
    if var rim = InkSupport.primitive(
      [outer], color: stroke.ink.color, alpha: Self.rimAlpha * constant, paint: paint)
    {
      rim.knockout = FlatPath(contours: [inner])
      result.append(rim)
    }
    return result
  }
}
