// stamp: the example of an app's own ink, built only on public API (StrokeSamples, PenBrush,
// Paint's CustomShader), as an embedding app would write it.
//
// Geometry: the round outline the stamps can fall in (radius half the point's width). Shading: a
// five-pointed star every 1.1 widths along the stroke, rotated by the pen's roll angle at that
// point; the shader reads each pixel's position, finds the nearest stamp center, turns the offset
// into the stamp's frame and keeps the coverage where the pixel is inside the star, with a
// one-pixel anti-aliased edge: m' = m · clamp(r(θ) − |q| + 0.5, 0, 1), r(θ) the star's radius in
// the pixel's direction. Color, width and opacity are the ink's standard ones.

import InkwellModel

/// A custom ink that stamps stars along the stroke, rotated by the pen's roll.
public struct StampInk: Brush {
  /// Distance between stamps, in point widths.
  public var spacing: Float

  public init(spacing: Float = 1.1) {
    self.spacing = spacing
  }

  public func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
    guard let s = StrokeSamples(stroke: stroke, view: view) else { return [] }
    let radii = s.samples.map { 0.5 * StrokeSamples.tipSize($0.point, ink: stroke.ink).width * s.scale }
    guard let largest = radii.max(), largest > 0.5, largest.isFinite else { return [] }
    // Stamp centers, angles and radii, every `spacing` widths of arc.
    var xs: [Float] = []
    var ys: [Float] = []
    var angles: [Float] = []
    var sizes: [Float] = []
    var next: Float = 0
    for (sample, radius) in zip(s.samples, radii) where sample.arc >= next {
      xs.append(sample.center.x)
      ys.append(sample.center.y)
      angles.append(sample.point.rollAngle.isFinite ? sample.point.rollAngle : 0)
      sizes.append(radius)
      next = sample.arc + spacing * 2 * radius
    }
    let count = xs.count
    let (stampX, stampY, stampAngle, stampSize) = (xs, ys, angles, sizes)
    let shader = CustomShader(name: "stamp", parameters: [spacing] + xs + ys + angles + sizes) { tile in
      for y in 0..<tile.size {
        for x in 0..<tile.size {
          let i = tile.index(x: x, y: y)
          let m = tile.coverage[i]
          guard m > 0 else { continue }
          let p = tile.center(x: x, y: y)
          var best = Float.infinity
          var k = 0
          for j in 0..<count {
            let dx = p.x - stampX[j]
            let dy = p.y - stampY[j]
            let d = dx * dx + dy * dy
            if d < best {
              best = d
              k = j
            }
          }
          let qx = p.x - stampX[k]
          let qy = p.y - stampY[k]
          let distance = best.squareRoot()
          let theta = FloatMath.atan2(qy, qx) - stampAngle[k]
          // A five-pointed star: radius between 0.45 and 1 of the stamp's, peaking 5 times a turn.
          let lobe = 0.5 + 0.5 * FloatMath.cos(5 * theta)
          let r = stampSize[k] * (0.45 + 0.55 * lobe * lobe)
          let inside = Swift.min(Swift.max(r - distance + 0.5, 0), 1)
          tile.coverage[i] = m * inside
        }
      }
    }
    let discs = zip(s.samples, radii).map { PenSample(center: $0.center, radius: $1 + 1) }
    let path = FlatPath(contours: [PenBrush.outline(of: discs)])
    let color = LinearColor(stroke.ink.color, opacity: StrokeSamples.opacity(s.samples[0].point))
    guard color.alpha > 0 else { return [] }
    return [Primitive(path: path, rule: .nonZero, color: color, paint: Paint(shader: shader))]
  }
}
