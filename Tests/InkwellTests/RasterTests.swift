import InkwellKernels
import InkwellModel
import InkwellRender
import Testing

/// Fills `path` in opaque white on a clear canvas; the alpha plane is the coverage.
func coverage(_ path: FlatPath, rule: FillRule, width: Int, height: Int, threads: Int = 1) -> [Float] {
  let primitive = Primitive(path: path, rule: rule, color: LinearColor(red: 1, green: 1, blue: 1, alpha: 1))
  let linear = Renderer(threads: threads).renderLinear(
    [primitive], width: width, height: height, background: .clear)
  return stride(from: 3, to: linear.count, by: 4).map { linear[$0] }
}

func rectangle(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, clockwise: Bool = true) -> [Point] {
  let corners = [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
  return clockwise ? corners : corners.reversed()
}

/// Area of the pixel (px, py) inside the rectangle.
func analyticCoverage(px: Int, py: Int, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> Float {
  let ox = Swift.max(0, Swift.min(Float(px + 1), x1) - Swift.max(Float(px), x0))
  let oy = Swift.max(0, Swift.min(Float(py + 1), y1) - Swift.max(Float(py), y0))
  return ox * oy
}

@Suite("Exact-area coverage")
struct CoverageTests {
  static let rectangles: [(Float, Float, Float, Float)] = [
    (3.25, 5.7, 40.6, 33.35),  // crosses tile borders on both axes
    (0.5, 0.5, 1.25, 70.125),  // a sliver under two pixels wide
    (31.9, 31.9, 32.1, 32.1),  // a tiny square on a tile corner
    (32, 0, 64, 32),  // exactly one tile
    (-20.3, -7.6, 17.2, 90.9),  // partly outside the canvas
    (10.01, 44.99, 90.99, 45.01),  // a horizontal hairline
    (60.75, 2.5, 200, 47.5),  // off the right edge
  ]

  @Test("rectangles with fractional edges match the analytic area within 1e-5", arguments: rectangles)
  func fractionalRectangles(_ r: (Float, Float, Float, Float)) {
    let (w, h) = (96, 80)
    for rule in [FillRule.nonZero, .evenOdd] {
      for clockwise in [true, false] {
        let path = FlatPath(contours: [rectangle(r.0, r.1, r.2, r.3, clockwise: clockwise)])
        let cov = coverage(path, rule: rule, width: w, height: h)
        var worst: Float = 0
        for y in 0..<h {
          for x in 0..<w {
            worst = Swift.max(worst, abs(cov[y * w + x] - analyticCoverage(px: x, py: y, r.0, r.1, r.2, r.3)))
          }
        }
        #expect(worst <= 1e-5, "rule \(rule), clockwise \(clockwise): worst error \(worst)")
      }
    }
  }

  @Test("non-zero fills an overlap of same-direction rectangles once; even-odd leaves a hole")
  func fillRules() {
    let a = rectangle(4.5, 4.5, 40.5, 40.5)
    let b = rectangle(20.25, 20.25, 60.75, 60.75)
    let path = FlatPath(contours: [a, b])
    let (w, h) = (64, 64)
    let nonZero = coverage(path, rule: .nonZero, width: w, height: h)
    let evenOdd = coverage(path, rule: .evenOdd, width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let ca = analyticCoverage(px: x, py: y, 4.5, 4.5, 40.5, 40.5)
        let cb = analyticCoverage(px: x, py: y, 20.25, 20.25, 60.75, 60.75)
        let both = analyticCoverage(px: x, py: y, 20.25, 20.25, 40.5, 40.5)
        // Where edges of both rectangles pass through one pixel, accumulated area counts their
        // overlap inside that pixel twice (the known limit of exact-area accumulation): skip.
        let partialA = ca > 0 && ca < 1
        let partialB = cb > 0 && cb < 1
        if partialA && partialB { continue }
        #expect(abs(nonZero[y * w + x] - (ca + cb - both)) <= 1e-5)
        #expect(abs(evenOdd[y * w + x] - (ca + cb - 2 * both)) <= 1e-5)
      }
    }
  }

  @Test("tiled binning equals a whole-canvas reference on random polygons", arguments: 0..<12)
  func binningMatchesReference(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed) + 100)
    let (w, h) = (150, 110)
    var contours: [[Point]] = []
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      let n = Int.random(in: 3...12, using: &rng)
      contours.append((0..<n).map { _ in Point(x: rng.float(-40...190), y: rng.float(-30...140)) })
    }
    // Snap some vertices onto tile borders, where binning has the most corner cases.
    if seed % 2 == 0 {
      for c in contours.indices {
        for i in contours[c].indices where i % 3 == 0 {
          contours[c][i].x = (contours[c][i].x / 32).rounded() * 32
        }
      }
    }
    expectTiledMatchesReference(FlatPath(contours: contours), width: w, height: h, seed: seed)
  }

  @Test("a fill whose sides lie on tile borders leaves its tiles without pieces and covers them whole")
  func tileAlignedFills() {
    // 160 × 128: five tile columns, four rows. The page itself, and a block of four tiles inside it.
    let (w, h) = (160, 128)
    for clockwise in [true, false] {
      let page = rectangle(0, 0, 160, 128, clockwise: clockwise)
      let block = rectangle(32, 32, 96, 96, clockwise: clockwise)
      for rule in [FillRule.nonZero, .evenOdd] {
        for contours in [[page], [block], [page, block]] {
          let path = FlatPath(contours: contours)
          let bins = Renderer.bin(
            [Primitive(path: path, rule: rule, color: LinearColor(.black))], width: w, height: h)
          #expect(bins.entries.allSatisfy { $0.segmentCount == 0 }, "\(contours.count) contour(s), \(rule)")
          let cov = coverage(path, rule: rule, width: w, height: h)
          var wrong = 0
          for y in 0..<h {
            for x in 0..<w {
              let inPage = contours.count != 1 || contours[0] == page
              let inBlock = contours.count == 2 || contours[0] == block
              let covered = (inPage ? 1 : 0) + (inBlock && x >= 32 && x < 96 && y >= 32 && y < 96 ? 1 : 0)
              let expected: Float = rule == .nonZero ? (covered > 0 ? 1 : 0) : (covered == 1 ? 1 : 0)
              if cov[y * w + x] != expected { wrong += 1 }
            }
          }
          #expect(wrong == 0, "\(contours.count) contour(s), \(rule), clockwise \(clockwise)")
        }
      }
      // A piece of another kind in one of the block's tiles keeps that tile's pieces.
      let path = FlatPath(contours: [block, [Point(x: 40, y: 40), Point(x: 60, y: 44), Point(x: 44, y: 58)]])
      let bins = Renderer.bin(
        [Primitive(path: path, rule: .nonZero, color: LinearColor(.black))], width: w, height: h)
      #expect(bins.entries.filter { $0.segmentCount > 0 }.count == 1)
      expectTiledMatchesReference(path, width: w, height: h, seed: clockwise ? 1 : 0)
    }
  }

  @Test("a path's contours: ends, count and each contour's vertices, one contour or several")
  func flatPathContours() {
    let a = rectangle(1, 1, 5, 5)
    let b = rectangle(10, 10, 20, 12, clockwise: false)
    let sliver = [Point(x: 3, y: 3)]
    func contours(_ path: FlatPath) -> [[Point]] {
      var result: [[Point]] = []
      path.forEachContour { result.append(Array($0)) }
      return result
    }

    let empty = FlatPath(contours: [sliver, []])
    #expect(empty.isEmpty && empty.contourCount == 0 && empty.contourEnds.isEmpty && empty.points.isEmpty)
    #expect(contours(empty).isEmpty)
    #expect(FlatPath(contour: sliver).isEmpty)

    let one = FlatPath(contour: a)
    #expect(one == FlatPath(contours: [a]))
    #expect(one.contourCount == 1 && one.contourEnds == [4] && contours(one) == [a])

    var several = FlatPath()
    several.append(contour: a)
    several.append(contour: sliver)
    several.append(contour: b)
    several.append(contour: a)
    #expect(several == FlatPath(contours: [a, b, a]))
    #expect(several != FlatPath(contours: [a + b, a]))
    #expect(several.contourCount == 3 && several.contourEnds == [4, 8, 12])
    #expect(contours(several) == [a, b, a])
    #expect(several.points == a + b + a)
  }
}

