import InkwellModel

/// Turns a drawing into primitives for one view.
public enum SceneBuilder {
  /// The drawing's strokes as primitives, in paint order, for the map `view` from drawing
  /// coordinates to pixels, each stroke drawn by the brush `inks` picks for it and clipped by its
  /// mask. Strokes that draw nothing are left out.
  public static func primitives(
    for drawing: Drawing, view: AffineTransform, inks: InkCatalog = .standard
  ) -> [Primitive] {
    var result: [Primitive] = []
    result.reserveCapacity(drawing.strokes.count)
    for stroke in drawing.strokes {
      result.append(contentsOf: primitives(for: stroke, view: view, inks: inks))
    }
    return result
  }

  /// One stroke's primitives, drawn by the brush `inks` picks for it and clipped by its mask;
  /// empty when the stroke draws nothing.
  public static func primitives(
    for stroke: Stroke, view: AffineTransform, inks: InkCatalog = .standard
  ) -> [Primitive] {
    let primitives = inks.brush(for: stroke).primitives(for: stroke, view: view)
    guard !primitives.isEmpty else { return [] }
    var clip: ClipPath?
    var erased: FlatPath?
    if let mask = stroke.mask, !mask.isEmpty {
      let toPixels = stroke.transform.concatenating(view)
      clip = mask.clip.map { contours in
        ClipPath(path: FlatPath(contours: contours.map { $0.map(toPixels.apply) }), rule: mask.fillRule)
      }
      erased = knockout(of: mask.erasures, toPixels: toPixels)
    }
    var result: [Primitive] = []
    for var primitive in primitives where primitive.color.alpha > 0 && !primitive.path.isEmpty {
      if let clip { primitive.clip = clip }
      if let erased {
        if var knockout = primitive.knockout {
          erased.forEachContour { knockout.append(contour: Array($0)) }
          primitive.knockout = knockout
        } else {
          primitive.knockout = erased
        }
      }
      result.append(primitive)
    }
    return result
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
