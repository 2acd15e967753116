// Helpers shared by the built-in inks.

import InkwellModel

extension AffineTransform {
  /// The inverse map, or `nil` when this one is singular.
  public var inverted: AffineTransform? {
    let det = a * d - b * c
    guard det != 0, det.isFinite else { return nil }
    let ia = d / det
    let ib = -b / det
    let ic = -c / det
    let id = a / det
    return AffineTransform(
      a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
  }
}

enum InkSupport {
  /// A primitive of `ink`'s color at `alpha` × the color's own alpha, or `nil` when it draws
  /// nothing.
  static func primitive(_ contours: [[Point]], color: Color, alpha: Float, paint: Paint = .solid)
    -> Primitive?
  {
    let path = FlatPath(contours: contours)
    guard !path.isEmpty, alpha > 0 else { return nil }
    let linear = LinearColor(color, opacity: alpha)
    guard linear.alpha > 0 else { return nil }
    return Primitive(path: path, rule: .nonZero, color: linear, paint: paint)
  }

  /// Grain on a lattice of `cell` stroke units fixed to the stroke's own coordinates.
  static func grain(
    _ samples: StrokeSamples, seed: UInt32, cell: Float, bite: Float, depth: Float, octave: Float = 2.31,
    octaveWeight: Float = 0.4, contrast: Float = 1, gain: Float = 1
  ) -> Grain? {
    guard let strokeFromPixel = samples.toPixels.inverted, cell > 0 else { return nil }
    let latticeFromPixel = strokeFromPixel.concatenating(AffineTransform(scaleX: 1 / cell, y: 1 / cell))
    return Grain(
      latticeFromPixel: latticeFromPixel, seed: seed, bite: bite, depth: depth, octave: octave,
      octaveWeight: octaveWeight, contrast: contrast, gain: gain)
  }

  /// The outline `nib`'s shapes sweep, one a stroke sample (`NibSweep.outline(of:)`), the nibs
  /// laid end to end in one buffer: an array a sample, and its mapped copy, had been a fifth of a
  /// pencil thumbnail's build.
  static func sweep(_ samples: StrokeSamples, nib: (InkSample) -> NibShape) -> [Point] {
    let m = samples.toPixels
    let n = samples.samples.count
    var starts = [Int](repeating: 0, count: n + 1)
    let vertices = [Point](unsafeUninitializedCapacity: n * NibShape.largestVertexCount) {
      buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      var count = 0
      for (i, sample) in samples.samples.enumerated() {
        count += nib(sample).write(through: m, to: base + count)
        starts[i + 1] = count
      }
      initialized = count
    }
    return NibSweep.outline(centers: samples.samples.map(\.center), vertices: vertices, starts: starts)
  }
}
