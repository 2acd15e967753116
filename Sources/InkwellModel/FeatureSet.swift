/// What a markup may contain: PaperKit's `FeatureSet`. An editor offers only what its feature set
/// allows; `Markup.removeContentUnsupported(by:)` brings content down to a feature set, for example
/// before handing a document to an older reader.
///
/// A set is the features proper plus four allowances (inks, shapes, line markers, HDR headroom) and
/// the newest content version it admits. `isSubset(of:)` compares all of them.
public struct FeatureSet: Hashable, Sendable {
  /// A kind of content or capability.
  public enum Feature: String, CaseIterable, Hashable, Sendable {
    /// Strokes (drawing elements).
    case drawing
    /// Text boxes.
    case text
    /// Embedded images.
    case images
    /// Stickers (images with a cut-out outline).
    case stickers
    /// Links attached to elements.
    case links
    /// Magnifying loupes.
    case loupes
    /// Outlines on shapes.
    case shapeStrokes
    /// Fills in shapes.
    case shapeFills
    /// Shapes with opacity below 1.
    case shapeOpacity
  }

  /// The newest content version this build reads.
  public static let newestContentVersion = 4

  public var features: Set<Feature>
  /// The inks strokes may use.
  public var inks: Set<InkType>
  /// The shapes shape elements may be.
  public var shapes: Set<ShapeType>
  /// Where lines may carry markers.
  public var lineMarkerPositions: LineMarkerPositions
  /// The brightest color allowed, as a multiple of SDR white in linear light: 1 is SDR, larger
  /// values allow HDR colors. At least 1.
  public var colorMaximumLinearExposure: Float
  /// The newest content version allowed; content needing more is unsupported (for example a fountain
  /// pen stroke with barrel roll, version 3, under a set of version 2).
  public var contentVersion: Int
  /// Members of the feature set's record that this build does not know, kept for a save.
  public var unknownFields: UnknownFields

  public init(
    features: Set<Feature>, inks: Set<InkType>, shapes: Set<ShapeType>,
    lineMarkerPositions: LineMarkerPositions, colorMaximumLinearExposure: Float = 1, contentVersion: Int,
    unknownFields: UnknownFields = UnknownFields()
  ) {
    self.features = features
    self.inks = inks
    self.shapes = shapes
    self.lineMarkerPositions = lineMarkerPositions
    self.colorMaximumLinearExposure = colorMaximumLinearExposure
    self.contentVersion = contentVersion
    self.unknownFields = unknownFields
  }

  /// Everything this build knows: every feature, ink, shape and marker position, HDR colors up to
  /// 8× SDR white (our choice: the headroom of current HDR displays), content version 4.
  public static let latest = FeatureSet(
    features: Set(Feature.allCases), inks: Set(InkType.allCases), shapes: Set(ShapeType.allCases),
    lineMarkerPositions: .both, colorMaximumLinearExposure: 8, contentVersion: newestContentVersion)

  /// The first content version: every feature, the version-1 inks (pen, pencil, marker), every shape
  /// and marker position, SDR colors.
  public static let version1 = FeatureSet(
    features: Set(Feature.allCases), inks: Set(InkType.allCases.filter { $0.requiredContentVersion == 1 }),
    shapes: Set(ShapeType.allCases), lineMarkerPositions: .both, colorMaximumLinearExposure: 1,
    contentVersion: 1)

  /// Nothing allowed: no features, inks, shapes or markers; SDR; content version 1.
  public static let empty = FeatureSet(
    features: [], inks: [], shapes: [], lineMarkerPositions: [], colorMaximumLinearExposure: 1,
    contentVersion: 1)

  public func contains(_ feature: Feature) -> Bool { features.contains(feature) }

  /// Adds `feature`; returns whether it was absent.
  @discardableResult public mutating func insert(_ feature: Feature) -> Bool {
    features.insert(feature).inserted
  }

  /// Removes `feature`; returns whether it was present.
  @discardableResult public mutating func remove(_ feature: Feature) -> Bool {
    features.remove(feature) != nil
  }

  /// Whether everything this set allows is also allowed by `other`.
  public func isSubset(of other: FeatureSet) -> Bool {
    features.isSubset(of: other.features) && inks.isSubset(of: other.inks)
      && shapes.isSubset(of: other.shapes)
      && other.lineMarkerPositions.isSuperset(of: lineMarkerPositions)
      && colorMaximumLinearExposure <= other.colorMaximumLinearExposure
      && contentVersion <= other.contentVersion
  }

  /// Whether this set allows `stroke`: drawing is a feature, the ink is allowed, and the stroke's
  /// content version is within the set's.
  public func allows(_ stroke: Stroke) -> Bool {
    contains(.drawing) && inks.contains(stroke.ink.type) && stroke.requiredContentVersion <= contentVersion
  }
}
