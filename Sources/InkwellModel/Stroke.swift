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

  public init(
    ink: Ink, path: StrokePath, transform: AffineTransform = .identity, randomSeed: UInt32 = 0,
    mask: StrokeMask? = nil
  ) {
    self.ink = ink
    self.path = path
    self.transform = transform
    self.randomSeed = randomSeed
    self.mask = mask
  }

  /// The content version a reader needs to render this stroke.
  public var requiredContentVersion: Int { ink.type.requiredContentVersion }

  /// The area the stroke can paint, in drawing coordinates: the control points' hull grown by the
  /// largest tip size (a B-spline stays inside the hull of its control points, and the reflected
  /// end points add no more than the nearest neighbour's distance), then transformed.
  /// `nil` for a stroke without points.
  public var renderBounds: Rect? {
    guard !path.isEmpty else { return nil }
    var minX = Float.infinity
    var minY = Float.infinity
    var maxX = -Float.infinity
    var maxY = -Float.infinity
    var radius: Float = 0
    let points = path.controlPoints
    for (i, p) in points.enumerated() {
      var xs = [p.location.x]
      var ys = [p.location.y]
      // Reflected phantom points at either end widen the hull slightly.
      if i == 0, points.count > 1 {
        xs.append(2 * p.location.x - points[1].location.x)
        ys.append(2 * p.location.y - points[1].location.y)
      }
      if i == points.count - 1, points.count > 1 {
        xs.append(2 * p.location.x - points[i - 1].location.x)
        ys.append(2 * p.location.y - points[i - 1].location.y)
      }
      for x in xs where x.isFinite {
        minX = Swift.min(minX, x)
        maxX = Swift.max(maxX, x)
      }
      for y in ys where y.isFinite {
        minY = Swift.min(minY, y)
        maxY = Swift.max(maxY, y)
      }
      let r = Swift.max(p.size.width, p.size.height, ink.width) / 2
      if r.isFinite { radius = Swift.max(radius, r) }
    }
    guard minX <= maxX, minY <= maxY else { return nil }
    let local = Rect(
      x: minX - radius, y: minY - radius, width: maxX - minX + 2 * radius,
      height: maxY - minY + 2 * radius)
    return transform.apply(local)
  }
}

/// A drawing: strokes in paint order, first stroke at the bottom.
public struct Drawing: Hashable, Sendable {
  public var strokes: [Stroke]

  public init(strokes: [Stroke] = []) {
    self.strokes = strokes
  }

  /// The union of the strokes' render bounds; `.zero` for an empty drawing.
  public var bounds: Rect {
    strokes.compactMap(\.renderBounds).reduce(nil) { (acc: Rect?, r) in acc?.union(r) ?? r } ?? .zero
  }

  /// The content version a reader needs to render every stroke (1 for an empty drawing).
  public var requiredContentVersion: Int {
    strokes.map(\.requiredContentVersion).max() ?? 1
  }

  /// The drawing with every stroke's transform followed by `transform`.
  public func transformed(using transform: AffineTransform) -> Drawing {
    Drawing(
      strokes: strokes.map {
        var s = $0
        s.transform = s.transform.concatenating(transform)
        return s
      })
  }

  /// The drawing with `other`'s strokes painted above its own.
  public func appending(_ other: Drawing) -> Drawing {
    Drawing(strokes: strokes + other.strokes)
  }
}

/// A document: a drawing on a canvas. The canvas (`bounds`) is what a render shows by default;
/// a document without one (an import) uses its drawing's bounds.
public struct Document: Hashable, Sendable {
  /// The canvas, as PaperKit's `PaperMarkup(bounds:)`; `nil` when the source had none.
  public var bounds: Rect?
  public var drawing: Drawing

  public init(bounds: Rect? = nil, drawing: Drawing) {
    self.bounds = bounds
    self.drawing = drawing
  }

  /// The rectangle a render shows by default.
  public var canvas: Rect {
    if let bounds, !bounds.isEmpty { return bounds }
    let b = drawing.bounds
    return b.isEmpty
      ? Rect(x: b.minX, y: b.minY, width: Swift.max(b.width, 1), height: Swift.max(b.height, 1)) : b
  }
}
