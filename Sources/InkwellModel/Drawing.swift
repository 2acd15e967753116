/// A drawing: strokes in paint order, first stroke at the bottom (PencilKit's `PKDrawing`).
public struct Drawing: Hashable, Sendable {
  public var strokes: [Stroke]
  /// Members of the drawing's record that this build does not know, kept so a save writes them back.
  public var unknownFields: UnknownFields

  public init(strokes: [Stroke] = [], unknownFields: UnknownFields = UnknownFields()) {
    self.strokes = strokes
    self.unknownFields = unknownFields
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
    var result = self
    for i in result.strokes.indices {
      result.strokes[i].transform = result.strokes[i].transform.concatenating(transform)
    }
    return result
  }

  /// The drawing with `other`'s strokes painted above its own.
  public func appending(_ other: Drawing) -> Drawing {
    var result = self
    result.strokes += other.strokes
    return result
  }
}
