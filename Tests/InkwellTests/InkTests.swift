// Each ink's character, measured on pixels: the checks of the inks issue, one test each.

import Inkwell
import InkwellKernels
import Testing

/// A stroke of `type` along `points` (x, y), every point with the same width and attributes.
func inkStroke(
  _ type: InkType, _ points: [(Float, Float)], width: Float, force: Float = 1, roll: Float = 0,
  threshold: Float = 0, color: Color = .black, seed: UInt32 = 7
) -> Stroke {
  Stroke(
    ink: Ink(type: type, color: color, width: width),
    path: StrokePath(
      controlPoints: points.enumerated().map { i, p in
        StrokePoint(
          location: Point(x: p.0, y: p.1), timeOffset: Float(i) * 0.02,
          size: Size(width: width, height: width),
          force: force, rollAngle: roll, threshold: threshold)
      }),
    randomSeed: seed)
}

/// Evenly spaced points from (x0, y0) to (x1, y1).
func line(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, count: Int = 12) -> [(Float, Float)] {
  (0..<count).map { i in
    let u = Float(i) / Float(count - 1)
    return (x0 + (x1 - x0) * u, y0 + (y1 - y0) * u)
  }
}

/// The alpha plane of `drawing` on a clear canvas, through `view`, on `threads` threads.
func inkAlpha(
  _ drawing: Drawing, width: Int, height: Int, view: AffineTransform = .identity, threads: Int = 1,
  inks: InkCatalog = .standard
) -> [Float] {
  let primitives = SceneBuilder.primitives(for: drawing, view: view, inks: inks)
  let linear = Renderer(threads: threads, minimumWorkPerThread: 0).renderLinear(
    primitives, width: width, height: height, background: .clear)
  return stride(from: 3, to: linear.count, by: 4).map { linear[$0] }
}

/// Summed alpha down column `x` (a horizontal stroke's ink across it: width × opacity).
func columnSum(_ plane: [Float], width: Int, x: Int) -> Float {
  stride(from: x, to: plane.count, by: width).reduce(0) { $0 + plane[$1] }
}

/// Summed alpha along row `y`.
func rowSum(_ plane: [Float], width: Int, y: Int) -> Float {
  plane[(y * width)..<((y + 1) * width)].reduce(0, +)
}

@Suite("Inks")
struct InkTests {
  let w = 120
  let h = 80

  @Test("pen: width at force 1 is at least twice the width at force 0.2")
  func penPressure() {
    let heavy = inkAlpha(
      Drawing(strokes: [inkStroke(.pen, line(10, 40, 110, 40), width: 12, force: 1)]), width: w, height: h)
    let light = inkAlpha(
      Drawing(strokes: [inkStroke(.pen, line(10, 40, 110, 40), width: 12, force: 0.2)]), width: w, height: h)
    let a = columnSum(heavy, width: w, x: 60)
    let b = columnSum(light, width: w, x: 60)
    #expect(a >= 2 * b, "force 1: \(a) px, force 0.2: \(b) px")
  }

  @Test("pen: a fast stroke is a little thinner than a slow one")
  func penSpeed() {
    func width(secondsPerPoint: Float) -> Float {
      var stroke = inkStroke(.pen, line(10, 40, 110, 40), width: 12)
      for i in stroke.path.controlPoints.indices {
        stroke.path.controlPoints[i].timeOffset = Float(i) * secondsPerPoint
      }
      return columnSum(inkAlpha(Drawing(strokes: [stroke]), width: w, height: h), width: w, x: 60)
    }
    // 100 units over 11 intervals: 9.1 units per interval.
    let slow = width(secondsPerPoint: 0.05)  // 182 units/s
    let fast = width(secondsPerPoint: 0.002)  // 4545 units/s
    #expect(fast < 0.95 * slow && fast > 0.85 * slow, "slow \(slow) px, fast \(fast) px")
  }

