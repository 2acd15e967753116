// Paint: what an ink does to a primitive's coverage, per pixel, before the color is composited.
//
// Geometry (Build/) decides where an ink can show; paint decides how much of it shows at each
// pixel. It is a fixed list of optional stages, applied in this order to the coverage mask m
// (exact area, after clip and knockout), each a map m → m':
//
//   profile    m' = m · α(nearest point of the stroke's spine)   per-point force and opacity
//   grain      m' = clamp((m − bite·(1 − n))·gain) · (1 − depth·(1 − n))   paper tooth, n: noise
//   shader     whatever an app's custom ink computes from pixel position and coverage
//   threshold  m' = max(m − t, 0) / (1 − t)                        the reed's crisp, breaking edge
//              (t constant, or along the spine like the profile where the points' t varies)
//
// and the primitive's one color is then composited once through m', source-over or (`blend`)
// multiply. Color never
// varies inside a primitive, so every stage is a scalar mask operation; the kernels live in
// shaders-cpu/inks.c with scalar twins in PaintReference.swift.
//
// Why an alpha profile rather than splitting a stroke into pieces of different alpha: pieces
// either overlap at their joints (a translucent ink darkens there: visible beads every sample) or
// abut along cuts that a curved stroke's other parts cross. Evaluating the spine's alpha at the
// nearest spine point per pixel has neither seam; it costs a nearest-segment search per covered
// pixel over the segments near the tile (a few dozen for handwriting), and strokes whose alpha is
// constant skip it (the constant goes into the color). Measured (release, one thread, the BDALab
// handwriting at scale 8, 3424 × 1784, whole `inkwell render` including PNG encoding): pen 1.19 s,
// monoline 0.99 s, marker 0.91 s, reed 0.89 s, fountain pen 0.72 s, pencil (profile + grain)
// 0.82 s, crayon 0.73 s, watercolor (two primitives, grain) 0.74 s: the paint stages are not
// where the time goes.

import InkwellModel

/// Per-pixel paint of a primitive: optional stages applied to its coverage before compositing.
public struct Paint: Hashable, Sendable {
  /// Alpha along the stroke's spine, multiplied into the coverage.
  public var profile: AlphaProfile?
  /// Seeded paper grain.
  public var grain: Grain?
  /// An app's own per-pixel shading.
  public var shader: CustomShader?
  /// Coverage at or below this is not drawn; above it is remapped to 0…1. 0 changes nothing.
  public var threshold: Float
  /// A threshold that varies along the stroke's spine (its values are thresholds, not alphas);
  /// when set it replaces `threshold`.
  public var thresholdProfile: AlphaProfile?
  /// How the color meets what is below it.
  public var blend: Blend

  public init(
    profile: AlphaProfile? = nil, grain: Grain? = nil, shader: CustomShader? = nil, threshold: Float = 0,
    blend: Blend = .sourceOver, thresholdProfile: AlphaProfile? = nil
  ) {
    self.thresholdProfile = thresholdProfile
    self.profile = profile
    self.grain = grain
    self.shader = shader
    self.threshold = threshold
    self.blend = blend
  }

  /// No stage: the coverage is composited as it is.
  public static let solid = Paint()

  /// Whether no stage changes the coverage.
  @inline(__always)
  public var isSolid: Bool {
    profile == nil && grain == nil && shader == nil && !(threshold > 0) && thresholdProfile == nil
      && blend == .sourceOver
  }
}

/// How a primitive's color is composited (premultiplied, S source through its coverage, D below).
public enum Blend: Hashable, Sendable {
  /// Dc' = Sc + Dc·(1 − Sa).
  case sourceOver
  /// Dc' = Sc·(1 − Da) + Dc·(1 − Sa) + Sc·Dc: the color filters what is below, like dye.
  case multiply
}

/// Alpha along a polyline in pixel space: each vertex carries an alpha multiplier, interpolated
/// along each segment. A pixel takes the alpha of the nearest point of the polyline.
public struct AlphaProfile: Hashable, Sendable {
  public var points: [Point] {
    didSet { runBounds = Self.runBounds(of: points) }
  }
  public var alphas: [Float]
  /// How far from the polyline the primitive reaches, in pixels (half the widest nib, plus
  /// anti-aliasing): segments farther than this from a tile cannot be the nearest to its pixels.
  public var reach: Float
  /// The bounds of each run of `segmentsPerRun` segments (points 16r … 16r + 16): low x, low y,
  /// high x, high y, unbounded where a coordinate is not a number; empty for a stroke of at most
  /// 64 segments. A tile's search for nearby segments passes over the runs that miss it: a long
  /// stroke reaches few of a page's tiles, and every tile it reached had tested each of its
  /// segments (the mypaint example in pencil at scale 2: 489 → 455 M instructions).
  private(set) var runBounds: [Float]

  /// Segments a run of `runBounds` covers.
  static let segmentsPerRun = 16

