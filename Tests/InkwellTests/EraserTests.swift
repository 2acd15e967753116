import Inkwell
import Testing

/// Alpha plane (coverage × ink alpha) of `drawing` rendered on a clear `width` × `height` canvas.
func alphaPlane(_ drawing: Drawing, width: Int, height: Int) -> [Float] {
  let viewport = Viewport(
    region: Rect(x: 0, y: 0, width: Float(width), height: Float(height)), width: width, height: height)
  let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
  let linear = Renderer(threads: 2, minimumWorkPerThread: 0).renderLinear(
    primitives, width: width, height: height, background: .clear)
  return stride(from: 3, to: linear.count, by: 4).map { linear[$0] }
}

func penStroke(_ points: [(Float, Float)], width: Float, transform: AffineTransform = .identity) -> Stroke {
  Stroke(
    ink: Ink(type: .pen, color: .black, width: width),
    path: StrokePath(
      controlPoints: points.map {
        StrokePoint(location: Point(x: $0.0, y: $0.1), size: Size(width: width, height: width))
      }),
    transform: transform)
}

/// Distance from `p` to the polyline through `centers`.
func distance(from p: Point, toPolyline centers: [Point]) -> Float {
  var best = Float.infinity
  for i in 0..<Swift.max(centers.count - 1, 1) {
    let a = centers[i]
    let b = centers[Swift.min(i + 1, centers.count - 1)]
    let ab = b - a
    let lengthSquared = ab.x * ab.x + ab.y * ab.y
    let t =
      lengthSquared > 0
      ? Swift.min(Swift.max(((p - a).x * ab.x + (p - a).y * ab.y) / lengthSquared, 0), 1) : 0
    best = Swift.min(best, p.distance(to: a + ab * t))
  }
  return best
}

@Suite("Erasers and masks")
struct EraserTests {
  let w = 120
  let h = 90

