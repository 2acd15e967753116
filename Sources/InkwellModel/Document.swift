/// A document as a file holds it: a markup, an optional thumbnail, and whatever top-level members
/// this build did not understand.
///
/// `bounds`, `drawing` and `canvas` are the markup's, for callers that think of a document as a
/// drawing on a canvas.
public struct Document: Hashable, Sendable {
  public var markup: Markup
  /// A PNG picture of the document, shown by apps that cannot read the content (PaperKit's
  /// recommended practice for files from newer versions).
  public var thumbnailPNG: [UInt8]?
  /// Top-level members this build does not know, kept so a save writes them back.
  public var unknownFields: UnknownFields

  public init(markup: Markup, thumbnailPNG: [UInt8]? = nil, unknownFields: UnknownFields = UnknownFields()) {
    self.markup = markup
    self.thumbnailPNG = thumbnailPNG
    self.unknownFields = unknownFields
  }

  /// A document holding one drawing on the canvas `bounds`, under the latest feature set.
  public init(bounds: Rect? = nil, drawing: Drawing) {
    self.init(markup: Markup(bounds: bounds, drawing: drawing))
  }

  /// The canvas; `nil` when the source had none.
  public var bounds: Rect? {
    get { markup.bounds }
    set { markup.bounds = newValue }
  }

  /// The strokes of every drawing element, in paint order; see `Markup.drawing`.
  public var drawing: Drawing {
    get { markup.drawing }
    set { markup.drawing = newValue }
  }

  /// The content version a reader needs to render the document.
  public var requiredContentVersion: Int { markup.requiredContentVersion }

  /// The rectangle a render shows by default: the canvas, or without one the content's frame
  /// (at least one unit wide and high).
  public var canvas: Rect {
    if let bounds, !bounds.isEmpty { return bounds }
    let b = drawing.bounds
    return b.isEmpty
      ? Rect(x: b.minX, y: b.minY, width: Swift.max(b.width, 1), height: Swift.max(b.height, 1)) : b
  }
}
