// pen: opaque, smooth, round; width follows force; tapered ends. The geometry is PenBrush's
// (exact union of discs and tapered capsules, composited once), unchanged, so golden/pen holds it.

import InkwellModel

/// The built-in pen.
public struct PenInk: Brush {
  public init() {}

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let (path, alphaScale) = PenBrush.outline(of: stroke, toPixels: view) else { return [] }
    let color = LinearColor(stroke.ink.color, opacity: alphaScale)
    guard color.alpha > 0 else { return [] }
    return [Primitive(path: path, rule: .nonZero, color: color)]
  }
}
