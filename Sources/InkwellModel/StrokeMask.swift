/// Which points a set of closed polygons encloses.
public enum FillRule: String, Hashable, Sendable, CaseIterable {
  /// Points around which the polygons wind a non-zero number of times.
  case nonZero
  /// Points around which the polygons wind an odd number of times.
  case evenOdd
}

/// A path swept by an eraser tip: centers in the stroke's own coordinates and the tip's radius at
/// each, in the same units. What it covers is cut out of the stroke.
public struct EraserSweep: Hashable, Sendable {
  public var centers: [Point]
  public var radii: [Float]

  public init(centers: [Point], radii: [Float]) {
    precondition(centers.count == radii.count, "one radius per center")
    self.centers = centers
    self.radii = radii
  }

  /// A sweep of constant radius.
  public init(centers: [Point], radius: Float) {
    self.init(centers: centers, radii: Array(repeating: radius, count: centers.count))
  }
}

/// What is left visible of a stroke, in the stroke's own coordinates (before its transform).
///
/// `clip` is PencilKit's mask: closed polygons; the stroke shows only inside them (under
/// `fillRule`). `erasures` are eraser sweeps cut out after the clip, as a bitmap eraser leaves
/// them: the stroke shows where it is inside the clip and outside every sweep.
public struct StrokeMask: Hashable, Sendable {
  public var clip: [[Point]]?
  public var fillRule: FillRule
  public var erasures: [EraserSweep]

  public init(clip: [[Point]]? = nil, fillRule: FillRule = .nonZero, erasures: [EraserSweep] = []) {
    self.clip = clip
    self.fillRule = fillRule
    self.erasures = erasures
  }

  /// Whether the mask hides nothing.
  public var isEmpty: Bool { clip == nil && erasures.isEmpty }
}
