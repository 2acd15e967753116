/// One sample of a pen's state along a stroke, as PencilKit's `PKStrokePoint` records it.
///
/// Every attribute is `Float`, the precision the document format stores. Ranges and defaults are
/// documented in `docs/format.md`; the renderer clamps out-of-range values rather than trapping.
public struct StrokePoint: Hashable, Sendable {
  /// Position in the stroke's own coordinates (before `Stroke.transform`), document units.
  public var location: Point
  /// Seconds since the stroke began.
  public var timeOffset: Float
  /// Size of the pen tip at this point, document units (width across, height along the nib).
  public var size: Size
  /// Opacity multiplier, 0…2. Effective alpha is the ink's alpha × opacity, capped at 1.
  public var opacity: Float
  /// Normalized pressure, 0…1: 0 barely touching, 1 full pressure.
  public var force: Float
  /// Direction the pen points to, in the plane, radians clockwise from the +x axis.
  public var azimuth: Float
  /// Angle between the pen and the surface, radians: π/2 upright, towards 0 lying flat.
  public var altitude: Float
  /// Barrel roll of the pen around its own axis, radians.
  public var rollAngle: Float
  /// A second size multiplier some inks read (watercolor: how far pigment spreads), ≥ 0.
  public var secondaryScale: Float
  /// Alpha at or below which an ink with a soft edge draws nothing (reed), 0…1.
  public var threshold: Float
  /// How far the edge may wander sideways (pencil), in document units, ≥ 0.
  public var lateralJitter: Float

  public init(
    location: Point, timeOffset: Float = 0, size: Size, opacity: Float = 1, force: Float = 1,
    azimuth: Float = 0, altitude: Float = .pi / 2, rollAngle: Float = 0, secondaryScale: Float = 1,
    threshold: Float = 0, lateralJitter: Float = 0
  ) {
    self.location = location
    self.timeOffset = timeOffset
    self.size = size
    self.opacity = opacity
    self.force = force
    self.azimuth = azimuth
    self.altitude = altitude
    self.rollAngle = rollAngle
    self.secondaryScale = secondaryScale
    self.threshold = threshold
    self.lateralJitter = lateralJitter
  }
}
