/// One stroke: a path drawn with an ink, placed by a transform.
public struct Stroke: Hashable, Sendable {
  public var ink: Ink
  public var path: StrokePath
  /// Maps the path's coordinates into the drawing's.
  public var transform: AffineTransform
  /// Seeds the stroke's random effects (grain, texture), so they are the same on every render.
  public var randomSeed: UInt32
  /// What is left visible after masking and erasing, in the path's coordinates; `nil` shows all.
  public var mask: StrokeMask?
  /// Members of the stroke's record that this build does not know, kept so a save writes them back.
  public var unknownFields: UnknownFields

  public init(
    ink: Ink, path: StrokePath, transform: AffineTransform = .identity, randomSeed: UInt32 = 0,
    mask: StrokeMask? = nil, unknownFields: UnknownFields = UnknownFields()
  ) {
    self.ink = ink
    self.path = path
    self.transform = transform
    self.randomSeed = randomSeed
    self.mask = mask
    self.unknownFields = unknownFields
  }

  /// The content version a reader needs to render this stroke: the ink's, except that a fountain pen
  /// stroke whose points carry barrel roll (any `rollAngle` other than 0) needs version 3.
  public var requiredContentVersion: Int {
    let version = ink.requiredContentVersion
    if ink.type == .fountainPen, path.controlPoints.contains(where: { $0.rollAngle != 0 }) {
      return Swift.max(version, 3)
    }
    return version
  }

  /// The parametric ranges of the path that the mask leaves visible, in increasing order: where the
  /// curve is inside the clip and outside every erasure. `[0...count−1]` without a mask, `[]` for an
  /// empty path.
  ///
  /// Computed on the curve's center line, sampled `StrokeMask.samplesPerSegment` times per segment;
  /// each change between visible and hidden is then located by bisection to within
  /// 1/2¹⁷ of a segment. A visible run shorter than one sample step can be missed.
  public var maskedPathRanges: [ClosedRange<Float>] {
    guard !path.isEmpty else { return [] }
    guard let mask, !mask.isEmpty else { return [0...path.parametricEnd] }
    if path.count == 1 { return mask.shows(path.controlPoints[0].location) ? [0...0] : [] }
    let samples = (path.count - 1) * StrokeMask.samplesPerSegment
    let step = path.parametricEnd / Float(samples)
    func visible(_ t: Float) -> Bool { mask.shows(path.interpolatedLocation(at: t)) }
    func boundary(from a: Float, to b: Float, startVisible: Bool) -> Float {
      var (lo, hi) = (a, b)
      for _ in 0..<12 {
        let mid = (lo + hi) / 2
        if visible(mid) == startVisible { lo = mid } else { hi = mid }
      }
      return startVisible ? lo : hi
    }
    var ranges: [ClosedRange<Float>] = []
    var start: Float? = visible(0) ? 0 : nil
    var previous: Float = 0
    for j in 1...samples {
      let t = j == samples ? path.parametricEnd : Float(j) * step
      let shown = visible(t)
      if shown, start == nil {
        start = boundary(from: previous, to: t, startVisible: false)
      } else if !shown, let s = start {
        ranges.append(s...Swift.max(s, boundary(from: previous, to: t, startVisible: true)))
        start = nil
      }
      previous = t
    }
    if let s = start { ranges.append(s...path.parametricEnd) }
    return ranges
  }

  /// The area the stroke can paint, in drawing coordinates: the control points' hull grown by the
  /// largest tip size (a B-spline stays inside the hull of its control points, and the reflected
  /// end points add no more than the nearest neighbour's distance), cut to the mask's clip when it
  /// has one, then transformed. `nil` for a stroke without points, whose clip hides it all, or
  /// whose extent overflows float (coordinates near float's largest, or a transform that blows
  /// them up): such a box would not be a number, and a document's frame is taken without it.
  public var renderBounds: Rect? {
    guard !path.isEmpty else { return nil }
    guard let curve = path.curveBounds else { return nil }
    let (minX, minY, maxX, maxY) = (curve.minX, curve.minY, curve.maxX, curve.maxY)
    var radius: Float = 0
    for p in path.controlPoints {
      let r = Swift.max(p.size.width, p.size.height, ink.width) / 2
      if r.isFinite { radius = Swift.max(radius, r) }
    }
    guard minX <= maxX, minY <= maxY else { return nil }
    var local = Rect(
      x: minX - radius, y: minY - radius, width: maxX - minX + 2 * radius,
      height: maxY - minY + 2 * radius)
    if let clip = mask?.clip {
      guard let clipBounds = Rect(bounding: clip.joined()),
        let overlap = local.intersectionIncludingEdges(clipBounds)
      else { return nil }
      local = overlap
    }
    let mapped = transform.apply(local)
    guard mapped.minX.isFinite, mapped.minY.isFinite, mapped.maxX.isFinite, mapped.maxY.isFinite else {
      return nil
    }
    return mapped
  }
}

extension Rect {
  /// The overlap of both, including a shared edge or corner (an overlap of zero width or height);
  /// `nil` when they are apart.
  fileprivate func intersectionIncludingEdges(_ other: Rect) -> Rect? {
    let x0 = Swift.max(minX, other.minX)
    let y0 = Swift.max(minY, other.minY)
    let x1 = Swift.min(maxX, other.maxX)
    let y1 = Swift.min(maxY, other.maxY)
    guard x0 <= x1, y0 <= y1 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
