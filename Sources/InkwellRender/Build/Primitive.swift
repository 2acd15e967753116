// Build: each element of a document becomes primitives in pixel space.
//
// A primitive is a flattened path (closed polygons), a fill rule and a premultiplied linear-light
// color. Brushes produce outlines whose non-zero fill is exactly the area the brush sweeps, so a
// stroke is one primitive and is composited once: a translucent stroke never darkens where it
// crosses itself.

import InkwellModel

/// Closed polygons in pixel space. `points` holds every contour's vertices back to back;
/// `contourEnds[i]` is one past the last vertex of contour `i`. Each contour closes implicitly.
public struct FlatPath: Hashable, Sendable {
  public var points: [Point] = []
  public var contourEnds: [Int] = []

  public init() {}

  public init(contours: [[Point]]) {
    for contour in contours { append(contour: contour) }
  }

  public mutating func append(contour: [Point]) {
    guard contour.count >= 2 else { return }
    points.append(contentsOf: contour)
    contourEnds.append(points.count)
  }

  public var isEmpty: Bool { contourEnds.isEmpty }

  /// Bounds of every vertex, or `nil` for an empty path.
  public var bounds: Rect? { Rect(bounding: points) }

  /// Calls `body` with each contour's vertices.
  public func forEachContour(_ body: (ArraySlice<Point>) -> Void) {
    var start = 0
    for end in contourEnds {
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
public struct Primitive: Hashable, Sendable {
  public var path: FlatPath
  public var rule: FillRule
  public var color: LinearColor
  /// Where the fill may show; `nil` for everywhere.
  public var clip: ClipPath?
  /// Where the fill is cut away (its non-zero area); `nil` for nowhere.
  public var knockout: FlatPath?
  /// Per-pixel shading of the coverage; `.solid` for none.
  public var paint: Paint

  public init(
    path: FlatPath, rule: FillRule = .nonZero, color: LinearColor, clip: ClipPath? = nil,
    knockout: FlatPath? = nil, paint: Paint = .solid
  ) {
    self.path = path
    self.rule = rule
    self.color = color
    self.clip = clip
    self.knockout = knockout
    self.paint = paint
  }
}