  @Test("pen: the tabulated pressure curve stays within its stated error of the formula")
  func penPressureTable() {
    var worstNearZero: Float = 0
    var worst: Float = 0
    for k in 0...200_000 {
      let f = Float(k) / 200_000
      let error = abs(PenBrush.interpolatedPressureScale(f) - PenBrush.pressureScale(f))
      if f < 0.01 { worstNearZero = Swift.max(worstNearZero, error) } else { worst = Swift.max(worst, error) }
    }
    #expect(worstNearZero < 3e-4, "below force 0.01: \(worstNearZero)")
    #expect(worst < 1e-6, "from force 0.01: \(worst)")
    #expect(PenBrush.interpolatedPressureScale(1) == PenBrush.pressureScale(1))
    #expect(PenBrush.interpolatedPressureScale(.nan) == PenBrush.pressureScale(1))
    #expect(PenBrush.interpolatedPressureScale(-3) == PenBrush.pressureScale(0))
  }

  @Test(
    "pen: opacity that varies along a stroke by half an 8-bit level takes an alpha profile",
    arguments: [
      ([0.5, 0.5, 0.5, 0.5], false), ([0.5, 0.5, 0.503, 0.5], true), ([0.5, 0.5, 0.5005, 0.5], false),
      ([2, 3, 5, 2], false), ([-1, 0.5, -4, 0.5], true), ([0.5, .nan, 0.5, 0.5], false),
      ([1, .nan, 1, 1], false),
      ([1, .infinity, 2, 2], true), ([2, .infinity, 2, 2], true), ([1, .infinity, 1, 1], false),
      ([0, -.infinity, 0.2, 0.2], true),
      ([3e38, 3e38, 3e38, 3e38], false),
    ] as [([Float], Bool)])
  func penOpacityProfile(opacities: [Float], varies: Bool) throws {
    var stroke = inkStroke(.pen, line(10, 40, 110, 40, count: opacities.count), width: 12)
    for (i, opacity) in opacities.enumerated() { stroke.path.controlPoints[i].opacity = opacity }
    let primitives = PenInk().primitives(for: stroke, view: .identity)
    let primitive = try #require(primitives.first)
    #expect((primitive.paint.profile != nil) == varies, "\(opacities)")
  }

