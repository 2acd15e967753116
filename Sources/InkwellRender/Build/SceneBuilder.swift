import InkwellModel

/// Turns a drawing into primitives for one view.
public enum SceneBuilder {
  /// The drawing's strokes as primitives, in paint order, for the map `view` from drawing
  /// coordinates to pixels. Strokes that draw nothing are left out.
  ///
  /// Every ink is drawn with the pen's geometry for now; each ink's own look replaces it ink by ink.
  public static func primitives(for drawing: Drawing, view: AffineTransform) -> [Primitive] {
    var result: [Primitive] = []
    result.reserveCapacity(drawing.strokes.count)
    for stroke in drawing.strokes {
      guard let (path, alphaScale) = PenBrush.outline(of: stroke, toPixels: view) else { continue }
      let color = LinearColor(stroke.ink.color, opacity: alphaScale)
      guard color.alpha > 0 else { continue }
      result.append(Primitive(path: path, rule: .nonZero, color: color))
    }
    return result
  }
}
