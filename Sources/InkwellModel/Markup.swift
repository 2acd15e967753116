// Markup: the document model, PaperKit's `PaperMarkup` data without the editor.
//
// Named `Markup` rather than `PaperMarkup`: "Paper" is Apple's framework prefix, and this type is the
// portable data alone (no views, no undo), so the shorter name says what it is without suggesting
// API compatibility with a framework it does not link.
//
// A markup is a canvas (`bounds`), the feature set it was made under, and an ordered list of
// elements, first at the bottom. Today the only element kind is a drawing; later kinds (shapes,
// lines, text boxes, images) join the same list, so their z-order relative to ink is kept, and a
// file from a newer build keeps its unknown elements through load and save. Consecutive drawings
// are merged when content is appended, so a markup made by this build holds at most one drawing
// between other elements.

/// A markup document: canvas, feature set and elements in paint order.
public struct Markup: Hashable, Sendable {
  /// The canvas, as `PaperMarkup(bounds:)`, in document units; `nil` when the source had none (then
  /// renders show `contentsRenderFrame`).
  public var bounds: Rect?
  /// What the markup may contain.
  public var featureSet: FeatureSet
  /// Elements in paint order, first at the bottom.
  public var elements: [MarkupElement]

  public init(bounds: Rect? = nil, featureSet: FeatureSet = .latest, elements: [MarkupElement] = []) {
    self.bounds = bounds
    self.featureSet = featureSet
    self.elements = elements
  }

  /// A markup holding one drawing.
  public init(bounds: Rect? = nil, featureSet: FeatureSet = .latest, drawing: Drawing) {
    self.init(bounds: bounds, featureSet: featureSet, elements: [.drawing(drawing)])
  }

  /// All strokes of the drawing elements, in paint order. Setting it replaces the drawing elements
  /// with one, at the place of the first (or at the bottom when there was none); that drawing keeps
  /// the first drawing element's unknown fields.
  public var drawing: Drawing {
    get {
      var drawings = elements.lazy.compactMap { element -> Drawing? in
        if case .drawing(let d) = element { return d }
        return nil
      }.makeIterator()
      guard var result = drawings.next() else { return Drawing() }
      while let next = drawings.next() { result.strokes += next.strokes }
      return result
    }
    set {
      let first = elements.firstIndex { if case .drawing = $0 { return true } else { return false } }
      elements.removeAll { if case .drawing = $0 { return true } else { return false } }
      elements.insert(.drawing(newValue), at: first ?? 0)
    }
  }

  /// The bounds of everything the markup paints, in document units; `.zero` when it paints nothing.
  /// Unknown elements add nothing: their geometry is unknown to this build.
  public var contentsRenderFrame: Rect {
    var frame: Rect?
    for case .drawing(let drawing) in elements where !drawing.strokes.isEmpty {
      let b = drawing.bounds
      frame = frame?.union(b) ?? b
    }
    return frame ?? .zero
  }

  /// The content version a reader needs for every element (1 for an empty markup).
  public var requiredContentVersion: Int {
    elements.map(\.requiredContentVersion).max() ?? 1
  }

  /// Paints `other`'s elements above this markup's. A drawing that lands next to a drawing is merged
  /// into it. Bounds and feature set stay this markup's.
  public mutating func append(contentsOf other: Markup) {
    for element in other.elements {
      if case .drawing(let drawing) = element {
        append(contentsOf: drawing)
      } else {
        elements.append(element)
      }
    }
  }

  /// Paints `drawing`'s strokes above everything: into the top element when it is a drawing,
  /// otherwise as a new drawing element.
  public mutating func append(contentsOf drawing: Drawing) {
    if let last = elements.indices.last, case .drawing(let top) = elements[last] {
      elements[last] = .drawing(top.appending(drawing))
    } else {
      elements.append(.drawing(drawing))
    }
  }

  /// Maps every element's content by `transform` (applied after each stroke's own transform). The
  /// canvas stays. Unknown elements cannot be transformed by this build and stay as they are.
  public mutating func transformContent(_ transform: AffineTransform) {
    for i in elements.indices {
      if case .drawing(let drawing) = elements[i] {
        elements[i] = .drawing(drawing.transformed(using: transform))
      }
    }
  }

  /// Removes what `featureSet` does not allow: every drawing without the `drawing` feature;
  /// otherwise strokes whose ink it does not list or whose content version exceeds its own; and
  /// unknown elements, which this build cannot check. Drawings left empty stay (they are harmless
  /// and keep their unknown fields).
  public mutating func removeContentUnsupported(by featureSet: FeatureSet) {
    elements = elements.compactMap { element in
      switch element {
      case .drawing(var drawing):
        guard featureSet.contains(.drawing) else { return nil }
        drawing.strokes.removeAll { !featureSet.allows($0) }
        return .drawing(drawing)
      case .unknown:
        return nil
      }
    }
  }
}