  @Test("a vector eraser removes exactly the strokes its path touches")
  func vectorEraser() {
    let drawing = Drawing(strokes: [
      penStroke([(10, 20), (110, 20)], width: 6),
      penStroke([(10, 70), (110, 70)], width: 6),
      penStroke([(60, 40), (60, 50)], width: 2),
    ])
    let eraser = Eraser(
      kind: .vector,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 30, y: 5), size: Size(width: 4, height: 4)),
        StrokePoint(location: Point(x: 30, y: 35), size: Size(width: 4, height: 4)),
      ]), width: 4)
    let erased = drawing.erasing(with: eraser)
    #expect(erased.strokes.count == 2)
    #expect(erased.strokes[0] == drawing.strokes[1])
    #expect(erased.strokes[1] == drawing.strokes[2])
  }

  /// Checks a bitmap erase on pixels: far from the sweep nothing changes; well inside it nothing
  /// is left; on the cut edge the result lies between the two. Float coverage is compared within
  /// 1e-5, the rounding left by exact-area accumulation (far below one 8-bit level).
  func checkBitmapErase(_ drawing: Drawing, eraser: Eraser, sweepRadius: Float) {
    let erased = drawing.erasing(with: eraser)
    let before = alphaPlane(drawing, width: w, height: h)
    let after = alphaPlane(erased, width: w, height: h)
    let centers = eraser.path.interpolatedPoints(by: .distance(0.25)).map(\.location)
    var checkedInside = 0
    var checkedOutside = 0
    for y in 0..<h {
      for x in 0..<w {
        let i = y * w + x
        let d = distance(from: Point(x: Float(x) + 0.5, y: Float(y) + 0.5), toPolyline: centers)
        if d > sweepRadius + 1 {
          #expect(abs(after[i] - before[i]) <= 1e-5, "pixel \(x),\(y) outside the sweep changed")
          checkedOutside += 1
        } else if d < sweepRadius - 1 {
          #expect(after[i] <= 1e-5, "pixel \(x),\(y) inside the sweep kept ink")
          if before[i] > 0 { checkedInside += 1 }
        } else {
          #expect(after[i] <= before[i] + 1e-6)
        }
      }
    }
    #expect(checkedInside > 20)
    #expect(checkedOutside > 1000)
  }

  @Test("a fixed-width bitmap eraser clears its swept area and nothing else")
  func fixedWidthBitmap() {
    let drawing = Drawing(strokes: [
      penStroke([(10, 30), (60, 35), (110, 30)], width: 12),
      penStroke([(20, 80), (100, 10)], width: 8),
    ])
    let eraser = Eraser(
      kind: .fixedWidthBitmap,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 55, y: 0), size: Size(width: 1, height: 1)),
        StrokePoint(location: Point(x: 65, y: 90), size: Size(width: 1, height: 1)),
      ]), width: 10)
    let erased = drawing.erasing(with: eraser)
    #expect(erased.strokes.count == 2)
    #expect(erased.strokes.allSatisfy { $0.mask?.erasures.count == 1 })
    checkBitmapErase(drawing, eraser: eraser, sweepRadius: 5)
  }

  @Test("a bitmap eraser takes its width from the eraser path's points")
  func bitmapUsesPointSizes() {
    let drawing = Drawing(strokes: [penStroke([(10, 45), (110, 45)], width: 20)])
    let eraser = Eraser(
      kind: .bitmap,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 60, y: 0), size: Size(width: 14, height: 14)),
        StrokePoint(location: Point(x: 60, y: 90), size: Size(width: 14, height: 14)),
      ]), width: 2)
    checkBitmapErase(drawing, eraser: eraser, sweepRadius: 7)
  }

  @Test("erasing a transformed stroke clears the area in drawing coordinates")
  func transformedStroke() {
    // Drawn at half size, rotated a quarter turn and moved: the path runs vertically at x = 60.
    let transform = AffineTransform(scaleX: 2, y: 2).concatenating(AffineTransform(rotationAngle: .pi / 2))
      .concatenating(AffineTransform(translationX: 60, y: 5))
    let drawing = Drawing(strokes: [penStroke([(0, 0), (40, 0)], width: 6, transform: transform)])
    let eraser = Eraser(
      kind: .fixedWidthBitmap,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 20, y: 45), size: Size(width: 1, height: 1)),
        StrokePoint(location: Point(x: 100, y: 45), size: Size(width: 1, height: 1)),
      ]), width: 16)
    checkBitmapErase(drawing, eraser: eraser, sweepRadius: 8)
  }

  @Test("overlapping sweeps and repeated erasing clear their union")
  func overlappingSweeps() {
    let drawing = Drawing(strokes: [penStroke([(10, 45), (110, 45)], width: 30)])
    let first = Eraser(
      kind: .fixedWidthBitmap,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 40, y: 10), size: Size(width: 1, height: 1)),
        StrokePoint(location: Point(x: 80, y: 80), size: Size(width: 1, height: 1)),
      ]), width: 12)
    let dot = Eraser(
      kind: .fixedWidthBitmap,
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 62, y: 48), size: Size(width: 1, height: 1))
      ]), width: 14)
    let erased = drawing.erasing(with: first).erasing(with: dot)
    #expect(erased.strokes[0].mask?.erasures.count == 2)
    let after = alphaPlane(erased, width: w, height: h)
    // The dot lies across the first sweep: its whole disc is clear, the overlap included.
    for y in 43...53 {
      for x in 57...67 where Point(x: Float(x) + 0.5, y: Float(y) + 0.5).distance(to: Point(x: 62, y: 48)) < 6
      {
        #expect(after[y * w + x] <= 1e-5, "pixel \(x),\(y)")
      }
    }
  }

  @Test("a clip mask shows the stroke only inside it")
  func clipMask() {
    var stroke = penStroke([(10, 45), (110, 45)], width: 30)
    stroke.mask = StrokeMask(clip: [
      [Point(x: 30, y: 0), Point(x: 70, y: 0), Point(x: 70, y: 90), Point(x: 30, y: 90)]
    ])
    let clipped = alphaPlane(Drawing(strokes: [stroke]), width: w, height: h)
    let full = alphaPlane(
      Drawing(strokes: [penStroke([(10, 45), (110, 45)], width: 30)]), width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let expected: Float = (30..<70).contains(x) ? full[y * w + x] : 0
        #expect(abs(clipped[y * w + x] - expected) < 1e-6, "pixel \(x),\(y)")
      }
    }
  }

  @Test("every outline winds the same way, so outlines unite under non-zero")
  func outlineOrientation() {
    func signedArea(_ points: [Point]) -> Float {
      var sum: Float = 0
      for i in points.indices {
        let a = points[i]
        let b = points[(i + 1) % points.count]
        sum += a.x * b.y - b.x * a.y
      }
      return sum / 2
    }
    let dot = PenBrush.outline(of: [PenSample(center: Point(x: 5, y: 5), radius: 3)])
    let capsule = PenBrush.outline(of: [
      PenSample(center: Point(x: 5, y: 5), radius: 3), PenSample(center: Point(x: 25, y: 8), radius: 4),
    ])
    let backwards = PenBrush.outline(of: [
      PenSample(center: Point(x: 25, y: 8), radius: 4), PenSample(center: Point(x: 5, y: 5), radius: 3),
    ])
    #expect(signedArea(dot) * signedArea(capsule) > 0)
    #expect(signedArea(capsule) * signedArea(backwards) > 0)
  }
}