extension CoverageTests {
  /// Tiled coverage of `path` under both rules against the whole-canvas reference.
  func expectTiledMatchesReference(_ path: FlatPath, width w: Int, height h: Int, seed: Int) {
    for rule in [FillRule.nonZero, .evenOdd] {
      let tiled = coverage(path, rule: rule, width: w, height: h)
      let reference = CanvasReference.coverage(of: path, rule: rule, width: w, height: h)
      let worst = zip(tiled, reference).map { abs($0 - $1) }.max() ?? 0
      #expect(worst <= 2e-4, "seed \(seed), rule \(rule): worst difference \(worst)")
    }
  }

  @Test("binning equals the whole-canvas reference on outlines of short edges", arguments: 0..<8)
  func shortEdgesMatchReference(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed) + 300)
    let (w, h) = (150, 110)
    // Wandering loops with an edge every 0.5–3 px: long runs of edges inside one tile, crossings,
    // zero-length and horizontal edges, points on tile borders, and parts outside the canvas.
    var contours: [[Point]] = []
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      var p = Point(x: rng.float(-20...170), y: rng.float(-20...130))
      var heading = rng.float(-3...3)
      var contour: [Point] = []
      for _ in 0..<Int.random(in: 40...400, using: &rng) {
        heading += rng.float(-0.4...0.4)
        let step = rng.float(0.5...3)
        p = Point(x: p.x + step * FloatMath.cos(heading), y: p.y + step * FloatMath.sin(heading))
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: contour.append(p)  // a zero-length edge follows
        case 1: p.y = contour.last?.y ?? p.y  // horizontal
        case 2: p.x = (p.x / 32).rounded() * 32  // on a tile border
        default: break
        }
        contour.append(p)
      }
      contours.append(contour)
    }
    expectTiledMatchesReference(FlatPath(contours: contours), width: w, height: h, seed: seed)
  }
}

