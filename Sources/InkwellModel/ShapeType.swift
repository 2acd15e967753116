/// The shapes a markup may hold (PaperKit's shape tools). Shapes themselves arrive with a later
/// element kind; feature sets already name which are allowed.
public enum ShapeType: String, CaseIterable, Hashable, Sendable {
  /// An axis-aligned rectangle before the element's transform.
  case rectangle
  /// A rectangle with circular corners.
  case roundedRectangle
  /// An ellipse inscribed in the element's frame.
  case ellipse
  /// A straight segment between two points; may carry line markers.
  case line
  /// A line with an arrowhead marker at its end.
  case arrow
  /// A five-pointed star inscribed in the frame.
  case star
  /// A speech balloon: a rounded rectangle with a tail.
  case chatBubble
  /// A regular polygon with three or more sides, inscribed in the frame.
  case regularPolygon
}

/// Where a line may carry a marker (an arrowhead or similar end decoration).
public struct LineMarkerPositions: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// At the line's first point.
  public static let start = LineMarkerPositions(rawValue: 1)
  /// At the line's last point.
  public static let end = LineMarkerPositions(rawValue: 2)
  /// At both ends.
  public static let both: LineMarkerPositions = [.start, .end]
}
