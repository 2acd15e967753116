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
  /// Members of the mask's record that this build does not know, kept so a save writes them back.
  public var unknownFields: UnknownFields

  public init(
    clip: [[Point]]? = nil, fillRule: FillRule = .nonZero, erasures: [EraserSweep] = [],
    unknownFields: UnknownFields = UnknownFields()
  ) {
    self.clip = clip
    self.fillRule = fillRule
    self.erasures = erasures
    self.unknownFields = unknownFields
  }

  /// Whether the mask hides nothing.
  public var isEmpty: Bool { clip == nil && erasures.isEmpty }
}

extension StrokeMask {
  /// Samples per B-spline segment that `Stroke.maskedPathRanges` tests before it bisects a change.
  public static let samplesPerSegment = 32

  /// Whether the mask leaves `point` (stroke coordinates) visible: inside the clip under the fill
  /// rule (a point on the outline counts as inside or outside by the usual half-open crossing rule)
  /// and outside every erasure.
  public func shows(_ point: Point) -> Bool {
    if let clip {
      let winding = clip.reduce(0) { $0 + Self.winding(of: point, around: $1) }
      let inside = fillRule == .nonZero ? winding != 0 : winding & 1 != 0
      guard inside else { return false }
    }
    return !erasures.contains { $0.covers(point) }
  }

  /// The winding number of `polygon` (implicitly closed) around `p`.
  static func winding(of p: Point, around polygon: [Point]) -> Int {
    guard polygon.count > 2 else { return 0 }
    var winding = 0
    var a = polygon[polygon.count - 1]
    for b in polygon {
      let cross = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
      if a.y <= p.y {
        if b.y > p.y, cross > 0 { winding += 1 }
      } else if b.y <= p.y, cross < 0 {
        winding -= 1
      }
      a = b
    }
    return winding
  }
}

extension EraserSweep {
  /// Whether the sweep covers `p`: within a tip disk, or within the tapered capsule between two
  /// consecutive centers whose radius varies linearly from one to the next.
  public func covers(_ p: Point) -> Bool {
    let count = Swift.min(centers.count, radii.count)
    guard count > 0 else { return false }
    if count == 1 { return p.distance(to: centers[0]) <= radii[0] }
    for i in 0..<(count - 1) {
      let a = centers[i]
      let d = centers[i + 1] - a
      let lengthSquared = d.x * d.x + d.y * d.y
      var s: Float = 0
      if lengthSquared > 0 {
        let v = p - a
        s = Swift.min(Swift.max((v.x * d.x + v.y * d.y) / lengthSquared, 0), 1)
      }
      let radius = radii[i] + (radii[i + 1] - radii[i]) * s
      if p.distance(to: a + d * s) <= radius { return true }
    }
    return false
  }
}