@Suite("C kernels against the scalar Swift reference")
struct KernelTests {
  @Test("sRGB thresholds are the same table")
  func thresholds() {
    for k in 1...255 {
      #expect(inkwell_srgb8_threshold(Int32(k)) == KernelReference.srgbThresholds[k], "code \(k)")
    }
  }

  @Test("sRGB encoding rounds to the nearest code")
  func srgbRounding() {
    for k in 0...255 {
      let encoded = Float(k) / 255
      let linear = SRGBTransfer.linear(fromEncoded: encoded)
      #expect(KernelReference.srgb8(fromLinear: linear) == UInt8(k))
    }
  }

  @Test("line accumulation, coverage and compositing are bit-identical", arguments: 0..<4)
  func accumulateAndComposite(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed))
    let cellCount = Int(INKWELL_CELL_BUFFER_COUNT)
    let pixels = Int(INKWELL_TILE_PIXELS)
    var cellsC = [Float](repeating: 0, count: cellCount)
    var cellsS = cellsC
    for _ in 0..<200 {
      let (x0, y0, x1, y1) = (rng.float(-2...34), rng.float(-2...34), rng.float(-2...34), rng.float(-2...34))
      inkwell_accumulate_line(&cellsC, x0, y0, x1, y1)
      KernelReference.accumulateLine(cells: &cellsS, x0, y0, x1, y1)
    }
    inkwell_add_backdrop(&cellsC, 1)
    KernelReference.addBackdrop(cells: &cellsS, 1)
    #expect(cellsC == cellsS)
    for rule in [FillRule.nonZero, .evenOdd] {
      var a = cellsC
      var b = cellsS
      var covC = [Float](repeating: 0, count: pixels)
      var covS = covC
      inkwell_resolve_coverage(&a, &covC, rule == .nonZero ? INKWELL_FILL_NONZERO : INKWELL_FILL_EVENODD)
      KernelReference.resolveCoverage(cells: &b, coverage: &covS, rule: rule)
      #expect(covC == covS)
      #expect(a.allSatisfy { $0 == 0 })

      var tileC = (0..<(4 * pixels)).map { _ in rng.float(0...1) }
      var tileS = tileC
      let color: [Float] = [0.2, 0.5, 0.1, 0.6]
      inkwell_composite_mask(&tileC, covC, color)
      KernelReference.compositeMask(tile: &tileS, coverage: covS, color: color)
      inkwell_composite_solid(&tileC, color, 0.3)
      KernelReference.compositeSolid(tile: &tileS, color: color, coverage: 0.3)
      #expect(tileC == tileS)

      var outC = [UInt8](repeating: 0, count: pixels * 4)
      var outS = outC
      inkwell_resolve_srgb8(tileC, 32, 32, &outC, 128)
      KernelReference.resolveSRGB8(tile: tileS, width: 32, height: 32, output: &outS, stride: 128)
      #expect(outC == outS)
    }
  }

  @Test("a whole scene renders to the same bytes with the C kernels and the reference")
  func wholeScene() {
    let drawing = randomDrawing(seed: 7, count: 60, width: 200, height: 150)
    let viewport = Viewport(region: Rect(x: 0, y: 0, width: 200, height: 150), width: 200, height: 150)
    let native = Renderer(threads: 1).render(drawing, viewport: viewport, background: .white)
    let reference = Renderer(threads: 1, kernels: KernelReference.kernels).render(
      drawing, viewport: viewport, background: .white)
    #expect(native == reference)
  }
}

