// Stroke samples: a stroke's B-spline evaluated about every 1.5 pixels, in pixel space, with the
// blended point attributes (force, tilt, roll, opacity, …) at each sample. Every ink's geometry
// starts here; an app's own brush can too.

import InkwellModel

/// One sample along a stroke: the interpolated point, its position in pixels and the arc length
/// from the start of the stroke to it, in pixels.
public struct InkSample: Hashable, Sendable {
  public var point: StrokePoint
  public var center: Point
  public var arc: Float
}

/// A stroke sampled along its path, in pixel space.
public struct StrokeSamples: Sendable {
  /// Spacing of samples along the path, in pixels: the B-spline is smooth at this scale.
  public static let spacing: Float = 1.5

  public let samples: [InkSample]
  /// The map from the stroke's own coordinates to pixels: its transform, then the view.
  public let toPixels: AffineTransform
  /// Mean scale of `toPixels`: pixels per stroke unit.
  public let scale: Float
  /// Arc length of the sampled path, in pixels.
  public var length: Float { samples.last?.arc ?? 0 }

  /// Samples `stroke` for the map `view` from drawing coordinates to pixels: enough samples per
  /// spline segment that neighbours are about `spacing` pixels apart, and none closer than a third
  /// of that (a thumbnail skips sub-pixel detail). The last point is always kept. `nil` when the
  /// stroke has no finite point or the map is degenerate.
  public init?(stroke: Stroke, view: AffineTransform) {
    let path = stroke.path
    guard !path.isEmpty else { return nil }
    let m = stroke.transform.concatenating(view)
    let scale = m.meanScale
    guard scale.isFinite, scale > 0 else { return nil }
    // The parameters first, and a sample's whole point only once its location says it is kept
    // (the location is the one the whole point has, computed the same way): on a thumbnail most
    // of a densely recorded path's parameters are skipped.
    let parameters = PenBrush.splinePoints(of: path, through: m, spacing: Self.spacing) { $0 }
    var samples: [InkSample] = []
    samples.reserveCapacity(parameters.count)
    let minimumSpacing = Self.spacing / 3
    for (index, t) in parameters.enumerated() {
      let c = m.apply(path.interpolatedLocation(at: t))
      guard c.x.isFinite, c.y.isFinite else { continue }
      var arc: Float = 0
      if let last = samples.last {
        let d = last.center.distance(to: c)
        if d < minimumSpacing && index != parameters.count - 1 { continue }
        // A last point on top of the one before adds nothing.
        if d < 1e-4 { continue }
        arc = last.arc + d
      }
      samples.append(InkSample(point: path.interpolatedPoint(at: t), center: c, arc: arc))
    }
    guard !samples.isEmpty else { return nil }
    self.samples = samples
    self.toPixels = m
    self.scale = scale
  }

  /// The tip size the ink gives a point: its recorded size, or the ink's width where a side is
  /// missing, zero or not finite, in stroke units.
  public static func tipSize(_ p: StrokePoint, ink: Ink) -> Size {
    func side(_ v: Float) -> Float { v.isFinite && v > 0 ? v : ink.width }
    return Size(width: side(p.size.width), height: side(p.size.height))
  }

  /// Force clamped into 0…1 (1 where it is not finite).
  public static func force(_ p: StrokePoint) -> Float {
    p.force.isFinite ? Swift.min(Swift.max(p.force, 0), 1) : 1
  }

  /// Opacity clamped into 0…2 (1 where it is not finite).
  public static func opacity(_ p: StrokePoint) -> Float {
    opacity(value: p.opacity)
  }

  /// `opacity(_:)` of a point whose opacity is `value`.
  @inline(__always)
  static func opacity(value: Float) -> Float {
    value.isFinite ? Swift.min(Swift.max(value, 0), 2) : 1
  }

  /// Tilt: 0 for an upright pen (altitude π/2), 1 lying flat (altitude 0).
  public static func tilt(_ p: StrokePoint) -> Float {
    let a = p.altitude.isFinite ? Swift.min(Swift.max(p.altitude, 0), .pi / 2) : .pi / 2
    return 1 - a / (.pi / 2)
  }
}

/// Seeded 1-D noise along a stroke, for wobbling edges: smooth values in −1…1 at arc length `s`
/// (any unit; one lattice cell per unit), from the stroke's seed and a channel number.
func strokeNoise(_ s: Float, seed: UInt32, channel: UInt32) -> Float {
  2 * PaintReference.valueNoise(s, Float(channel) * 7.13, seed: seed &+ channel &* 0x68E3_1DA4) - 1
}

/// The stroke's alpha along its spine as a paint profile, or `nil` when it is constant within half
/// an 8-bit level (then the caller folds `constant` into the color).
func alphaProfile(_ samples: [InkSample], alphas: [Float], reach: Float) -> (AlphaProfile?, constant: Float) {
  let lo = alphas.min() ?? 1
  let hi = alphas.max() ?? 1
  if hi - lo < 1 / 512 { return (nil, (lo + hi) / 2) }
  let top = Swift.max(hi, 1e-6)
  return (
    AlphaProfile(points: samples.map(\.center), alphas: alphas.map { $0 / top }, reach: reach), top
  )
}
