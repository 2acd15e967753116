// monoline: a round tip of constant width (the point's size, never its force), round ends without
// taper; one non-zero outline, composited once (union). Per-point opacity is an alpha profile.

import InkwellModel

/// The built-in monoline.
public struct MonolineInk: Brush {
  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    var radii = s.samples.map { 0.5 * StrokeSamples.tipSize($0.point, ink: stroke.ink).width * s.scale }
    var alpha: Float = 1
    let largest = radii.max() ?? 0
    guard largest > 0, largest.isFinite else { return [] }
    // Hairlines thinner than the pen's minimum keep their ink as alpha, as the pen's do.
    if largest < PenBrush.minimumRadius {
      alpha = largest / PenBrush.minimumRadius
      radii = radii.map { _ in PenBrush.minimumRadius }
    }
    let discs = zip(s.samples, radii).map { PenSample(center: $0.center, radius: $1) }
    let (profile, constant) = alphaProfile(
      s.samples, alphas: s.samples.map { StrokeSamples.opacity($0.point) }, reach: largest + 1)
    let primitive = InkSupport.primitive(
      [PenBrush.outline(of: discs)], color: stroke.ink.color, alpha: alpha * constant,
      paint: Paint(profile: profile))
    return primitive.map { [$0] } ?? []
  }
}