@Suite("Tile shortcuts")
struct TileShortcutTests {
  /// Translucent and opaque rectangles covering whole tiles, some with fractional edges: most
  /// tiles end up one color, the rest are mixed.
  static func stackedRectangles() -> [Primitive] {
    let shapes: [(Float, Float, Float, Float, Color)] = [
      (0, 0, 160, 96, Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.5)),
      (32, 0, 128, 64, Color(red: 0.9, green: 0.1, blue: 0.1, alpha: 0.35)),
      (64, 32, 160, 96, Color(red: 0.1, green: 0.7, blue: 0.3)),
      (70.5, 40.25, 150, 90, Color(red: 1, green: 1, blue: 0, alpha: 0.2)),
      (0, 0, 64, 64, Color(red: 0, green: 0, blue: 0, alpha: 0.1)),
    ]
    return shapes.map { x0, y0, x1, y1, color in
      Primitive(path: FlatPath(contours: [rectangle(x0, y0, x1, y1)]), color: LinearColor(color))
    }
  }

  /// The 8-bit image as every tile composited whole and resolved on its own, without the
  /// rasterizer's shortcuts for empty and one-color tiles.
  /// An axis-aligned rectangle filled non-zero with `color`.
  static func fill(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ color: Color) -> Primitive {
    Primitive(path: FlatPath(contours: [rectangle(x0, y0, x1, y1)]), color: LinearColor(color))
  }

  static func tileByTileBytes(
    _ primitives: [Primitive], width: Int, height: Int, renderer: Renderer
  ) -> [UInt8] {
    let bins = Renderer.bin(primitives, width: width, height: height)
    let expected = LockedBytes(count: width * height * 4)
    let kernels = renderer.rasterizer.kernels
    renderer.rasterizer.renderTiles(bins, primitives: primitives, background: LinearColor(.white), threads: 1)
    {
      col, row, tile in
      let w = Swift.min(32, width - col * 32)
      let h = Swift.min(32, height - row * 32)
      expected.withBytes { bytes in
        kernels.resolveSRGB8(tile, w, h, bytes + (row * 32 * width + col * 32) * 4, width * 4)
      }
    }
    return expected.bytes
  }

  @Test("tiles of one color resolve to the bytes a full resolve of each tile gives")
  func uniformTiles() {
    let (width, height) = (176, 100)
    // Last, an opaque rectangle over the lower right tiles: there nothing is composited over it.
    let cover = Primitive(
      path: FlatPath(contours: [rectangle(96, 64, 176, 100)]),
      color: LinearColor(Color(red: 0.05, green: 0.1, blue: 0.3)))
    let primitives = Self.stackedRectangles() + [cover]
    for kernels in [RasterKernels.native, KernelReference.kernels] {
      let renderer = Renderer(threads: 1, kernels: kernels)
      let image = renderer.render(primitives, width: width, height: height, background: .white)
      let expected = Self.tileByTileBytes(primitives, width: width, height: height, renderer: renderer)
      #expect(zip(image.pixels, expected).filter { $0 != $1 }.count == 0)
      // The shortcuts were taken: solid-only tiles, mixed ones, and those the cover ends.
      #expect(image.pixel(x: 100, y: 10) != image.pixel(x: 40, y: 10))
      #expect(image.pixel(x: 100, y: 70) == image.pixel(x: 170, y: 99))
      #expect(image.pixel(x: 100, y: 70) != image.pixel(x: 100, y: 10))
    }
  }

  @Test("runs of untouched tiles (within a row, whole rows, the ragged edge) get the background's bytes")
  func untouchedTileRuns() {
    // 200 × 170: seven tile columns (the last 8 pixels wide) and six rows (the last 10 high).
    let (width, height) = (200, 170)
    let marks: [(Float, Float, Float, Float)] = [
      (3.5, 2.25, 20, 9), (100.5, 40, 110, 60.75), (197, 100, 200, 101.5), (40, 160, 44, 170),
    ]
    let primitives = marks.map { x0, y0, x1, y1 in
      Primitive(
        path: FlatPath(contours: [rectangle(x0, y0, x1, y1)]),
        color: LinearColor(Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.8)))
    }
    let renderer = Renderer(threads: 1)
    let bins = Renderer.bin(primitives, width: width, height: height)
    let expected = Self.tileByTileBytes(primitives, width: width, height: height, renderer: renderer)
    for threads in [1, 2] {
      var image = RGBA8Image(
        width: width, height: height, pixels: [UInt8](repeating: 0xA5, count: width * height * 4))
      Renderer(threads: threads).render(primitives, into: &image, background: .white)
      let differing = zip(image.pixels, expected).filter { $0 != $1 }.count
      #expect(differing == 0, "\(threads) thread(s)")
    }
    // The public per-tile form still hands over each untouched tile on its own: all but the four
    // the marks touch (rows 2 and 4 entirely).
    let untouched = LockedBytes(count: 7 * 6)
    renderer.rasterizer.renderTilesSkippingEmpty(
      bins, primitives: primitives, background: LinearColor(.white), threads: 1
    ) { col, row, tile in
      if tile == nil { untouched.withBytes { $0[row * 7 + col] += 1 } }
    }
    var touched = [UInt8](repeating: 1, count: 7 * 6)
    for (col, row) in [(0, 0), (3, 1), (6, 3), (1, 5)] { touched[row * 7 + col] = 0 }
    #expect(untouched.bytes == touched)
  }

  @Test("runs of one-color tiles, covered or untouched, of one pixel or several, give the tiles' bytes")
  func oneColorTileRuns() {
    // 200 × 170: seven tile columns (the last 8 pixels wide) and six rows (the last 10 high).
    let (width, height) = (200, 170)
    let primitives = [
      // Paper on paper: covered tiles of the background's own pixel between untouched ones.
      Self.fill(64, 32, 160, 64, .white),
      // A translucent mark that splits row 1's run, and a covered ragged last column.
      Self.fill(170, 40, 180, 50, Color(red: 0.2, green: 0.5, blue: 0.1, alpha: 0.5)),
      Self.fill(192, 32, 200, 64, Color(red: 0.1, green: 0.6, blue: 0.2)),
      // A whole tile row of one color, and one with two colors side by side.
      Self.fill(0, 96, 200, 128, Color(red: 0.1, green: 0.2, blue: 0.7)),
      Self.fill(0, 128, 96, 160, Color(red: 0.8, green: 0.1, blue: 0.1)),
      Self.fill(96, 128, 200, 160, Color(red: 0.1, green: 0.2, blue: 0.7)),
      // The ragged last row, covered in part.
      Self.fill(0, 160, 64, 170, Color(red: 0.8, green: 0.1, blue: 0.1)),
    ]
    let renderer = Renderer(threads: 1)
    let expected = Self.tileByTileBytes(primitives, width: width, height: height, renderer: renderer)
    for threads in [1, 2, 3] {
      var image = RGBA8Image(
        width: width, height: height, pixels: [UInt8](repeating: 0xA5, count: width * height * 4))
      Renderer(threads: threads).render(primitives, into: &image, background: .white)
      let differing = zip(image.pixels, expected).filter { $0 != $1 }.count
      #expect(differing == 0, "\(threads) thread(s)")
      #expect(image.pixel(x: 10, y: 100) == image.pixel(x: 199, y: 127))
      #expect(image.pixel(x: 10, y: 140) != image.pixel(x: 150, y: 140))
      #expect(image.pixel(x: 100, y: 40) == image.pixel(x: 10, y: 10))
    }
  }

  @Test("a page large enough to stream its runs of one pixel gets the bytes of a tile-by-tile render")
  func streamedPage() {
    // 1 530 × 1 500 × 4 bytes is over the streaming size: whole empty tile rows, runs of
    // untouched tiles between marks, a covered run of one color, and the ragged last column and row.
    let (width, height) = (1530, 1500)
    #expect(width * height * 4 >= TileRasterizer.streamingImageBytes)
    let primitives = [
      Self.fill(40.5, 70.25, 90, 81, Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.8)),
      Self.fill(700, 300, 710.5, 900, Color(red: 0.7, green: 0.1, blue: 0.1)),
      Self.fill(0, 960, 1530, 1024, Color(red: 0.1, green: 0.5, blue: 0.2)),
      Self.fill(1500, 1480, 1530, 1500, Color(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.5)),
    ]
    let expected = Self.tileByTileBytes(
      primitives, width: width, height: height, renderer: Renderer(threads: 1))
    for threads in [1, 2] {
      var image = RGBA8Image(
        width: width, height: height, pixels: [UInt8](repeating: 0xA5, count: width * height * 4))
      Renderer(threads: threads).render(primitives, into: &image, background: .white)
      // Compared whole (a count of differing bytes only when they differ: 9 MB in a debug build).
      let differing = image.pixels == expected ? 0 : zip(image.pixels, expected).filter { $0 != $1 }.count
      #expect(differing == 0, "\(threads) thread(s)")
    }
  }

  @Test(
    "a run of one pixel fills exactly its rows, streamed or stored, at any offset",
    arguments: [
      // (start offset in bytes, width, height, gap after each row in pixels)
      (0, 40, 3, 0), (48, 1031, 70, 0), (4, 70_000, 1, 0), (60, 2048, 33, 0), (12, 1_500, 50, 5),
      (0, 1_024, 64, 0), (48, 1_029, 64, 3), (8, 1_023, 300, 1), (0, 16, 20_000, 0),
    ])
  func onePixelRuns(start: Int, width: Int, height: Int, gap: Int) {
    for stream: Int32 in [0, 1] {
      onePixelRun(start: start, width: width, height: height, gap: gap, stream: stream)
    }
  }

  private func onePixelRun(start: Int, width: Int, height: Int, gap: Int, stream: Int32) {
    // Rows from under a streamed row (4 KiB) to over it, whole rows (no gap) and rows inside wider
    // ones, starting off a cache line or on one, each streamed and stored.
    let stride = (width + gap) * 4
    let sentinel: UInt8 = 0xA5
    let pixel: UInt32 = 0x8040_2010
    var buffer = [UInt8](repeating: sentinel, count: start + stride * height + 64)
    buffer.withUnsafeMutableBytes { bytes in
      inkwell_fill_pixels(
        bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, stride, Int32(width), Int32(height),
        pixel, stream)
    }
    var wrong = 0
    for (index, byte) in buffer.enumerated() {
      let offset = index - start
      let inRow = offset >= 0 && offset < stride * height && offset % stride < width * 4
      let expected = inRow ? UInt8(truncatingIfNeeded: pixel >> (8 * UInt32(offset % 4))) : sentinel
      if byte != expected { wrong += 1 }
    }
    #expect(wrong == 0, "stream \(stream)")
  }

  @Test("rendering into an image overwrites every pixel with what a fresh render gives")
  func renderInto() {
    let drawing = randomDrawing(seed: 5, count: 40, width: 150, height: 90)
    let viewport = Viewport(region: Rect(x: 0, y: 0, width: 150, height: 90), width: 150, height: 90)
    let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
    let renderer = Renderer(threads: 2, minimumWorkPerThread: 0)
    let fresh = renderer.render(primitives, width: 150, height: 90, background: .clear)
    var reused = RGBA8Image(width: 150, height: 90, pixels: [UInt8](repeating: 0xA5, count: 150 * 90 * 4))
    renderer.render(primitives, into: &reused, background: .clear)
    #expect(reused == fresh)
    renderer.render(Self.stackedRectangles(), into: &reused, background: .clear)
    renderer.render(primitives, into: &reused, background: .clear)
    #expect(reused == fresh)
  }
}

