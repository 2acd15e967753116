// Build: each element of a document becomes primitives in pixel space.
//
// A primitive is a flattened path (closed polygons), a fill rule and a premultiplied linear-light
// color. Brushes produce outlines whose non-zero fill is exactly the area the brush sweeps, so a
// stroke is one primitive and is composited once: a translucent stroke never darkens where it
// crosses itself.

import InkwellModel

/// Closed polygons in pixel space: every contour's vertices back to back in `points`, each contour
/// closed implicitly. Where each contour but the last ends is kept apart; the last ends with
/// `points`. A path of one contour (every pen stroke's outline) so holds a single array.
public struct FlatPath: Hashable, Sendable {
  public private(set) var points: [Point] = []
  /// One past the last vertex of each contour but the last.
  private var innerEnds: [Int] = []

  public init() {}

  public init(contours: [[Point]]) {
    for contour in contours { append(contour: contour) }
  }

  /// One contour; empty if it has fewer than two vertices.
  public init(contour: [Point]) {
    if contour.count >= 2 { points = contour }
  }

  public mutating func append(contour: [Point]) {
    guard contour.count >= 2 else { return }
    if !points.isEmpty { innerEnds.append(points.count) }
    points.append(contentsOf: contour)
  }

  public var isEmpty: Bool { points.isEmpty }

  public var contourCount: Int { points.isEmpty ? 0 : innerEnds.count + 1 }

  /// One past the last vertex of each contour: `contourEnds[i]` for contour `i`.
  public var contourEnds: [Int] { points.isEmpty ? [] : innerEnds + [points.count] }

  /// Bounds of every vertex, or `nil` for an empty path.
  public var bounds: Rect? { Rect(bounding: points) }

  /// Calls `body` with each contour's vertices.
  public func forEachContour(_ body: (ArraySlice<Point>) -> Void) {
    // One call of `body`, which the binner's long closure needs to be inlined.
    var start = 0
    for contour in 0..<contourCount {
      let end = contour < innerEnds.count ? innerEnds[contour] : points.count
      body(points[start..<end])
      start = end
    }
  }
}

/// A color in linear light, premultiplied by its alpha: what the compositor blends.
public struct LinearColor: Hashable, Sendable {
  public var red: Float
  public var green: Float
  public var blue: Float
  public var alpha: Float

  public init(red: Float, green: Float, blue: Float, alpha: Float) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The straight-alpha `color`, decoded to linear light in the sRGB primaries (the working
  /// space), its linear exposure applied (values above 1 kept) and premultiplied, with its alpha
  /// multiplied by `opacity` (capped at 1).
  public init(_ color: Color, opacity: Float = 1) {
    let a = Swift.min(Swift.max(color.alpha * opacity, 0), 1)
    let c = color.linearComponents(in: .sRGB)
    self.init(red: c.red * a, green: c.green * a, blue: c.blue * a, alpha: a)
  }

  public static let clear = LinearColor(red: 0, green: 0, blue: 0, alpha: 0)

  var components: (Float, Float, Float, Float) { (red, green, blue, alpha) }
}

/// A path and the rule that decides its inside, used to limit where a fill shows.
public struct ClipPath: Hashable, Sendable {
  public var path: FlatPath
  public var rule: FillRule

  public init(path: FlatPath, rule: FillRule) {
    self.path = path
    self.rule = rule
  }
}

/// One fill: polygons, the rule that decides their inside, and the color painted there;
/// optionally shown only inside `clip` and never inside `knockout`, and shaded per pixel by `paint`.
///
/// Coverage combines per pixel as m = fill · clip · (1 − knockout), each an exact-area coverage,
/// then `paint` maps m → m' (see Paint.swift), then the color is composited once through m'.
///
/// The clip, the knockout and the paint, which most primitives (every pen stroke) leave unset,
/// are held behind one reference, `nil` when all three are: a primitive is then its path, rule and
/// color, and copying it retains three references instead of the sixteen that the paint's and the
/// masks' arrays, strings and closures held inline.
public struct Primitive: Hashable, Sendable {
  public var path: FlatPath
  public var rule: FillRule
  public var color: LinearColor
  private var extras: PrimitiveExtras?

  public init(
    path: FlatPath, rule: FillRule = .nonZero, color: LinearColor, clip: ClipPath? = nil,
    knockout: FlatPath? = nil, paint: Paint = .solid
  ) {
    self.path = path
    self.rule = rule
    self.color = color
    extras = PrimitiveExtras.make(clip: clip, knockout: knockout, paint: paint)
  }

  /// A fill of `path` in `color` with no clip, no knockout and no paint stage.
  init(path: FlatPath, rule: FillRule, color: LinearColor) {
    self.path = path
    self.rule = rule
    self.color = color
    extras = nil
  }

  /// Where the fill may show; `nil` for everywhere.
  public var clip: ClipPath? {
    get { extras?.clip }
    set { extras = PrimitiveExtras.make(clip: newValue, knockout: knockout, paint: paint) }
  }

  /// Where the fill is cut away (its non-zero area); `nil` for nowhere.
  public var knockout: FlatPath? {
    get { extras?.knockout }
    set { extras = PrimitiveExtras.make(clip: clip, knockout: newValue, paint: paint) }
  }

  /// Per-pixel shading of the coverage; `.solid` for none.
  public var paint: Paint {
    get { extras?.paint ?? .solid }
    set { extras = PrimitiveExtras.make(clip: clip, knockout: knockout, paint: newValue) }
  }

  /// 1 when the primitive has a clip, 2 a knockout, 4 a paint stage or a blend other than
  /// source-over; 0 for a plain fill. Read without copying the clip, knockout or paint.
  var maskBits: UInt8 { extras?.bits ?? 0 }

  /// The clip's fill rule, `nil` without a clip.
  var clipRule: FillRule? { extras?.clip?.rule }
}

/// A primitive's clip, knockout and paint, never changed once made (a primitive's setters make a
/// new one), so copies of a primitive may share it.
private final class PrimitiveExtras: Hashable, Sendable {
  let clip: ClipPath?
  let knockout: FlatPath?
  let paint: Paint
  /// `Primitive.maskBits`.
  let bits: UInt8

  private init(clip: ClipPath?, knockout: FlatPath?, paint: Paint) {
    self.clip = clip
    self.knockout = knockout
    self.paint = paint
    let painted = !paint.isSolid || paint.blend == .multiply
    bits = (clip != nil ? 1 : 0) | (knockout != nil ? 2 : 0) | (painted ? 4 : 0)
  }

  /// `nil` when none is set, so that equal primitives hold equal extras.
  static func make(clip: ClipPath?, knockout: FlatPath?, paint: Paint) -> PrimitiveExtras? {
    clip == nil && knockout == nil && paint == .solid
      ? nil : PrimitiveExtras(clip: clip, knockout: knockout, paint: paint)
  }

  static func == (a: PrimitiveExtras, b: PrimitiveExtras) -> Bool {
    a === b || (a.clip == b.clip && a.knockout == b.knockout && a.paint == b.paint)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(clip)
    hasher.combine(knockout)
    hasher.combine(paint)
  }
}
