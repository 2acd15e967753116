import InkwellModel

/// A column of a stroke's `points` rows in the native format: its name, default and allowed range.
public enum PointField: String, CaseIterable, Hashable, Sendable {
  /// Location x, document units.
  case x
  /// Location y, document units (down).
  case y
  /// `timeOffset`, seconds since the stroke began.
  case t
  /// Tip width, document units, >= 0; defaults to the ink's width.
  case width
  /// Tip height, document units, >= 0; defaults to the ink's width.
  case height
  /// Opacity multiplier, 0...2 (>= 0 is enforced, the renderer clamps above), default 1.
  case opacity
  /// Normalized pressure, 0...1 (>= 0 is enforced, the renderer clamps above), default 1.
  case force
  /// Radians clockwise from +x, default 0.
  case azimuth
  /// Radians from the surface, 0...pi/2 (>= 0 is enforced, the renderer clamps above), default pi/2.
  case altitude
  /// Barrel roll, radians, default 0.
  case roll
  /// Second size multiplier (watercolor spread), >= 0, default 1. Format version 2.
  case secondaryScale
  /// Alpha cut-off of soft-edged inks (reed), 0...1 (>= 0 is enforced), default 0. Format version 2.
  case threshold
  /// Sideways edge wander (pencil), document units, >= 0, default 0. Format version 2.
  case lateralJitter

  /// Whether every stroke must list the field.
  public var isRequired: Bool { self == .x || self == .y }

  /// The first native format version with this column.
  public var formatVersion: Int {
    switch self {
    case .secondaryScale, .threshold, .lateralJitter: return 2
    default: return 1
    }
  }

  /// The value a point takes when the field is absent, for a stroke drawn with `ink`.
  public func defaultValue(for ink: Ink) -> Float {
    switch self {
    case .x, .y, .t, .azimuth, .roll, .threshold, .lateralJitter: return 0
    case .width, .height: return ink.width
    case .opacity, .force, .secondaryScale: return 1
    case .altitude: return .pi / 2
    }
  }

  /// Whether the field must not be negative.
  public var isNonNegative: Bool {
    switch self {
    case .width, .height, .opacity, .force, .altitude, .secondaryScale, .threshold, .lateralJitter:
      return true
    case .x, .y, .t, .azimuth, .roll: return false
    }
  }

  /// The field's value in `point`.
  public func value(in point: StrokePoint) -> Float {
    switch self {
    case .x: return point.location.x
    case .y: return point.location.y
    case .t: return point.timeOffset
    case .width: return point.size.width
    case .height: return point.size.height
    case .opacity: return point.opacity
    case .force: return point.force
    case .azimuth: return point.azimuth
    case .altitude: return point.altitude
    case .roll: return point.rollAngle
    case .secondaryScale: return point.secondaryScale
    case .threshold: return point.threshold
    case .lateralJitter: return point.lateralJitter
    }
  }

  /// Sets the field's value in `point`.
  public func set(_ value: Float, in point: inout StrokePoint) {
    switch self {
    case .x: point.location.x = value
    case .y: point.location.y = value
    case .t: point.timeOffset = value
    case .width: point.size.width = value
    case .height: point.size.height = value
    case .opacity: point.opacity = value
    case .force: point.force = value
    case .azimuth: point.azimuth = value
    case .altitude: point.altitude = value
    case .roll: point.rollAngle = value
    case .secondaryScale: point.secondaryScale = value
    case .threshold: point.threshold = value
    case .lateralJitter: point.lateralJitter = value
    }
  }
}