@Suite("Bin storage")
struct BinStorageTests {
  @Test("renders that reuse one bin storage give the bytes of fresh renders, whatever came before")
  func reuseAcrossRenders() {
    // Scenes of different sizes and primitive counts, on 1 and 3 threads, so the storage goes
    // from one binning run to several and back, and from larger arrays to smaller ones.
    let scenes = [(seed: 21, count: 300), (seed: 22, count: 40), (seed: 23, count: 200)].map { scene in
      let drawing = randomDrawing(seed: UInt64(scene.seed), count: scene.count, width: 220, height: 160)
      let viewport = Viewport(region: Rect(x: 0, y: 0, width: 220, height: 160), width: 220, height: 160)
      return SceneBuilder.primitives(for: drawing, view: viewport.transform)
    }
    for keepsRunArrays in [true, false] {
      let storage = BinStorage(keepsRunArrays: keepsRunArrays)
      var image = RGBA8Image(width: 220, height: 160, pixels: [UInt8](repeating: 0, count: 220 * 160 * 4))
      for round in 0..<2 {
        for (index, primitives) in scenes.enumerated() {
          for threads in [1, 3] {
            let renderer = Renderer(threads: threads, minimumWorkPerThread: 0)
            let fresh = renderer.render(primitives, width: 220, height: 160, background: .white)
            renderer.render(primitives, into: &image, background: .white, storage: storage)
            #expect(
              image == fresh,
              "round \(round), scene \(index), \(threads) threads, keeps runs: \(keepsRunArrays)")
          }
        }
      }
    }
  }
}

