// fountainPen: a steel italic nib at a fixed angle of −30° (rising to the right), or following the
// barrel's roll where the points carry it (angle = −30° + roll). The nib is a rectangle: its length
// follows force, 0.55 + 0.45·f^0.8 of the point's width (pressing spreads the tines), and its
// thickness is a fifth of that but never under 0.6 pixel, so strokes along the nib stay a fine
// unbroken line. Ends taper like the pen's (0.6 of full size at the very end). Union, composited
// once.

import InkwellModel

/// The built-in fountain pen.
public struct FountainPenInk: Brush {
  /// Direction of the nib's edge, radians (atan2 sense, y down), before roll.
  public static let nibAngle: Float = -0.52
  /// Thickness of the nib as a fraction of its length.
  public static let thickness: Float = 0.2

  public init() {}

  /// Nib length multiplier for force f: 0.55 + 0.45·f^0.8.
  public static func pressureScale(_ force: Float) -> Float { 0.55 + 0.45 * FloatMath.pow(force, 0.8) }

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    var widest: Float = 0
    let total = s.length
    let outline = InkSupport.sweep(s) { sample in
      let tip = StrokeSamples.tipSize(sample.point, ink: stroke.ink)
      let ease = PenBrush.taper(at: sample.arc, length: total, nominalDiameter: stroke.ink.width * s.scale)
      let taper = 0.6 + 0.4 * (ease - 0.45) / 0.55
      let length = tip.width * Self.pressureScale(StrokeSamples.force(sample.point)) * taper
      let roll = sample.point.rollAngle.isFinite ? sample.point.rollAngle : 0
      widest = Swift.max(widest, length)
      return NibShape.rectangle(
        length: length, thickness: Swift.max(length * Self.thickness, 0.6 / s.scale),
        angle: Self.nibAngle + roll)
    }
    let (profile, constant) = alphaProfile(
      s.samples, alphas: s.samples.map { StrokeSamples.opacity($0.point) }, reach: widest * s.scale / 2 + 1)
    let primitive = InkSupport.primitive(
      [outline], color: stroke.ink.color, alpha: constant, paint: Paint(profile: profile))
    return primitive.map { [$0] } ?? []
  }
}
