// marker: a felt-tip highlighter with a broad chisel tip. The nib is a rectangle as long as the
// point's width and 0.4 of its height thick, its long axis at 70° below the x axis (turned further
// by the pen's roll), so a horizontal pass is nearly full width and a vertical one about half.
// Force is ignored (felt does not spread under pressure).
//
// Blend: multiply, at 0.85 × the ink color's alpha, one union outline per stroke. A stroke never
// darkens where it crosses itself (one primitive, composited once); a second stroke does (a second
// multiply). Why multiply and not source-over: in linear light, source-over of a yellow at α 0.5
// turns black text under it into mustard (luminance 0.30 against 0.80 around it: contrast 2.4:1,
// from 21:1) and washes the yellow out to pastel on white paper; multiply acts like dye: black text
// stays black (13:1 on the yellow), white text on a dark page takes the marker's color and stays
// light (11:1), and the yellow on white paper is the yellow of the ink. What multiply gives up:
// on a dark page the highlight shows only in the light text it covers, not on the dark page
// around it. Measured in InkTests and docs/inks.md.

import InkwellModel

/// The built-in marker.
public struct MarkerInk: Brush {
  /// Alpha multiplier of the ink's color.
  public static let alpha: Float = 0.85
  /// Direction of the chisel's long axis, radians (atan2 sense, y down), before roll.
  public static let nibAngle: Float = 1.22
  /// Thickness of the chisel across its long axis, as a fraction of the point's height.
  public static let thickness: Float = 0.4

  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    var widest: Float = 0
    let outline = InkSupport.sweep(s) { sample in
      let tip = StrokeSamples.tipSize(sample.point, ink: stroke.ink)
      let roll = sample.point.rollAngle.isFinite ? sample.point.rollAngle : 0
      widest = Swift.max(widest, Swift.max(tip.width, tip.height))
      return NibShape.rectangle(
        length: tip.width, thickness: Swift.max(tip.height * Self.thickness, 0.75 / s.scale),
        angle: Self.nibAngle + roll)
    }
    let (profile, constant) = alphaProfile(
      s.samples, alphas: s.samples.map { StrokeSamples.opacity($0.point) }, reach: widest * s.scale / 2 + 1)
    let primitive = InkSupport.primitive(
      [outline], color: stroke.ink.color, alpha: Self.alpha * constant,
      paint: Paint(profile: profile, blend: .multiply))
    return primitive.map { [$0] } ?? []
  }
}
