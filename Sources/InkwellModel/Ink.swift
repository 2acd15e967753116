/// The kinds of ink PencilKit defines, and the content version that introduced each.
public enum InkType: String, CaseIterable, Hashable, Sendable {
  case pen
  case pencil
  case marker
  case monoline
  case fountainPen
  case watercolor
  case crayon
  case reed

  /// The first content version whose readers know this ink.
  public var requiredContentVersion: Int {
    switch self {
    case .pen, .pencil, .marker: return 1
    case .monoline, .fountainPen, .watercolor, .crayon: return 2
    case .reed: return 4
    }
  }

  /// The widths an editor offers for this ink, in document units (our own ranges; PencilKit does not
  /// publish its). Documents may hold any width >= 0; the renderer does not clamp to this range.
  public var validWidthRange: ClosedRange<Float> {
    switch self {
    case .pen, .monoline: return 0.5...25
    case .pencil: return 1...16
    case .marker: return 4...32
    case .fountainPen, .reed: return 1...25
    case .watercolor: return 4...64
    case .crayon: return 2...32
    }
  }

  /// The width used when a document names the ink without one, in document units.
  public var defaultWidth: Float {
    switch self {
    case .pen, .monoline: return 2
    case .pencil, .crayon: return 3
    case .fountainPen, .reed: return 4
    case .marker: return 15
    case .watercolor: return 20
    }
  }
}

/// What a stroke is drawn with: the kind of ink, its color and its nominal width.
public struct Ink: Hashable, Sendable {
  public var type: InkType
  public var color: Color
  /// The nominal tip diameter in document units. A point without a recorded size takes it as its
  /// size; the brush then scales it by the point's force.
  public var width: Float
  /// Members of the ink's record that this build does not know, kept so a save writes them back.
  public var unknownFields: UnknownFields

  public init(
    type: InkType, color: Color, width: Float? = nil, unknownFields: UnknownFields = UnknownFields()
  ) {
    self.type = type
    self.color = color
    self.width = width ?? type.defaultWidth
    self.unknownFields = unknownFields
  }

  /// The content version a reader needs to draw this ink.
  public var requiredContentVersion: Int { type.requiredContentVersion }
}