  public init(points: [Point], alphas: [Float], reach: Float) {
    precondition(points.count == alphas.count, "one alpha per point")
    self.points = points
    self.alphas = alphas
    self.reach = reach
    self.runBounds = Self.runBounds(of: points)
  }

  private static func runBounds(of points: [Point]) -> [Float] {
    // A short stroke's segments are tested one by one (a thumbnail's strokes reach few tiles).
    guard points.count > 4 * segmentsPerRun else { return [] }
    let segments = points.count - 1
    let runs = (segments + segmentsPerRun - 1) / segmentsPerRun
    return points.withUnsafeBufferPointer { points in
      [Float](unsafeUninitializedCapacity: 4 * runs) { bounds, initialized in
        for run in 0..<runs {
          let first = run * segmentsPerRun
          let last = Swift.min(first + segmentsPerRun, segments)
          var low = points[first]
          var high = low
          var unordered = false
          for k in first...last {
            let p = points[k]
            unordered = unordered || p.x.isNaN || p.y.isNaN
            low.x = p.x < low.x ? p.x : low.x
            low.y = p.y < low.y ? p.y : low.y
            high.x = p.x > high.x ? p.x : high.x
            high.y = p.y > high.y ? p.y : high.y
          }
          bounds[4 * run] = unordered ? -.infinity : low.x
          bounds[4 * run + 1] = unordered ? -.infinity : low.y
          bounds[4 * run + 2] = unordered ? .infinity : high.x
          bounds[4 * run + 3] = unordered ? .infinity : high.y
        }
        initialized = 4 * runs
      }
    }
  }
}

/// Seeded grain: value noise on a lattice fixed to the stroke's own coordinates.
public struct Grain: Hashable, Sendable {
  /// Maps pixel centers to lattice coordinates (one unit = one grain cell).
  public var latticeFromPixel: AffineTransform
  public var seed: UInt32
  /// How much thin coverage the grain eats (0…1): high values break up the edges.
  public var bite: Float
  /// How much the grain shades fully covered pixels (0…1).
  public var depth: Float
  /// Frequency of the second octave relative to the first.
  public var octave: Float
  /// Weight of the second octave, 0…1.
  public var octaveWeight: Float
  /// Stretch of the noise around ½ before it is used (1 leaves it as it is).
  public var contrast: Float
  /// Multiplier of the bitten coverage, so that the interior stays solid where the tooth is high.
  public var gain: Float

  public init(
    latticeFromPixel: AffineTransform, seed: UInt32, bite: Float, depth: Float, octave: Float = 2.31,
    octaveWeight: Float = 0.4, contrast: Float = 1, gain: Float = 1
  ) {
    self.contrast = contrast
    self.gain = gain
    self.latticeFromPixel = latticeFromPixel
    self.seed = seed
    self.bite = bite
    self.depth = depth
    self.octave = octave
    self.octaveWeight = octaveWeight
  }

  var parameters: [Float] { [bite, depth, octave, octaveWeight, contrast, gain] }
  var matrix: [Float] {
    let m = latticeFromPixel
    return [m.a, m.b, m.c, m.d, m.tx, m.ty]
  }
}

/// One tile's coverage as a custom shader sees it.
public struct PaintTile {
  /// Pixel coordinates of the tile's top-left pixel in the image.
  public let originX: Int
  public let originY: Int
  /// Side of the (square) tile in pixels; pixels outside the image are present and ignored.
  public let size: Int
  /// Coverage, `size × size` values in 0…1, in the rasterizer's column-major tile layout (pixel
  /// (x, y) at `index(x:y:)`): read it, and write the shaded coverage back.
  public let coverage: UnsafeMutableBufferPointer<Float>

  /// Where pixel (x, y) of the tile is in `coverage`.
  @inlinable public func index(x: Int, y: Int) -> Int { x * size + y }

  /// The center of the tile's pixel (x, y), in image pixels.
  public func center(x: Int, y: Int) -> Point {
    Point(x: Float(originX + x) + 0.5, y: Float(originY + y) + 0.5)
  }
}

/// An app's per-pixel shading: called for every tile the primitive touches, on the thread that
/// renders the tile, it maps the coverage in place. It must be a pure function of pixel position,
/// coverage and its own captured values (never of time, thread or call order), which keeps the
/// output identical on any thread count.
///
/// Two shaders compare equal when their names and parameters do; the closure is not compared.
public struct CustomShader: Hashable, Sendable {
  public var name: String
  public var parameters: [Float]
  public var shade: @Sendable (PaintTile) -> Void

  public init(name: String, parameters: [Float] = [], shade: @escaping @Sendable (PaintTile) -> Void) {
    self.name = name
    self.parameters = parameters
    self.shade = shade
  }

  public static func == (a: CustomShader, b: CustomShader) -> Bool {
    a.name == b.name && a.parameters == b.parameters
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(parameters)
  }
}
