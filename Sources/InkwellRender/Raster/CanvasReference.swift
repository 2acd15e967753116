import InkwellModel

/// The oracle for binning: fills one path over the whole canvas with a single accumulation buffer
/// (no tiles, no backdrops), exact-area, in Double precision.
public enum CanvasReference {
  /// Coverage 0…1 of each pixel, row-major, `width` × `height`.
  public static func coverage(of path: FlatPath, rule: FillRule, width: Int, height: Int) -> [Float] {
    let stride = width + 2
    var cells = [Double](repeating: 0, count: stride * height)
    path.forEachContour { contour in
      var previous = contour.last!
      for point in contour {
        addLine(&cells, stride: stride, width: width, height: height, from: previous, to: point)
        previous = point
      }
    }
    var result = [Float](repeating: 0, count: width * height)
    for y in 0..<height {
      var sum = 0.0
      for x in 0..<width {
        sum += cells[y * stride + x]
        result[y * width + x] = KernelReference.coverage(winding: Float(sum), rule: rule)
      }
    }
    return result
  }

  private static func addLine(
    _ cells: inout [Double], stride: Int, width: Int, height: Int, from a: Point, to b: Point
  ) {
    var (x0, y0, x1, y1) = (Double(a.x), Double(a.y), Double(b.x), Double(b.y))
    guard y0 != y1 else { return }
    var direction = 1.0
    if y0 > y1 {
      swap(&x0, &x1)
      swap(&y0, &y1)
      direction = -1
    }
    let dxdy = (x1 - x0) / (y1 - y0)
    let rowStart = Swift.max(Int(y0.rounded(.down)), 0)
    let rowEnd = Swift.min(Int(y1.rounded(.up)), height)
    guard rowStart < rowEnd else { return }
    for r in rowStart..<rowEnd {
      let ya = Swift.max(Double(r), y0)
      let yb = Swift.min(Double(r + 1), y1)
      guard yb > ya else { continue }
      // Cut where the line crosses the canvas' left or right edge, so that each part stays
      // straight once x is clamped into the canvas (left of it, a line acts on the whole row).
      var cuts = [ya, yb]
      for edge in [0.0, Double(width)] where dxdy != 0 {
        let ym = y0 + (edge - x0) / dxdy
        if ym > ya && ym < yb { cuts.append(ym) }
      }
      cuts.sort()
      for i in 0..<(cuts.count - 1) {
        let (ys, ye) = (cuts[i], cuts[i + 1])
        guard ye > ys else { continue }
        let xa = Swift.min(Swift.max(x0 + (ys - y0) * dxdy, 0), Double(width))
        let xb = Swift.min(Swift.max(x0 + (ye - y0) * dxdy, 0), Double(width))
        addRowPiece(&cells, row: r * stride, width: width, xa: xa, xb: xb, dy: (ye - ys) * direction)
      }
    }
  }

  private static func addRowPiece(
    _ cells: inout [Double], row: Int, width: Int, xa: Double, xb: Double, dy: Double
  ) {
    let xl = Swift.min(xa, xb)
    let xr = Swift.max(xa, xb)
    let cl = Swift.min(Int(xl), width)
    if xr <= Double(cl) + 1 {
      let fx = (xl + xr) * 0.5 - Double(cl)
      cells[row + cl] += dy * (1 - fx)
      cells[row + cl + 1] += dy * fx
      return
    }
    let inv = dy / (xr - xl)
    var x = xl
    var c = cl
    while x < xr && c <= width {
      let end = Swift.min(Double(c + 1), xr)
      let part = (end - x) * inv
      let fx = (x + end) * 0.5 - Double(c)
      cells[row + c] += part * (1 - fx)
      cells[row + c + 1] += part * fx
      x = end
      c += 1
    }
  }
}
