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
      if let primitive = primitive(for: stroke, view: view) { result.append(primitive) }
    }
    return result
  }

  /// One stroke as a primitive, or `nil` when it draws nothing.
  public static func primitive(for stroke: Stroke, view: AffineTransform) -> Primitive? {
    guard let (path, alphaScale) = PenBrush.outline(of: stroke, toPixels: view) else { return nil }
    let color = LinearColor(stroke.ink.color, opacity: alphaScale)
    guard color.alpha > 0 else { return nil }
    var primitive = Primitive(path: path, rule: .nonZero, color: color)
    if let mask = stroke.mask, !mask.isEmpty {
      let toPixels = stroke.transform.concatenating(view)
      primitive.clip = mask.clip.map { contours in
        ClipPath(path: FlatPath(contours: contours.map { $0.map(toPixels.apply) }), rule: mask.fillRule)
      }
      primitive.knockout = knockout(of: mask.erasures, toPixels: toPixels)
    }
    return primitive
  }

  /// The union of eraser sweeps as one non-zero path in pixel space: each sweep's outline is the
  /// boundary of its discs and the capsules between them, and all outlines wind the same way, so
  /// where sweeps overlap the winding only grows.
  static func knockout(of sweeps: [EraserSweep], toPixels: AffineTransform) -> FlatPath? {
    let scale = toPixels.meanScale
    var path = FlatPath()
    for sweep in sweeps {
      let samples = zip(sweep.centers, sweep.radii).compactMap { center, radius -> PenSample? in
        let c = toPixels.apply(center)
        let r = radius * scale
        guard c.x.isFinite, c.y.isFinite, r.isFinite, r > 0 else { return nil }
        return PenSample(center: c, radius: r)
      }
      path.append(contour: PenBrush.outline(of: samples))
    }
    return path.isEmpty ? nil : path
  }
}
