// Geometry: the plane the model lives in.
//
// Coordinates are `Float` (32-bit): the precision the document format stores, ample for pages of
// tens of thousands of units, and half the memory traffic of `Double` in the hot paths that follow.
// The y axis points down, as in PencilKit and every raster format.

/// A location in document or pixel space.
public struct Point: Hashable, Sendable {
  public var x: Float
  public var y: Float

  @inlinable public init(x: Float, y: Float) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)

  @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  @inlinable public static func * (a: Point, s: Float) -> Point { Point(x: a.x * s, y: a.y * s) }

  /// Euclidean length of the vector from the origin to this point.
  @inlinable public var length: Float { (x * x + y * y).squareRoot() }

  @inlinable public func distance(to other: Point) -> Float { (self - other).length }
}

/// A width and a height, in document units unless stated otherwise.
public struct Size: Hashable, Sendable {
  public var width: Float
  public var height: Float

  @inlinable public init(width: Float, height: Float) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle given by its origin (top-left corner) and size.
public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size

  @inlinable public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  @inlinable public init(x: Float, y: Float, width: Float, height: Float) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The smallest rectangle holding every point; `nil` for an empty sequence.
  @inlinable
  public init?<S: Sequence>(bounding points: S) where S.Element == Point {
    var minX = Float.infinity
    var minY = Float.infinity
    var maxX = -Float.infinity
    var maxY = -Float.infinity
    for p in points {
      minX = Swift.min(minX, p.x)
      minY = Swift.min(minY, p.y)
      maxX = Swift.max(maxX, p.x)
      maxY = Swift.max(maxY, p.y)
    }
    guard minX <= maxX, minY <= maxY else { return nil }
    self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// The smallest rectangle holding every point of an array; `nil` for an empty one.
  @inlinable
  public init?(bounding points: [Point]) {
    guard !points.isEmpty else { return nil }
    let result = points.withUnsafeBufferPointer { buffer -> (Float, Float, Float, Float) in
      // Two points (x, y, x, y) a vector and two vectors a step: four independent chains of
      // compare and select instead of one (the binner takes every path's bounds, and the single
      // chain was 40 % of its own time on small pages). A bound is replaced only by a smaller
      // (larger) coordinate, never by NaN, as in the loop over a sequence above.
      var low0 = SIMD4<Float>(repeating: .infinity)
      var low1 = low0
      var high0 = SIMD4<Float>(repeating: -.infinity)
      var high1 = high0
      var i = 0
      if let base = buffer.baseAddress, MemoryLayout<Point>.stride == 8 {
        let raw = UnsafeRawPointer(base)
        while i + 4 <= buffer.count {
          let a = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Float>.self)
          let b = raw.loadUnaligned(fromByteOffset: i * 8 + 16, as: SIMD4<Float>.self)
          low0.replace(with: a, where: a .< low0)
          low1.replace(with: b, where: b .< low1)
          high0.replace(with: a, where: a .> high0)
          high1.replace(with: b, where: b .> high1)
          i += 4
        }
      }
      low0.replace(with: low1, where: low1 .< low0)
      high0.replace(with: high1, where: high1 .> high0)
      var minX = Swift.min(low0[0], low0[2])
      var minY = Swift.min(low0[1], low0[3])
      var maxX = Swift.max(high0[0], high0[2])
      var maxY = Swift.max(high0[1], high0[3])
      while i < buffer.count {
        let p = buffer[i]
        minX = Swift.min(minX, p.x)
        minY = Swift.min(minY, p.y)
        maxX = Swift.max(maxX, p.x)
        maxY = Swift.max(maxY, p.y)
        i += 1
      }
      return (minX, minY, maxX, maxY)
    }
    guard result.0 <= result.2, result.1 <= result.3 else { return nil }
    self.init(x: result.0, y: result.1, width: result.2 - result.0, height: result.3 - result.1)
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  @inlinable public var minX: Float { origin.x }
  @inlinable public var minY: Float { origin.y }
  @inlinable public var maxX: Float { origin.x + size.width }
  @inlinable public var maxY: Float { origin.y + size.height }
  @inlinable public var width: Float { size.width }
  @inlinable public var height: Float { size.height }
  @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

  /// The smallest rectangle holding both.
  public func union(_ other: Rect) -> Rect {
    let x0 = Swift.min(minX, other.minX)
    let y0 = Swift.min(minY, other.minY)
    let x1 = Swift.max(maxX, other.maxX)
    let y1 = Swift.max(maxY, other.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The overlap of both, or `nil` when they do not overlap.
  public func intersection(_ other: Rect) -> Rect? {
    let x0 = Swift.max(minX, other.minX)
    let y0 = Swift.max(minY, other.minY)
    let x1 = Swift.min(maxX, other.maxX)
    let y1 = Swift.min(maxY, other.maxY)
    guard x0 < x1, y0 < y1 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Grown by `dx` on the left and right and `dy` on the top and bottom.
  public func insetBy(dx: Float, dy: Float) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
}

/// An affine map of the plane, with the same layout as Core Graphics' `CGAffineTransform`:
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public struct AffineTransform: Hashable, Sendable {
  public var a: Float
  public var b: Float
  public var c: Float
  public var d: Float
  public var tx: Float
  public var ty: Float

  @inlinable public init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  public init(translationX x: Float, y: Float) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
  public init(scaleX sx: Float, y sy: Float) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

  /// A rotation by `angle` radians (clockwise on screen, since y points down).
  public init(rotationAngle angle: Float) {
    let s = _sin(angle)
    let co = _cos(angle)
    self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
  }

  public var isIdentity: Bool { self == .identity }

  /// `self` applied first, then `other`.
  public func concatenating(_ other: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * other.a + b * other.c,
      b: a * other.b + b * other.d,
      c: c * other.a + d * other.c,
      d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx,
      ty: tx * other.b + ty * other.d + other.ty)
  }

  @inlinable public func apply(_ p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }

  /// Applies only the linear part (no translation), for directions and sizes.
  @inlinable public func applyLinear(_ v: Point) -> Point {
    Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
  }

  /// The factor by which the map scales lengths on average: the square root of |det|.
  public var meanScale: Float { abs(a * d - b * c).squareRoot() }

  /// The bounding box of `rect` after the map. Where every corner maps to a coordinate that is
  /// not a number (an infinite side times a zero entry), that coordinate of the box is not a
  /// number either.
  public func apply(_ rect: Rect) -> Rect {
    let corners = [
      apply(Point(x: rect.minX, y: rect.minY)), apply(Point(x: rect.maxX, y: rect.minY)),
      apply(Point(x: rect.minX, y: rect.maxY)), apply(Point(x: rect.maxX, y: rect.maxY)),
    ]
    return Rect(bounding: corners) ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)
  }
}
