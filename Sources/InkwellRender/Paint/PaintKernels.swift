// The paint kernels the rasterizer calls, and how a primitive's paint is applied to one tile.

import InkwellKernels
import InkwellModel

/// The paint stage kernels, so tests can swap in the scalar reference.
public struct PaintKernels: Sendable {
  public var grain:
    @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, UInt32, UnsafePointer<Float>) ->
      Void
  public var threshold: @Sendable (UnsafeMutablePointer<Float>, Float, Float) -> Void
  public var profile: @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, Int) -> Void
  public var thresholdProfile:
    @Sendable (UnsafeMutablePointer<Float>, Int, Int, UnsafePointer<Float>, Int) -> Void
  public var compositeMultiply:
    @Sendable (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void

  /// The C kernels in `shaders-cpu/inks.c`.
  public static let native = PaintKernels(
    grain: { inkwell_paint_grain($0, Int32($1), Int32($2), $3, $4, $5) },
    threshold: { inkwell_paint_threshold($0, $1, $2) },
    profile: { inkwell_paint_profile($0, Int32($1), Int32($2), $3, Int32($4)) },
    thresholdProfile: { inkwell_paint_threshold_profile($0, Int32($1), Int32($2), $3, Int32($4)) },
    compositeMultiply: { inkwell_composite_multiply($0, $1, $2) })

  /// The scalar Swift twins.
  public static let reference = PaintKernels(
    grain: { PaintReference.grain(coverage: $0, x0: $1, y0: $2, matrix: $3, seed: $4, parameters: $5) },
    threshold: { PaintReference.threshold(coverage: $0, threshold: $1, inverseSpan: $2) },
    profile: { PaintReference.profile(coverage: $0, x0: $1, y0: $2, segments: $3, count: $4) },
    thresholdProfile: {
      PaintReference.thresholdProfile(coverage: $0, x0: $1, y0: $2, segments: $3, count: $4)
    },
    compositeMultiply: { PaintReference.compositeMultiply(tile: $0, coverage: $1, color: $2) })

  /// Applies `paint`'s stages, in order, to the coverage of the tile whose top-left pixel is
  /// (x0, y0). `segments` is scratch space for the profile's nearby segments.
  public func apply(
    _ paint: Paint, coverage: UnsafeMutablePointer<Float>, x0: Int, y0: Int, segments: inout [Float]
  ) {
    let size = Int(INKWELL_TILE)
    if let profile = paint.profile {
      nearbySegments(profile, x0: x0, y0: y0, size: size, into: &segments)
      let count = segments.count / 6
      segments.withUnsafeBufferPointer { self.profile(coverage, x0, y0, $0.baseAddress!, count) }
    }
    if let grain = paint.grain {
      let matrix = grain.matrix
      let parameters = grain.parameters
      self.grain(coverage, x0, y0, matrix, grain.seed, parameters)
    }
    if let shader = paint.shader {
      shader.shade(
        PaintTile(
          originX: x0, originY: y0, size: size,
          coverage: UnsafeMutableBufferPointer(start: coverage, count: size * size)))
    }
    if let profile = paint.thresholdProfile {
      nearbySegments(profile, x0: x0, y0: y0, size: size, into: &segments)
      let count = segments.count / 6
      segments.withUnsafeBufferPointer { self.thresholdProfile(coverage, x0, y0, $0.baseAddress!, count) }
    } else if paint.threshold > 0 {
      let t = Swift.min(paint.threshold, 1)
      threshold(coverage, t, t < 1 ? 1 / (1 - t) : 0)
    }
  }

  /// The profile's segments that come within its reach of the tile, as 6 floats each; every segment
  /// when none does (then the tile's coverage comes from afar and the nearest is searched anyway).
  func nearbySegments(_ profile: AlphaProfile, x0: Int, y0: Int, size: Int, into out: inout [Float]) {
    out.removeAll(keepingCapacity: true)
    let p = profile.points
    let a = profile.alphas
    guard !p.isEmpty else {
      out.append(contentsOf: [0, 0, 1, 0, 0, 1])
      return
    }
    if p.count == 1 {
      out.append(contentsOf: [p[0].x, p[0].y, a[0], p[0].x, p[0].y, a[0]])
      return
    }
    let reach = profile.reach + 1
    let minX = Float(x0) - reach
    let minY = Float(y0) - reach
    let maxX = Float(x0 + size) + reach
    let maxY = Float(y0 + size) + reach
    for k in 0..<(p.count - 1) {
      let s = p[k]
      let e = p[k + 1]
      if Swift.max(s.x, e.x) < minX || Swift.min(s.x, e.x) > maxX || Swift.max(s.y, e.y) < minY
        || Swift.min(s.y, e.y) > maxY
      {
        continue
      }
      out.append(contentsOf: [s.x, s.y, a[k], e.x, e.y, a[k + 1]])
    }
    if out.isEmpty {
      for k in 0..<(p.count - 1) {
        out.append(contentsOf: [p[k].x, p[k].y, a[k], p[k + 1].x, p[k + 1].y, a[k + 1]])
      }
    }
  }
}
