// reed: a calligraphy reed pen. The nib is a thin rectangle as long as the point's width (0.8 of it
// at no force, all of it at full force: a reed barely flexes) and 8% of that thick, its edge at
// −34° (rising to the right, the classic italic pen angle), turned by the pen's roll. Moving across
// the nib draws its full length; moving along it draws a hairline that the threshold can break.
//
// Threshold: the points' threshold t acts on the coverage, the ink's soft alpha:
// m' = max(m − t, 0)/(1 − t). 0 changes nothing, 1 draws nothing; edge pixels keep a (steeper)
// anti-aliased ramp, and hairlines whose coverage never exceeds t vanish. Where t varies along the
// stroke each pixel takes the t of its nearest spine point (a threshold profile).

import InkwellModel

/// The built-in reed.
public struct ReedInk: Brush {
  /// Direction of the nib's edge, radians (atan2 sense, y down), before roll.
  public static let nibAngle: Float = -0.6
  /// Thickness of the nib as a fraction of its length.
  public static let thickness: Float = 0.08

  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    let thresholds = s.samples.map {
      $0.point.threshold.isFinite ? Swift.min(Swift.max($0.point.threshold, 0), 1) : 0
    }
    let lowest = thresholds.min() ?? 0
    let highest = thresholds.max() ?? 0
    guard lowest < 1 else { return [] }
    var widest: Float = 0
    let outline = InkSupport.sweep(s) { sample in
      let tip = StrokeSamples.tipSize(sample.point, ink: stroke.ink)
      let length = tip.width * (0.8 + 0.2 * StrokeSamples.force(sample.point))
      let roll = sample.point.rollAngle.isFinite ? sample.point.rollAngle : 0
      widest = Swift.max(widest, length)
      return NibShape.rectangle(
        length: length, thickness: length * Self.thickness, angle: Self.nibAngle + roll)
    }
    let (profile, constant) = alphaProfile(
      s.samples, alphas: s.samples.map { StrokeSamples.opacity($0.point) }, reach: widest * s.scale / 2 + 1)
    let varies = highest - lowest >= 1 / 512
    let thresholdProfile =
      varies
      ? AlphaProfile(points: s.samples.map(\.center), alphas: thresholds, reach: widest * s.scale / 2 + 1)
      : nil
    let primitive = InkSupport.primitive(
      [outline], color: stroke.ink.color, alpha: constant,
      paint: Paint(
        profile: profile, threshold: varies ? 0 : (lowest + highest) / 2, thresholdProfile: thresholdProfile))
    return primitive.map { [$0] } ?? []
  }
}
