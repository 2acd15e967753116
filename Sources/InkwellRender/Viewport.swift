import InkwellModel

/// What part of a document a render shows, and at what pixel size.
///
/// `region` (document units) is mapped onto `width` × `height` pixels by a uniform scale; the
/// pixel size is the region's size times the scale, each side rounded to the nearest pixel and at
/// least 1.
public struct Viewport: Hashable, Sendable {
  public var region: Rect
  public var width: Int
  public var height: Int

  /// Why a viewport cannot be made.
  public enum Problem: Error, Hashable, Sendable {
    /// The region has no area, or a non-finite edge.
    case emptyRegion
    /// Scale or box is zero, negative or not finite.
    case invalidScale
    /// The image would have more pixels than allowed.
    case tooLarge(width: Double, height: Double, limit: Int)
  }

  public init(region: Rect, width: Int, height: Int) {
    self.region = region
    self.width = width
    self.height = height
  }

  /// `region` at `scale` pixels per document unit.
  public static func scaled(_ region: Rect, by scale: Double, maxPixels: Int) throws(Problem) -> Viewport {
    guard region.minX.isFinite, region.minY.isFinite, region.width.isFinite, region.height.isFinite,
      region.width > 0, region.height > 0
    else { throw .emptyRegion }
    guard scale.isFinite, scale > 0 else { throw .invalidScale }
    let w = Swift.max(1, (Double(region.width) * scale).rounded())
    let h = Swift.max(1, (Double(region.height) * scale).rounded())
    guard w * h <= Double(maxPixels), w <= Double(Int32.max), h <= Double(Int32.max) else {
      throw .tooLarge(width: w, height: h, limit: maxPixels)
    }
    return Viewport(region: region, width: Int(w), height: Int(h))
  }

  /// `region` scaled to fit inside `boxWidth` × `boxHeight` pixels, keeping its aspect ratio.
  public static func fitting(_ region: Rect, inWidth boxWidth: Int, height boxHeight: Int, maxPixels: Int)
    throws(Problem) -> Viewport
  {
    guard boxWidth > 0, boxHeight > 0 else { throw .invalidScale }
    guard region.width.isFinite, region.height.isFinite, region.width > 0, region.height > 0 else {
      throw .emptyRegion
    }
    let scale = Swift.min(Double(boxWidth) / Double(region.width), Double(boxHeight) / Double(region.height))
    var viewport = try scaled(region, by: scale, maxPixels: maxPixels)
    // The fitted side must be exactly the box's, whatever the rounding of the other side.
    viewport.width = Swift.min(viewport.width, boxWidth)
    viewport.height = Swift.min(viewport.height, boxHeight)
    return viewport
  }

  /// The map from document coordinates to pixels: the region's top-left corner to (0, 0), its
  /// width to `width` pixels and its height to `height`.
  public var transform: AffineTransform {
    let sx = Float(width) / region.width
    let sy = Float(height) / region.height
    return AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: -region.minX * sx, ty: -region.minY * sy)
  }
}
