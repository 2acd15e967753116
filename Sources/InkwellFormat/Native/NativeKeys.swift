import InkwellModel

/// The keys the native format itself uses at each level of a document. Any other key is an unknown
/// field: kept on load, written back on save, and refused as the name of a preserved field.
enum NativeKeys {
  static let document: [String] = [
    "format", "version", "contentVersion", "bounds", "featureSet", "drawing", "elements", "thumbnail",
  ]
  static let featureSet: [String] = [
    "features", "inks", "shapes", "lineMarkers", "colorMaximumLinearExposure", "contentVersion",
  ]
  static let drawingElement: [String] = ["kind", "strokes"]
  static let stroke: [String] = [
    "ink", "transform", "randomSeed", "creationDate", "mask", "fields", "points",
  ]
  static let ink: [String] = ["type", "color", "colorSpace", "exposure", "width"]
  static let mask: [String] = ["clip", "fillRule", "erasures"]
}

extension LineMarkerPositions {
  /// The names of the single positions, as the native format writes them.
  static let names = ["start", "end"]

  /// The single position named `name` (`start` or `end`).
  init?(name: String) {
    switch name {
    case "start": self = .start
    case "end": self = .end
    default: return nil
    }
  }
}