/// Bytes written from several closures in turn.
private final class LockedBytes: @unchecked Sendable {
  private(set) var bytes: [UInt8]
  init(count: Int) { bytes = [UInt8](repeating: 0, count: count) }
  func withBytes(_ body: (UnsafeMutablePointer<UInt8>) -> Void) {
    bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  }
}

@Suite("Determinism")
struct DeterminismTests {
  @Test("1, 2 and 3 threads give identical bytes on a seeded random scene", arguments: [11, 12])
  func threadCounts(seed: Int) {
    let drawing = randomDrawing(seed: UInt64(seed), count: 150, width: 300, height: 260)
    let viewport = Viewport(region: Rect(x: 0, y: 0, width: 300, height: 260), width: 300, height: 260)
    let one = Renderer(threads: 1).render(drawing, viewport: viewport, background: .clear)
    let two = Renderer(threads: 2, minimumWorkPerThread: 0).render(
      drawing, viewport: viewport, background: .clear)
    let three = Renderer(threads: 3, minimumWorkPerThread: 0).render(
      drawing, viewport: viewport, background: .clear)
    #expect(one == two)
    #expect(one == three)
    #expect(one.pixels.contains { $0 != 0 })
  }

  @Test("a path with NaN, infinite and huge points among finite ones renders, the same on any thread count")
  func nonFinitePoints() {
    // The bounds pass over NaN, so the binner walks edges to and from it; and over coordinates
    // far off the canvas, whose cuts and pieces clamp to it.
    let odd: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38]
    let primitives = odd.enumerated().map { index, value in
      let x = 20 + Float(index) * 40
      let contour = [
        Point(x: x, y: 10), Point(x: x + 30, y: 12), Point(x: value, y: 50), Point(x: x + 25, y: 90),
        Point(x: x, y: value), Point(x: x + 5, y: 60),
      ]
      let color = LinearColor(Color(red: 0.1, green: 0.2, blue: 0.7, alpha: 0.6))
      return Primitive(path: FlatPath(contours: [contour]), color: color)
    }
    let one = Renderer(threads: 1).render(primitives, width: 230, height: 100, background: .white)
    let two = Renderer(threads: 2, minimumWorkPerThread: 0).render(
      primitives, width: 230, height: 100, background: .white)
    #expect(one == two)
    #expect(one == Renderer(threads: 1).render(primitives, width: 230, height: 100, background: .white))
  }
}