  @Test("pen: a densely recorded stroke is sampled by length, not by recorded point")
  func penSamplesByLength() throws {
    // The same 100 px line recorded with points 5 px and 0.05 px apart: the outline follows the
    // length (a sample about every 1.5 px), so it has about as many points either way (which
    // joins bend outwards, adding a point, is up to rounding on a straight line). Sampled at each
    // recorded point, at least a third of a sample spacing apart, it would have three times as
    // many.
    func outline(points: Int) throws -> FlatPath {
      let stroke = inkStroke(.pen, line(10, 40, 110, 40, count: points), width: 12)
      return try #require(PenBrush.outline(of: stroke, toPixels: .identity)?.0)
    }
    let sparse = try outline(points: 21)
    let dense = try outline(points: 2001)
    #expect(
      dense.points.count <= sparse.points.count * 3 / 2,
      "\(dense.points.count) against \(sparse.points.count)")
    let a = inkAlpha(
      Drawing(strokes: [inkStroke(.pen, line(10, 40, 110, 40, count: 21), width: 12)]), width: w, height: h)
    let b = inkAlpha(
      Drawing(strokes: [inkStroke(.pen, line(10, 40, 110, 40, count: 2001), width: 12)]), width: w, height: h)
    var worst: Float = 0
    for i in a.indices { worst = Swift.max(worst, abs(a[i] - b[i])) }
    #expect(worst < 0.02, "largest coverage difference \(worst)")
  }

  @Test("pen: samples spread out on gentle bends, and the outline stays within 0.04 px of the curve")
  func penSamplesBendsAdaptively() throws {
    // An arc of radius 100 px, 8 px wide, recorded every 2 px: away from the tapered ends the
    // outline's outer side must stay outside the ideal offset circle less the sampling
    // tolerance (0.025 px) and the B-spline's own pull inside its control points (under 0.01 px
    // here), and never pass it. Sampled every 1.5 px its outline would take about 250 points.
    let radius: Float = 100
    let center = Point(x: 150, y: 150)
    let points = (0...60).map { i -> (Float, Float) in
      let angle = -0.6 + 1.2 * Float(i) / 60
      return (center.x + radius * FloatMath.cos(angle), center.y + radius * FloatMath.sin(angle))
    }
    let (outline, _) = try #require(
      PenBrush.outline(of: inkStroke(.pen, points, width: 8), toPixels: .identity))
    let outer = radius + 4
    let contour = outline.points
    var checked = 0
    for i in contour.indices {
      let a = contour[i]
      let b = contour[(i + 1) % contour.count]
      let da = a.distance(to: center)
      let db = b.distance(to: center)
      // The outer side, away from the tapers at either end.
      guard da > radius, db > radius,
        abs(FloatMath.atan2(a.y - center.y, a.x - center.x)) < 0.4,
        abs(FloatMath.atan2(b.y - center.y, b.x - center.x)) < 0.4
      else { continue }
      let middle = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
      #expect(da <= outer + 0.01 && db <= outer + 0.01, "\(da), \(db) against \(outer)")
      #expect(middle.distance(to: center) >= outer - 0.04, "chord at \(middle.distance(to: center))")
      checked += 1
    }
    #expect(checked >= 10)
    #expect(contour.count < 160, "\(contour.count) outline points")
  }

  @Test("per-point opacity fades every ink along the stroke", arguments: InkType.allCases)
  func opacityAlongStroke(_ type: InkType) {
    var stroke = inkStroke(type, line(10, 40, 110, 40), width: 10, force: 1)
    for i in stroke.path.controlPoints.indices {
      stroke.path.controlPoints[i].opacity = Float(i) / Float(stroke.path.controlPoints.count - 1)
    }
    let plane = inkAlpha(Drawing(strokes: [stroke]), width: w, height: h)
    let left = columnSum(plane, width: w, x: 30)
    let right = columnSum(plane, width: w, x: 90)
    #expect(left < 0.6 * right, "\(type): opacity ~0.2 gives \(left), ~0.8 gives \(right)")
  }

  @Test("monoline: width at force 1 and 0.2 differs by under 5%")
  func monolineIgnoresForce() {
    let heavy = inkAlpha(
      Drawing(strokes: [inkStroke(.monoline, line(10, 40, 110, 40), width: 6, force: 1)]), width: w, height: h
    )
    let light = inkAlpha(
      Drawing(strokes: [inkStroke(.monoline, line(10, 40, 110, 40), width: 6, force: 0.2)]), width: w,
      height: h)
    let a = columnSum(heavy, width: w, x: 60)
    let b = columnSum(light, width: w, x: 60)
    #expect(abs(a - b) < 0.05 * a, "force 1: \(a) px, force 0.2: \(b) px")
    #expect(abs(a - 6) < 0.3, "width \(a) px, nominal 6")
  }

  /// Renders `drawing` on white through the document path, 8-bit.
  func renderOnWhite(_ drawing: Drawing, width: Int = 120, height: Int = 80, threads: Int = 1) -> RGBA8Image {
    let document = Document(
      bounds: Rect(x: 0, y: 0, width: Float(width), height: Float(height)), drawing: drawing)
    return try! document.render(RenderOptions(threads: threads))
  }

  @Test("marker: a stroke crossing itself is no darker in the crossing; two strokes crossing are darker")
  func markerOverlap() {
    let yellow = Color(red: 1, green: 0.8, blue: 0.1)
    // A stroke that goes right, loops up and comes back down across its own path at (60, 40).
    let loop: [(Float, Float)] = [
      (10, 40), (30, 40), (50, 40), (70, 40), (85, 30), (80, 15), (65, 12), (58, 25), (60, 45), (62, 65),
      (64, 75),
    ]
    let single = renderOnWhite(Drawing(strokes: [inkStroke(.marker, loop, width: 10, color: yellow)]))
    let crossing = single.pixel(x: 60, y: 40)
    let once = single.pixel(x: 25, y: 40)
    for (a, b) in [(crossing.0, once.0), (crossing.1, once.1), (crossing.2, once.2)] {
      #expect(abs(Int(a) - Int(b)) <= 1, "crossing \(crossing) vs single pass \(once)")
    }
    let two = renderOnWhite(
      Drawing(strokes: [
        inkStroke(.marker, line(10, 40, 110, 40), width: 10, color: yellow),
        inkStroke(.marker, line(60, 5, 60, 75), width: 10, color: yellow),
      ]))
    let both = two.pixel(x: 60, y: 40)
    let one = two.pixel(x: 25, y: 40)
    #expect(Int(both.1) + Int(both.2) < Int(one.1) + Int(one.2) - 10, "two strokes \(both) vs one \(one)")
  }

  @Test("marker: text under it stays readable on light and dark backgrounds")
  func markerReadability() {
    let yellow = Color(red: 1, green: 0.85, blue: 0)
    for (page, text) in [
      (Color.white, Color.black), (Color(red: 0.12, green: 0.12, blue: 0.14), Color.white),
    ] {
      let drawing = Drawing(strokes: [
        inkStroke(.pen, line(10, 40, 110, 40), width: 6, color: text),
        inkStroke(.marker, line(10, 40, 110, 40), width: 20, color: yellow),
      ])
      let document = Document(bounds: Rect(x: 0, y: 0, width: 120, height: 80), drawing: drawing)
      let image = try! document.render(RenderOptions(background: page, threads: 1))
      func luminance(_ p: (UInt8, UInt8, UInt8, UInt8)) -> Float {
        let r = SRGBTransfer.linear(fromEncoded: Float(p.0) / 255)
        let g = SRGBTransfer.linear(fromEncoded: Float(p.1) / 255)
        let b = SRGBTransfer.linear(fromEncoded: Float(p.2) / 255)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
      }
      let onText = luminance(image.pixel(x: 60, y: 40))
      let besideText = luminance(image.pixel(x: 60, y: 47))
      let contrast = (Swift.max(onText, besideText) + 0.05) / (Swift.min(onText, besideText) + 0.05)
      #expect(contrast >= 4.5, "contrast \(contrast) on \(page.hexString)")
    }
  }

  @Test(
    "reed and fountain pen: at least 3× wider across the nib than along it",
    arguments: [InkType.reed, .fountainPen])
  func flatNib(_ type: InkType) {
    // Roll turns the nib so its edge lies along x: a horizontal stroke runs along it, a vertical one across.
    let roll = -(type == .reed ? ReedInk.nibAngle : FountainPenInk.nibAngle)
    let along = inkAlpha(
      Drawing(strokes: [inkStroke(type, line(10, 40, 110, 40), width: 12, roll: roll)]), width: w, height: h)
    let across = inkAlpha(
      Drawing(strokes: [inkStroke(type, line(60, 5, 60, 75), width: 12, roll: roll)]), width: w, height: h)
    let a = columnSum(along, width: w, x: 60)
    let b = rowSum(across, width: w, y: 40)
    #expect(b >= 3 * a, "across \(b) px, along \(a) px")
  }

  @Test("a flat nib swept along a straight line covers exactly its Minkowski area, edges included")
  func nibSweepArea() {
    // A 14 × 4 rectangle nib at 0.5 rad, swept 90 pixels along x: the area is the segment times the
    // nib's height across the path, plus the nib itself.
    let angle: Float = 0.5
    let (length, thickness): (Float, Float) = (14, 4)
    let nib = NibSweep.rectangle(length: length, thickness: thickness, angle: angle)
    let samples = stride(from: Float(15.25), through: 105.25, by: 1.5).map {
      NibSample(center: Point(x: $0, y: 40.4), nib: nib)
    }
    let outline = NibSweep.outline(of: samples)
    let plane = coverage(FlatPath(contours: [outline]), rule: .nonZero, width: 120, height: 80)
    let across = length * abs(FloatMath.sin(angle)) + thickness * abs(FloatMath.cos(angle))
    let expected = 90 * across + length * thickness
    let area = plane.reduce(0, +)
    #expect(abs(area - expected) < 0.002 * expected, "area \(area), expected \(expected)")
    // Anti-aliased edges: the top and bottom rows of the band are partly covered, not saturated.
    #expect(plane.contains { $0 > 0.1 && $0 < 0.9 })
  }

  @Test("reed: threshold 1 draws nothing, 0.5 thins the stroke, 0 changes nothing")
  func reedThreshold() {
    let points = line(10, 20, 110, 60)
    let plain = inkAlpha(Drawing(strokes: [inkStroke(.reed, points, width: 10)]), width: w, height: h)
    let zero = inkAlpha(
      Drawing(strokes: [inkStroke(.reed, points, width: 10, threshold: 0)]), width: w, height: h)
    let half = inkAlpha(
      Drawing(strokes: [inkStroke(.reed, points, width: 10, threshold: 0.5)]), width: w, height: h)
    let full = inkAlpha(
      Drawing(strokes: [inkStroke(.reed, points, width: 10, threshold: 1)]), width: w, height: h)
    #expect(plain == zero)
    #expect(full.allSatisfy { $0 == 0 })
    let sum = { (p: [Float]) in p.reduce(0, +) }
    #expect(sum(half) < sum(plain) && sum(half) > 0.8 * sum(plain))
    // Edge pixels stay anti-aliased: some partial values remain.
    #expect(half.contains { $0 > 0.05 && $0 < 0.95 })

    // A threshold that varies along the stroke acts where it is: 1 on the left half, 0 on the right.
    var varying = inkStroke(.reed, line(10, 40, 110, 40), width: 10, roll: -ReedInk.nibAngle + .pi / 2)
    for i in varying.path.controlPoints.indices { varying.path.controlPoints[i].threshold = i < 6 ? 1 : 0 }
    let plane = inkAlpha(Drawing(strokes: [varying]), width: w, height: h)
    #expect(columnSum(plane, width: w, x: 25) == 0)
    #expect(columnSum(plane, width: w, x: 95) > 5)
  }

  /// Alpha of a thick horizontal stroke's fully covered interior.
  func interior(_ type: InkType, seed: UInt32, view: AffineTransform = .identity, drawing: Drawing? = nil)
    -> [Float]
  {
    let d = drawing ?? Drawing(strokes: [inkStroke(type, line(10, 40, 110, 40), width: 24, seed: seed)])
    let plane = inkAlpha(d, width: 240, height: 160, view: view)
    var values: [Float] = []
    for y in 34...46 { for x in 30...90 { values.append(plane[y * 240 + x]) } }
    return values
  }

  @Test(
    "pencil and crayon: grain varies, follows the seed, and moves and scales with the drawing",
    arguments: [InkType.pencil, .crayon])
  func grain(_ type: InkType) {
    let a = interior(type, seed: 7)
    let mean = a.reduce(0, +) / Float(a.count)
    let spread = (a.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(a.count)).squareRoot()
    #expect(spread > 0.03, "interior alpha spread \(spread)")
    #expect(interior(type, seed: 7) == a)
    #expect(interior(type, seed: 8) != a)

    // Moved by (13.5, 7) and seen at scale 2, the stroke lands 27, 14 pixels further: the grain too.
    let stroke = inkStroke(type, line(10, 30, 100, 30), width: 16, seed: 7)
    let original = inkAlpha(
      Drawing(strokes: [stroke]), width: 240, height: 160, view: AffineTransform(scaleX: 2, y: 2))
    let moved = inkAlpha(
      Drawing(strokes: [stroke]).transformed(using: AffineTransform(translationX: 13.5, y: 7)), width: 240,
      height: 160, view: AffineTransform(scaleX: 2, y: 2))
    var worst: Float = 0
    var unshifted: Float = 0
    for y in 40...80 {
      for x in 30...180 {
        worst = Swift.max(worst, abs(moved[(y + 14) * 240 + x + 27] - original[y * 240 + x]))
        unshifted = Swift.max(
          unshifted, abs(moved[(y + 14) * 240 + x + 27] - original[(y + 14) * 240 + x + 27]))
      }
    }
    #expect(worst < 1e-3, "grain moved with the drawing: worst difference \(worst)")
    #expect(unshifted > 0.1)

    // Scaled 2× in the drawing or in the view: the same pixels.
    let scaledDrawing = inkAlpha(
      Drawing(strokes: [stroke]).transformed(using: AffineTransform(scaleX: 2, y: 2)), width: 240, height: 160
    )
    #expect(scaledDrawing == original)
  }

  @Test("watercolor: edges are darker than the center")
  func watercolorRim() {
    let plane = inkAlpha(
      Drawing(strokes: [inkStroke(.watercolor, line(10, 40, 110, 40), width: 30)]), width: w, height: h)
    var edge: Float = 0
    var center: Float = 0
    for x in 40...80 {
      let column = (0..<h).map { plane[$0 * w + x] }
      edge += column.max()!
      center += column[40]
    }
    #expect(edge > 1.3 * center, "edge \(edge / 41), center \(center / 41)")
  }

  @Test("watercolor: secondaryScale spreads the pigment")
  func watercolorSpread() {
    var narrow = inkStroke(.watercolor, line(10, 40, 110, 40), width: 20)
    var wide = narrow
    for i in narrow.path.controlPoints.indices {
      narrow.path.controlPoints[i].secondaryScale = 0.5
      wide.path.controlPoints[i].secondaryScale = 1.5
    }
    let a = inkAlpha(Drawing(strokes: [narrow]), width: w, height: h).filter { $0 > 0 }.count
    let b = inkAlpha(Drawing(strokes: [wide]), width: w, height: h).filter { $0 > 0 }.count
    #expect(b > a + a / 2)
  }

  @Test("every ink renders identically on 1 and 2 threads", arguments: InkType.allCases)
  func threads(_ type: InkType) {
    var rng = SeededGenerator(seed: 11)
    let strokes = (0..<6).map { k -> Stroke in
      let points = (0..<20).map { _ in (rng.float(0...200), rng.float(0...140)) }
      return inkStroke(type, points, width: rng.float(2...20), force: rng.float(0.1...1), seed: UInt32(k))
    }
    let drawing = Drawing(strokes: strokes)
    #expect(
      inkAlpha(drawing, width: 200, height: 140, threads: 1)
        == inkAlpha(drawing, width: 200, height: 140, threads: 2))
  }

  @Test("the C paint kernels equal their scalar twins on every ink")
  func kernelsMatchReference() {
    var strokes: [Stroke] = []
    for (k, type) in InkType.allCases.enumerated() {
      var s = inkStroke(
        type, line(10, 10 + Float(k) * 16, 190, 20 + Float(k) * 16), width: 10, force: 0.6,
        threshold: type == .reed ? 0.3 : 0, seed: UInt32(k))
      s.path.controlPoints[3].opacity = 0.3
      if type == .reed { s.path.controlPoints[5].threshold = 0.9 }
      strokes.append(s)
    }
    let primitives = SceneBuilder.primitives(for: Drawing(strokes: strokes), view: .identity)
    let native = Renderer(threads: 1).renderLinear(
      primitives, width: 200, height: 150, background: LinearColor(.white))
    let reference = Renderer(threads: 1, paintKernels: .reference).renderLinear(
      primitives, width: 200, height: 150, background: LinearColor(.white))
    #expect(native == reference)
  }

  @Test("grain noise: C and Swift agree bit for bit")
  func noiseMatches() {
    var rng = SeededGenerator(seed: 3)
    for _ in 0..<2000 {
      let u = rng.float(-5000...5000)
      let v = rng.float(-5000...5000)
      let seed = UInt32.random(in: 0...UInt32.max, using: &rng)
      #expect(inkwell_value_noise(u, v, seed) == PaintReference.valueNoise(u, v, seed: seed))
    }
  }

  @Test(
    "grain over a tile: C at every level's width and Swift agree bit for bit, whatever the coverage",
    arguments: [
      INKWELL_SIMD_SCALAR, INKWELL_SIMD_SSE2, INKWELL_SIMD_AVX2, INKWELL_SIMD_AVX512, INKWELL_SIMD_NEON,
    ])
  func grainTilesMatch(level: inkwell_simd_level) {
    guard let grain = inkwell_paint_kernels_for(level)?.pointee.grain else { return }
    // Four rows at a time in C: coverage at, below and above 0 (and NaN) in every lane, lattices
    // from fine to far out (the floor's clamp at ±10⁹), tiles anywhere on the page.
    var rng = SeededGenerator(seed: 11)
    let tile = Int(INKWELL_TILE)
    for trial in 0..<300 {
      var coverage = (0..<(tile * tile)).map { _ -> Float in
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return 0
        case 1: return -rng.float(0...1)
        case 2: return 1
        case 3 where trial % 10 == 0: return .nan
        default: return rng.float(0...1.2)
        }
      }
      if trial % 3 == 0 {
        // Whole groups of four and of eight without coverage, which C skips.
        for i in stride(from: 0, to: coverage.count, by: 16) { for k in 0..<8 { coverage[i + k] = 0 } }
      }
      let reach: Float = trial % 7 == 0 ? 1e7 : 10
      let matrix = (0..<6).map { _ in rng.float(-reach...reach) }
      let parameters: [Float] = [
        rng.float(0...0.5), rng.float(0...0.6), rng.float(1.5...3), rng.float(0...0.6), rng.float(0.5...2),
        rng.float(0.8...1.5),
      ]
      let seed = UInt32.random(in: 0...UInt32.max, using: &rng)
      let x0 = Int.random(in: -40...40, using: &rng) * tile
      let y0 = Int.random(in: -40...40, using: &rng) * tile
      var native = coverage
      var reference = coverage
      grain(&native, Int32(x0), Int32(y0), matrix, seed, parameters)
      PaintReference.grain(
        coverage: &reference, x0: x0, y0: y0, matrix: matrix, seed: seed, parameters: parameters)
      #expect(
        native.map(\.bitPattern) == reference.map(\.bitPattern), "trial \(trial)")
    }
  }

  @Test("multiply over a tile: C and Swift agree bit for bit, groups without coverage included")
  func multiplyTilesMatch() {
    // The rasterizer's contract: finite colors, a tile without −0 or NaN, alpha within 0…1. The
    // coverage takes +0 and −0 in whole groups of four (which C skips) and alone beside others.
    var rng = SeededGenerator(seed: 12)
    let pixels = Int(INKWELL_TILE_PIXELS)
    for trial in 0..<300 {
      var coverage = (0..<pixels).map { _ -> Float in
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return 0
        case 1: return -0.0
        case 2: return 1
        default: return rng.float(0...1)
        }
      }
      for group in stride(from: 0, to: pixels, by: 4) where Int.random(in: 0..<3, using: &rng) == 0 {
        for k in 0..<4 { coverage[group + k] = trial % 2 == 0 ? 0 : -0.0 }
      }
      let alpha = (0..<pixels).map { _ in Int.random(in: 0..<4, using: &rng) == 0 ? 0 : rng.float(0...1) }
      var tile = (0..<(3 * pixels)).map { i -> Float in
        let a = alpha[i % pixels]
        return Int.random(in: 0..<5, using: &rng) == 0 ? 0 : rng.float(-0.2...1.5) * a
      }
      tile += alpha
      for i in tile.indices where tile[i] == 0 { tile[i] = 0 }
      let range: ClosedRange<Float> = trial % 5 == 0 ? -2...3 : 0...1
      let color = [rng.float(range), rng.float(range), rng.float(range), rng.float(0...1)]
      var native = tile
      var reference = tile
      inkwell_composite_multiply(&native, coverage, color)
      PaintReference.compositeMultiply(tile: &reference, coverage: coverage, color: color)
      let differs = native.indices.first { native[$0].bitPattern != reference[$0].bitPattern }
      #expect(
        differs == nil,
        "trial \(trial): value \(differs ?? 0) is \(native[differs ?? 0]), not \(reference[differs ?? 0])")
    }
  }

  @Test("masks clip every ink: nothing is drawn outside the clip")
  func masksApply() {
    for type in InkType.allCases {
      var stroke = inkStroke(type, line(10, 40, 110, 40), width: 12)
      stroke.mask = StrokeMask(clip: [
        [Point(x: 0, y: 0), Point(x: 60, y: 0), Point(x: 60, y: 80), Point(x: 0, y: 80)]
      ])
      let plane = inkAlpha(Drawing(strokes: [stroke]), width: w, height: h)
      var outside: Float = 0
      for y in 0..<h { for x in 61..<w { outside += plane[y * w + x] } }
      #expect(outside == 0, "\(type)")
      #expect(plane.reduce(0, +) > 0, "\(type)")
    }
  }

  @Test("the standard catalog gives each ink type its own brush, and a registration replaces one")
  func catalogPerType() {
    func name(_ type: InkType, in catalog: InkCatalog = .standard) -> String {
      String(describing: Swift.type(of: catalog.brush(for: inkStroke(type, line(10, 40, 110, 40), width: 8))))
    }
    let expected: [InkType: String] = [
      .pen: "PenInk", .pencil: "PencilInk", .marker: "MarkerInk", .monoline: "MonolineInk",
      .fountainPen: "FountainPenInk", .watercolor: "WatercolorInk", .crayon: "CrayonInk", .reed: "ReedInk",
    ]
    for type in InkType.allCases { #expect(name(type) == expected[type], "\(type)") }
    var catalog = InkCatalog()
    catalog.register(StampInk(), for: .crayon)
    for type in InkType.allCases {
      #expect(name(type, in: catalog) == (type == .crayon ? "StampInk" : expected[type]), "\(type)")
    }
  }

  @Test("a custom ink registered by an app draws through the same tiles and threads")
  func customInk() {
    var catalog = InkCatalog()
    catalog.register(StampInk(), for: .monoline)
    var stroke = inkStroke(.monoline, line(10, 40, 110, 40), width: 16)
    for i in stroke.path.controlPoints.indices { stroke.path.controlPoints[i].rollAngle = Float(i) * 0.3 }
    let one = inkAlpha(Drawing(strokes: [stroke]), width: w, height: h, threads: 1, inks: catalog)
    let two = inkAlpha(Drawing(strokes: [stroke]), width: w, height: h, threads: 2, inks: catalog)
    let plain = inkAlpha(Drawing(strokes: [stroke]), width: w, height: h)
    #expect(one == two)
    #expect(one != plain)
    #expect(one.reduce(0, +) > 0.2 * plain.reduce(0, +))
    var chosen = InkCatalog()
    chosen.chooser = { $0.randomSeed == 7 ? StampInk() : nil }
    #expect(inkAlpha(Drawing(strokes: [stroke]), width: w, height: h, inks: chosen) == one)
  }

  @Test("a brush registered for the pen, or chosen for a pen stroke, replaces the built-in pen")
  func penReplaced() {
    let stroke = inkStroke(.pen, line(10, 40, 110, 40), width: 16)
    let view = AffineTransform.identity
    let builtIn = SceneBuilder.primitives(for: Drawing(strokes: [stroke]), view: view)
    let stamp = StampInk().primitives(for: stroke, view: view)
    #expect(!builtIn.isEmpty && !stamp.isEmpty && builtIn != stamp)
    var registered = InkCatalog()
    registered.register(StampInk(), for: .pen)
    #expect(SceneBuilder.primitives(for: Drawing(strokes: [stroke]), view: view, inks: registered) == stamp)
    var chosen = InkCatalog()
    chosen.chooser = { _ in StampInk() }
    #expect(SceneBuilder.primitives(for: Drawing(strokes: [stroke]), view: view, inks: chosen) == stamp)
    var declined = InkCatalog()
    declined.chooser = { _ in nil }
    #expect(SceneBuilder.primitives(for: Drawing(strokes: [stroke]), view: view, inks: declined) == builtIn)
  }

  /// Paints, per stroke, a square that draws, one with no alpha, an empty path, then a second
  /// square: only `primitives(for:view:)`, so the scene builder takes the default append.
  struct SquaresBrush: Brush {
    func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive] {
      let x = stroke.path.controlPoints[0].location.x
      let ink = LinearColor(red: 0.2, green: 0.1, blue: 0, alpha: 1)
      return [
        Primitive(path: FlatPath(contour: rectangle(x, 2, x + 4, 6)), color: ink),
        Primitive(path: FlatPath(contour: rectangle(x, 10, x + 4, 14)), color: .clear),
        Primitive(path: FlatPath(), color: ink),
        Primitive(path: FlatPath(contour: rectangle(x, 20, x + 4, 24)), color: ink),
      ]
    }
  }

  @Test("the scene builder appends each brush's primitives in order and leaves out what draws nothing")
  func appendedPrimitives() {
    var catalog = InkCatalog()
    catalog.register(SquaresBrush(), for: .monoline)
    let strokes = [
      inkStroke(.monoline, line(10, 40, 110, 40), width: 8), inkStroke(.pen, line(10, 60, 110, 70), width: 8),
      inkStroke(.monoline, line(30, 40, 130, 40), width: 8), inkStroke(.pen, line(10, 90, 110, 80), width: 0),
    ]
    let built = SceneBuilder.primitives(for: Drawing(strokes: strokes), view: .identity, inks: catalog)
    let expected = strokes.flatMap { stroke in
      catalog.brush(for: stroke).primitives(for: stroke, view: .identity).filter {
        $0.color.alpha > 0 && !$0.path.isEmpty
      }
    }
    #expect(built == expected)
    #expect(built.count == 5)
    #expect(built.map { $0.path.points[0].y } == [2, 20, built[2].path.points[0].y, 2, 20])
    #expect(built[3].path.points[0].x == 30)
    #expect(PenInk().primitives(for: strokes[1], view: .identity) == [built[2]])
    for threads in [2, 3] {
      let many = Drawing(strokes: Array(repeating: strokes, count: 8).flatMap { $0 })
      #expect(
        SceneBuilder.primitives(for: many, view: .identity, inks: catalog, threads: threads)
          == SceneBuilder.primitives(for: many, view: .identity, inks: catalog))
    }
  }
}
