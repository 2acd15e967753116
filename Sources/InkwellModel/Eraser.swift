// Erasers as operations on a drawing, in the three kinds PencilKit's eraser tool has.
//
// A vector eraser removes every stroke its path touches. A bitmap eraser cuts away what its tip
// sweeps: each touched stroke keeps its points and gains an `EraserSweep` in its mask, in the
// stroke's own coordinates, so the renderer clears exactly the swept area and a later edit can
// still see the whole stroke. The bitmap eraser's tip follows the eraser path's point sizes (and so
// the pressure it was drawn with); the fixed-width bitmap eraser uses one width throughout.
//
// "Touches" is decided on geometry, not pixels: the eraser path and each stroke are sampled every
// quarter of the thinner tip, and a stroke is touched where a sample of the eraser comes within the
// sum of the two tip radii of a sample of the stroke. A stroke's tip radius here is half its
// point's size (the pen draws at most that), so a stroke the eraser only grazes at its faintest,
// thinnest end may be counted as touched.

/// An eraser stroke: its kind, its path in drawing coordinates, and its tip width.
public struct Eraser: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Removes whole strokes that the path touches.
    case vector
    /// Cuts away the area swept by a tip whose width is each path point's `size.width`.
    case bitmap
    /// Cuts away the area swept by a tip of constant `width`.
    case fixedWidthBitmap
  }

  public var kind: Kind
  public var path: StrokePath
  /// Tip diameter in drawing units for `.vector` and `.fixedWidthBitmap`; for `.bitmap` the
  /// width of points that carry no size of their own.
  public var width: Float

  public init(kind: Kind, path: StrokePath, width: Float) {
    self.kind = kind
    self.path = path
    self.width = width
  }

  /// Centers and radii of the eraser's tip along its path, in drawing coordinates.
  func sweep(spacing: Float) -> (centers: [Point], radii: [Float]) {
    guard !path.isEmpty else { return ([], []) }
    let points =
      path.count == 1 ? path.controlPoints : path.interpolatedPoints(by: .distance(Swift.max(spacing, 0.01)))
    var centers: [Point] = []
    var radii: [Float] = []
    for p in points where p.location.x.isFinite && p.location.y.isFinite {
      let w: Float
      switch kind {
      case .vector, .fixedWidthBitmap: w = width
      case .bitmap: w = p.size.width.isFinite && p.size.width > 0 ? p.size.width : width
      }
      centers.append(p.location)
      radii.append(Swift.max(w, 0) / 2)
    }
    return (centers, radii)
  }
}

extension Drawing {
  /// The drawing after `eraser` has passed over it.
  public func erasing(with eraser: Eraser) -> Drawing {
    let tip = Swift.max(eraser.width, 0.01)
    let (centers, radii) = eraser.sweep(spacing: tip / 4)
    guard !centers.isEmpty, let sweepBounds = Rect(bounding: centers) else { return self }
    let reach = radii.max() ?? 0
    var result: [Stroke] = []
    result.reserveCapacity(strokes.count)
    for stroke in strokes {
      guard let bounds = stroke.renderBounds,
        bounds.insetBy(dx: -reach, dy: -reach).intersection(sweepBounds.insetBy(dx: -1e-3, dy: -1e-3)) != nil,
        stroke.isTouched(byCenters: centers, radii: radii)
      else {
        result.append(stroke)
        continue
      }
      switch eraser.kind {
      case .vector:
        continue
      case .bitmap, .fixedWidthBitmap:
        guard let local = stroke.sweepInStrokeSpace(centers: centers, radii: radii) else {
          result.append(stroke)
          continue
        }
        var erased = stroke
        var mask = erased.mask ?? StrokeMask()
        mask.erasures.append(local)
        erased.mask = mask
        result.append(erased)
      }
    }
    return Drawing(strokes: result)
  }
}

extension Stroke {
  /// Whether any eraser sample comes within reach of any sample of this stroke (drawing space).
  func isTouched(byCenters centers: [Point], radii: [Float]) -> Bool {
    guard !path.isEmpty else { return false }
    let scale = transform.meanScale
    let thinnest = Swift.max(Swift.min(ink.width * scale, radii.min().map { $0 * 2 } ?? 1), 0.05)
    let samples =
      path.count == 1
      ? path.controlPoints
      : path.interpolatedPoints(by: .distance(Swift.max(thinnest / 4 / Swift.max(scale, 1e-6), 1e-3)))
    for p in samples {
      let c = transform.apply(p.location)
      let width = p.size.width.isFinite && p.size.width > 0 ? p.size.width : ink.width
      let r = width / 2 * scale
      for (e, er) in zip(centers, radii) {
        let reach = r + er
        let dx = c.x - e.x
        let dy = c.y - e.y
        if dx * dx + dy * dy <= reach * reach { return true }
      }
    }
    return false
  }

  /// The sweep mapped into the stroke's own coordinates (through the inverse transform), or `nil`
  /// when the transform cannot be inverted.
  func sweepInStrokeSpace(centers: [Point], radii: [Float]) -> EraserSweep? {
    guard let inverse = transform.inverted() else { return nil }
    let scale = inverse.meanScale
    return EraserSweep(centers: centers.map { inverse.apply($0) }, radii: radii.map { $0 * scale })
  }
}

extension AffineTransform {
  /// The inverse map, or `nil` when the map collapses the plane (determinant zero or not finite).
  public func inverted() -> AffineTransform? {
    let det = a * d - b * c
    guard det.isFinite, det != 0 else { return nil }
    let inv = 1 / det
    return AffineTransform(
      a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
      tx: (c * ty - d * tx) * inv, ty: (b * tx - a * ty) * inv)
  }
}
