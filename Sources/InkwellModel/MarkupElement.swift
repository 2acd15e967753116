/// One element of a markup, in paint order.
///
/// Drawings are the first kind; shapes, lines, text boxes and images come in later versions as new
/// cases. Until then (and in any build reading a newer file) an element of a kind this build does not
/// know is kept whole as `.unknown`: saved back unchanged, never rendered.
public enum MarkupElement: Hashable, Sendable {
  /// Strokes.
  case drawing(Drawing)
  /// An element of a kind this build does not know, preserved as read.
  case unknown(UnknownElement)

  /// The element's kind as files name it (`drawing`, or the unknown element's kind).
  public var kind: String {
    switch self {
    case .drawing: return "drawing"
    case .unknown(let element): return element.kind
    }
  }

  /// The content version a reader needs for this element; 1 for unknown elements, whose needs this
  /// build cannot know (the file's declared content version guards them).
  public var requiredContentVersion: Int {
    switch self {
    case .drawing(let drawing): return drawing.requiredContentVersion
    case .unknown: return 1
    }
  }
}

/// An element of a kind this build does not know: its kind and every other member of its record.
public struct UnknownElement: Hashable, Sendable {
  public var kind: String
  public var fields: UnknownFields

  public init(kind: String, fields: UnknownFields = UnknownFields()) {
    self.kind = kind
    self.fields = fields
  }
}
