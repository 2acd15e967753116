// Every SIMD level this machine has, held to the scalar Swift reference bit for bit: kernel by
// kernel on seeded random data, then a whole seeded scene. Levels the machine lacks are not run
// (their tests run on machines that have them; CI's x86-64 machines run scalar, sse2 and avx2).

import Foundation
import InkwellKernels
import InkwellModel
import InkwellRender
import Testing

/// Float arrays equal bit for bit (so NaN equals NaN and −0 differs from +0).
func bitwiseEqual(_ a: [Float], _ b: [Float]) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
}

/// A whole tile resolved to 8-bit by `kernels` and by the reference, 32 pixels a row.
func resolvedWholeTile(_ kernels: RasterKernels, _ tile: [Float]) -> (out: [UInt8], expected: [UInt8]) {
  var out = [UInt8](repeating: 0, count: 4 * 1024)
  var expected = out
  kernels.resolveSRGB8(tile, 32, 32, &out, 128)
  KernelReference.resolveSRGB8(tile: tile, width: 32, height: 32, output: &expected, stride: 128)
  return (out, expected)
}

/// Random cells as line accumulation leaves them: `lines` random pieces plus a backdrop.
func randomCells(_ rng: inout SeededGenerator, lines: Int, span: ClosedRange<Float>) -> [Float] {
  var cells = [Float](repeating: 0, count: Int(INKWELL_CELL_BUFFER_COUNT))
  var quads: [Float] = []
  for _ in 0..<lines {
    quads += [rng.float(span), rng.float(span), rng.float(span), rng.float(span)]
  }
  KernelReference.accumulateLines(cells: &cells, lines: quads, count: lines)
  KernelReference.addBackdrop(cells: &cells, Float(Int.random(in: -2...2, using: &rng)))
  return cells
}

/// A tile of premultiplied colors in 0…1, with some pixels empty, some opaque and some out of range.
func randomTile(_ rng: inout SeededGenerator) -> [Float] {
  let pixels = Int(INKWELL_TILE_PIXELS)
  var tile = [Float](repeating: 0, count: 4 * pixels)
  for i in 0..<pixels {
    let kind = Int.random(in: 0..<8, using: &rng)
    let alpha: Float = kind == 0 ? 0 : (kind == 1 ? 1 : rng.float(0...1))
    for p in 0..<3 { tile[p * pixels + i] = rng.float(0...1) * alpha }
    // A little above 1 or a component above alpha: clamped by the resolve.
    if kind == 2 { tile[i] = rng.float(1...1.5) }
    tile[3 * pixels + i] = kind == 3 ? rng.float(1...1.2) : alpha
  }
  return tile
}

func randomColor(_ rng: inout SeededGenerator) -> [Float] {
  let a = Int.random(in: 0..<3, using: &rng) == 0 ? 1 : rng.float(0...1)
  return [rng.float(0...1) * a, rng.float(0...1) * a, rng.float(0...1) * a, a]
}

@Suite("SIMD levels against the scalar Swift reference")
struct SIMDKernelTests {
  static let levels = SIMDLevel.available

  @Test("the levels the machine has include scalar and the default")
  func levelsAvailable() {
    #expect(Self.levels.first == .scalar)
    #expect(Self.levels.contains(SIMDLevel.best))
    #expect(Self.levels.contains(SIMDLevel.selected))
    #if arch(x86_64)
      #expect(Self.levels.contains(.sse2))
    #endif
    for (index, level) in SIMDLevel.allCases.enumerated() {
      #expect((RasterKernels.native(level: level) != nil) == level.isAvailable)
      #expect(
        String(cString: inkwell_simd_name(inkwell_simd_level(rawValue: UInt32(index)))) == level.rawValue)
    }
  }

  @Test("line accumulation and backdrops", arguments: levels)
  func accumulate(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 1)
    for _ in 0..<8 {
      var quads: [Float] = []
      for _ in 0..<100 {
        quads += [rng.float(-2...34), rng.float(-2...34), rng.float(-2...34), rng.float(-2...34)]
      }
      var cells = [Float](repeating: 0, count: Int(INKWELL_CELL_BUFFER_COUNT))
      var expected = cells
      kernels.accumulateLines(&cells, quads, 100)
      kernels.addBackdrop(&cells, -1)
      KernelReference.accumulateLines(cells: &expected, lines: quads, count: 100)
      KernelReference.addBackdrop(cells: &expected, -1)
      let real = Int(INKWELL_CELL_COUNT)
      #expect(bitwiseEqual(Array(cells[..<real]), Array(expected[..<real])))
    }
  }

  /// Pieces as binning cuts them from a flattened outline: chains of steps about a pixel long, in
  /// every direction, so that the vector levels' short-piece path meets one and two rows, one and
  /// two cells, level pieces, pieces on the tile's edges and corners, and now and then a long one.
  static func outlinePieces(_ rng: inout SeededGenerator, count: Int) -> [Float] {
    var quads: [Float] = []
    var x = rng.float(0...32)
    var y = rng.float(0...32)
    for index in 0..<count {
      var (nx, ny): (Float, Float)
      switch index % 29 {
      case 7: (nx, ny) = (rng.float(-3...35), y)  // level
      case 11: (nx, ny) = (32, rng.float(0...32))  // on the right edge
      case 13: (nx, ny) = (rng.float(0...32), 32)  // to the bottom edge
      case 17: (nx, ny) = (rng.float(-2...34), rng.float(-2...34))  // long
      case 19: (nx, ny) = (Float(Int(x)), Float(Int(y) + 1))  // cell corners
      default:
        let step = rng.float(0...1.6)
        let heading = rng.float(0...(2 * .pi))
        (nx, ny) = (x + step * FloatMath.cos(heading), y + step * FloatMath.sin(heading))
      }
      quads += [x, y, nx, ny]
      (x, y) = (Swift.min(Swift.max(nx, 0), 32), Swift.min(Swift.max(ny, 0), 32))
    }
    return quads
  }

  /// A closed loop of `count` pieces around (cx, cy) at about `radius`, or the same loop left open
  /// (its last piece dropped), so that rows right of it keep a winding to the tile's edge.
  static func loopPieces(
    _ rng: inout SeededGenerator, center: (Float, Float), radius: Float, count: Int, open: Bool
  ) -> [Float] {
    var points: [(Float, Float)] = []
    for k in 0..<count {
      let angle = 2 * Float.pi * Float(k) / Float(count)
      let r = radius * rng.float(0.7...1.3)
      points.append((center.0 + r * FloatMath.cos(angle), center.1 + r * FloatMath.sin(angle)))
    }
    var quads: [Float] = []
    for k in 0..<(open ? count - 1 : count) {
      let (a, b) = (points[k], points[(k + 1) % count])
      quads += [a.0, a.1, b.0, b.1]
    }
    return quads
  }

  @Test(
    "one primitive's fill, limited to the cells its pieces reach, equals the three kernels", arguments: levels
  )
  func fillLines(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 11)
    let real = Int(INKWELL_CELL_COUNT)
    for round in 0..<48 {
      let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
      let backdrop: Float = [0, 0, 1, -1, 2, 0][round % 6]
      var quads: [Float]
      switch round % 8 {
      case 0: quads = []
      case 1: quads = [3, 5, 20, 5, 1, 31, 30, 31]  // level pieces only
      case 2: quads = Self.outlinePieces(&rng, count: 60)
      case 3: quads = [32, 0, 32, 32, 31.5, 2, 32, 9]  // on and next to the right edge
      default:
        let radius: Float = [0.4, 2.5, 9, 20][round % 4]
        let center = (rng.float(-4...36), rng.float(-4...36))
        quads = Self.loopPieces(
          &rng, center: center, radius: radius, count: 6 + round, open: round % 3 == 0)
      }
      var cells = [Float](repeating: 0, count: Int(INKWELL_CELL_BUFFER_COUNT))
      var expectedCells = cells
      var tile = randomTile(&rng)
      let before = tile
      var expected = tile
      let color = randomColor(&rng)
      let count = quads.count / 4
      quads += [0, 0, 0, 0]  // a valid pointer when there are no pieces
      var blocks: UInt32 = 0
      kernels.fillLines(&tile, &cells, quads, count, backdrop, rule, color, &blocks)
      KernelReference.fillLines(
        tile: &expected, cells: &expectedCells, lines: quads, count: count, backdrop: backdrop, rule: rule,
        color: color)
      let same = bitwiseEqual(tile, expected)
      let cleared = cells[..<real].allSatisfy { $0.bitPattern == 0 }
      #expect(same, "round \(round), \(rule), backdrop \(backdrop)")
      #expect(cleared, "round \(round): cells left uncleared")
      // Every 8 × 8 block with a changed float is marked (tile layout: pixel (x, y) at x·32 + y).
      var changed: UInt32 = 0
      for i in 0..<tile.count where tile[i].bitPattern != before[i].bitPattern {
        let pixel = i % 1024
        changed |= 1 << ((pixel / 32) / 8 + 4 * ((pixel % 32) / 8))
      }
      #expect(changed & ~blocks == 0, "round \(round): changed blocks \(changed), marked \(blocks)")
    }
  }

  /// The cells (the first INKWELL_CELL_COUNT) after `kernels` and after the reference accumulate
  /// `quads` (x0, y0, x1, y1 each) into empty cells.
  static func accumulated(_ kernels: RasterKernels, _ quads: [Float]) -> (cells: [Float], expected: [Float]) {
    let count = quads.count / 4
    var cells = [Float](repeating: 0, count: Int(INKWELL_CELL_BUFFER_COUNT))
    var expected = cells
    kernels.accumulateLines(&cells, quads, count)
    KernelReference.accumulateLines(cells: &expected, lines: quads, count: count)
    let real = Int(INKWELL_CELL_COUNT)
    return (Array(cells[..<real]), Array(expected[..<real]))
  }

  @Test("long shallow pieces, across two to six cells a row, accumulate bit-identically", arguments: levels)
  func accumulateShallowPieces(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 23)
    for round in 0..<40 {
      // Pieces across 3 to 12 rows, the second pass's, whose row segments each span about
      // `across` cells: the vector levels take up to three cells a segment themselves.
      let across: Float = [1.2, 2.0, 2.5, 2.99, 3.0, 3.4, 4.5, 6][round % 8]
      var quads: [Float] = []
      for _ in 0..<(5 + round) {
        let rows = rng.float(2.5...12)
        let x0 = rng.float(-2...30)
        let y0 = rng.float(-2...30)
        let x1 = x0 + (Bool.random(using: &rng) ? 1 : -1) * across * rows
        let y1 = y0 + (Bool.random(using: &rng) ? 1 : -1) * rows
        quads += round % 2 == 0 ? [x0, y0, x1, y1] : [x1, y1, x0, y0]
      }
      let (cells, expected) = Self.accumulated(kernels, quads)
      #expect(bitwiseEqual(cells, expected), "round \(round), \(across) a row")
      #expect(cells.contains { $0 != 0 })
    }
  }

  @Test("short outline pieces accumulate bit-identically, NaN pieces add nothing", arguments: levels)
  func accumulateOutlinePieces(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 7)
    for round in 0..<24 {
      var quads = Self.outlinePieces(&rng, count: 40 + 37 * round)
      if round % 4 == 3 {
        // Not-a-number coordinates, which the reference skips, at a few places.
        for k in stride(from: 5, to: quads.count, by: 61) { quads[k] = .nan }
      }
      let (cells, expected) = Self.accumulated(kernels, quads)
      #expect(bitwiseEqual(cells, expected), "round \(round)")
      #expect(cells.contains { $0 != 0 })
    }
  }

  @Test("coverage resolve under both fill rules", arguments: levels)
  func resolveCoverage(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 2)
    for round in 0..<12 {
      let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
      var cells = randomCells(&rng, lines: 10 + round * 20, span: -2...34)
      var expectedCells = cells
      var coverage = [Float](repeating: -1, count: Int(INKWELL_TILE_PIXELS))
      var expected = coverage
      kernels.resolveCoverage(&cells, &coverage, rule)
      KernelReference.resolveCoverage(cells: &expectedCells, coverage: &expected, rule: rule)
      #expect(bitwiseEqual(coverage, expected), "round \(round), \(rule)")
      #expect(cells.allSatisfy { $0.bitPattern == 0 })
    }
  }

  @Test("coverage under the floor is none, at and above it kept, under both rules", arguments: levels)
  func coverageFloor(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    let floor = INKWELL_COVERAGE_FLOOR
    // Row sums: residues of cancelled pieces (a few units in the last place of 1 or 2), the floor
    // and its neighbours, and ordinary coverage.
    let sums: [Float] = [
      0, 1e-7, -1e-7, 3e-6, -3e-6, floor.nextDown, floor, -floor, floor.nextUp, 0.25, -0.75, 1, 1.5,
      (1 as Float).nextUp, (2 as Float).nextUp, (2 as Float).nextDown, 2 + 4e-6, 3 - 2e-6, 4, -2,
    ]
    for rule in [FillRule.nonZero, .evenOdd] {
      var cells = [Float](repeating: 0, count: Int(INKWELL_CELL_BUFFER_COUNT))
      for row in 0..<32 { cells[row] = sums[row % sums.count] }
      var expectedCells = cells
      var coverage = [Float](repeating: -1, count: Int(INKWELL_TILE_PIXELS))
      var expected = coverage
      kernels.resolveCoverage(&cells, &coverage, rule)
      KernelReference.resolveCoverage(cells: &expectedCells, coverage: &expected, rule: rule)
      #expect(bitwiseEqual(coverage, expected), "\(rule)")
      for row in 0..<32 {
        // Column 0 holds the row's whole sum; every column after it the same.
        let m = expected[row]
        #expect(m == 0 || m >= floor, "row \(row), \(rule): \(m)")
      }
    }
    #expect(KernelReference.coverage(winding: 1e-7, rule: .nonZero) == 0)
    #expect(KernelReference.coverage(winding: -floor.nextDown, rule: .nonZero) == 0)
    #expect(KernelReference.coverage(winding: floor, rule: .nonZero) == floor)
    #expect(KernelReference.coverage(winding: (2 as Float).nextUp, rule: .evenOdd) == 0)
    #expect(KernelReference.coverage(winding: 0.25, rule: .evenOdd) == 0.25)
  }

  @Test("mask, solid and fill compositing", arguments: levels)
  func composite(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 3)
    let pixels = Int(INKWELL_TILE_PIXELS)
    for round in 0..<6 {
      var tile = randomTile(&rng)
      var expected = tile
      var coverage = (0..<pixels).map { _ in
        let kind = Int.random(in: 0..<4, using: &rng)
        return kind == 0 ? 0 : (kind == 1 ? 1 : rng.float(0...1))
      }
      // Whole runs of 4, 8 and 16 pixels at +0 or −0 (which the vector levels skip), and runs
      // that only negative coverage reaches (which they do not).
      for start in stride(from: 0, to: pixels, by: 16) where Int.random(in: 0..<3, using: &rng) > 0 {
        let length = [4, 8, 16][Int.random(in: 0..<3, using: &rng)]
        let value: Float = [0, -0.0, -0.25][Int.random(in: 0..<3, using: &rng)]
        for i in start..<(start + length) { coverage[i] = value }
      }
      let color = randomColor(&rng)
      kernels.compositeMask(&tile, coverage, color)
      KernelReference.compositeMask(tile: &expected, coverage: coverage, color: color)
      #expect(bitwiseEqual(tile, expected), "mask, round \(round)")
      let m = round == 0 ? 1 : rng.float(0...1)
      kernels.compositeSolid(&tile, color, m)
      KernelReference.compositeSolid(tile: &expected, color: color, coverage: m)
      #expect(bitwiseEqual(tile, expected), "solid, round \(round)")
    }
    // A −0 component is stored as +0.
    let color: [Float] = [-0.0, 0.25, 1, 1]
    var tile = [Float](repeating: 7, count: 4 * pixels)
    var expected = tile
    kernels.fillTile(&tile, color)
    KernelReference.fillTile(tile: &expected, color: color)
    #expect(bitwiseEqual(tile, expected))
    #expect(tile[0].bitPattern == 0)
  }

  @Test("fused coverage and compositing equals resolve then composite", arguments: levels)
  func fillCoverage(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 4)
    for round in 0..<16 {
      let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
      // Small spans leave most of the tile uncovered, where the vector code skips work.
      let low = rng.float(-2...28)
      let span = round % 4 < 2 ? low...(low + rng.float(0.5...6)) : Float(-2)...34
      var cells = randomCells(&rng, lines: 4 + round * 6, span: span)
      var expectedCells = cells
      var tile = randomTile(&rng)
      var expected = tile
      let color = randomColor(&rng)
      kernels.fillCoverage(&tile, &cells, rule, color)
      KernelReference.fillCoverage(tile: &expected, cells: &expectedCells, rule: rule, color: color)
      #expect(bitwiseEqual(tile, expected), "round \(round), \(rule)")
      #expect(cells.allSatisfy { $0.bitPattern == 0 })
    }
  }

  @Test("resolve to 8-bit sRGB, whole and partial tiles", arguments: levels)
  func resolveSRGB8(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 5)
    for round in 0..<8 {
      let tile = randomTile(&rng)
      let width = round < 2 ? 32 : Int.random(in: 1...32, using: &rng)
      let height = round < 2 ? 32 : Int.random(in: 1...32, using: &rng)
      // Rows wider than the tile: bytes past `width` must stay untouched.
      let stride = 4 * 40
      var out = [UInt8](repeating: 0xA5, count: stride * 32)
      var expected = out
      kernels.resolveSRGB8(tile, width, height, &out, stride)
      KernelReference.resolveSRGB8(
        tile: tile, width: width, height: height, output: &expected, stride: stride)
      #expect(out == expected, "round \(round), \(width) × \(height)")
    }
  }

  @Test("resolve of a tile whose unmarked 8 × 8 blocks hold one color", arguments: levels)
  func resolveSRGB8Blocks(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 15)
    let colors: [(Float, Float, Float, Float)] = [
      (1, 1, 1, 1), (0.2, 0.3, 0.9, 1), (0.1, 0.1, 0.05, 0.5), (0, 0, 0, 0),
    ]
    for round in 0..<24 {
      var tile = randomTile(&rng)
      let clean = colors[round % colors.count]
      let blocks = round < 2 ? [0, 0xffff][round] : UInt32.random(in: 0...0xffff, using: &rng)
      for i in 0..<1024 where blocks >> ((i / 32) / 8 + 4 * ((i % 32) / 8)) & 1 == 0 {
        (tile[i], tile[1024 + i], tile[2048 + i], tile[3072 + i]) = clean
      }
      var pixel = [UInt8](repeating: 0, count: 4)
      var one = [Float](repeating: 0, count: 4 * 1024)
      for p in 0..<4 { one[p * 1024] = [clean.0, clean.1, clean.2, clean.3][p] }
      KernelReference.resolveSRGB8(tile: one, width: 1, height: 1, output: &pixel, stride: 4)
      let cleanPixel = pixel.withUnsafeBytes { $0.load(as: UInt32.self) }
      // Rows wider than the tile: bytes past it must stay untouched.
      let stride = 4 * 40
      var out = [UInt8](repeating: 0xA5, count: stride * 32)
      var expected = out
      kernels.resolveSRGB8Blocks(tile, blocks, cleanPixel, &out, stride)
      KernelReference.resolveSRGB8(tile: tile, width: 32, height: 32, output: &expected, stride: stride)
      #expect(out == expected, "round \(round), blocks \(blocks)")
    }
  }

  @Test("resolve of tiles made of runs of one color, as paper with a stroke across it", arguments: levels)
  func resolveRuns(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 9)
    // A few colors, among them ones that compare equal but differ in sign or are not equal to
    // themselves, painted in runs of random length down the columns.
    let colors: [(Float, Float, Float, Float)] = [
      (1, 1, 1, 1), (0.5, 0.25, 0.125, 1), (0, 0, 0, 0), (-0.0, 0, -0.0, -0.0), (.nan, 0.5, 0.5, 1),
      (0.3, 0.3, 0.3, 0.6), (2, 0.9999, 0.00001, 1),
    ]
    for round in 0..<16 {
      var tile = [Float](repeating: 0, count: 4 * 1024)
      var i = 0
      while i < 1024 {
        let color = colors[Int.random(in: 0..<(round < 8 ? 3 : colors.count), using: &rng)]
        let run = Int.random(in: 1...40, using: &rng)
        for j in i..<Swift.min(1024, i + run) {
          (tile[j], tile[1024 + j], tile[2048 + j], tile[3072 + j]) = color
        }
        i += run
      }
      let (out, expected) = resolvedWholeTile(kernels, tile)
      #expect(out == expected, "round \(round)")
    }
  }

  @Test(
    "resolve of gray and part-gray groups: channels equal in all lanes, or in all but one", arguments: levels)
  func resolveEqualChannels(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 14)
    let odd: [Float] = [0, -0.0, .nan, 1, 0.5, KernelReference.srgbThresholds[128]]
    for round in 0..<16 {
      var tile = [Float](repeating: 1, count: 4 * 1024)
      // Groups of eight pixels down a column, the vector levels' lanes.
      for group in stride(from: 0, to: 1024, by: 8) {
        let shape = Int.random(in: 0..<7, using: &rng)
        for k in group..<(group + 8) {
          let v =
            Int.random(in: 0..<10, using: &rng) == 0
            ? odd[Int.random(in: 0..<odd.count, using: &rng)] : rng.float(0...1)
          var (r, g, b) = (v, v, v)
          switch shape {
          case 1: b = rng.float(0...1)  // red and green equal
          case 2: g = rng.float(0...1)  // red and blue equal
          case 3: r = rng.float(0...1)  // green and blue equal
          case 4: if k == group + 7 { b = v.isNaN ? 0.5 : v.nextUp }  // gray but for one lane
          case 5: (r, g, b) = (v, v.isNaN ? v : -v, v)  // signs of zero (and values) differ
          case 6: (r, g, b) = (rng.float(0...1), rng.float(0...1), rng.float(0...1))
          default: break
          }
          (tile[k], tile[1024 + k], tile[2048 + k]) = (r, g, b)
          tile[3072 + k] = round % 2 == 0 ? 1 : rng.float(0.01...1)
        }
      }
      let (out, expected) = resolvedWholeTile(kernels, tile)
      #expect(out == expected, "round \(round)")
    }
  }

  @Test("resolve of opaque tiles (ink over paper): alpha exactly 1, any color", arguments: levels)
  func resolveOpaque(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 12)
    let odd: [Float] = [0, -0.0, 1, 1.25, .nan, KernelReference.srgbThresholds[255], 0.5]
    for round in 0..<12 {
      var tile = [Float](repeating: 1, count: 4 * 1024)
      for j in 0..<(3 * 1024) {
        tile[j] =
          Int.random(in: 0..<12, using: &rng) == 0
          ? odd[Int.random(in: 0..<odd.count, using: &rng)] : rng.float(0...1)
      }
      // Some groups of paper: every channel at or above the threshold of code 255.
      for j in stride(from: 8 * round, to: 1024, by: 96) {
        for c in 0..<3 { for k in 0..<8 { tile[c * 1024 + j + k] = 1 } }
      }
      let (out, expected) = resolvedWholeTile(kernels, tile)
      #expect(out == expected, "round \(round)")
    }
  }

  @Test(
    "resolve of paper with faint stroke edges: channels around the threshold of code 255", arguments: levels)
  func resolveNearWhite(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    var rng = SeededGenerator(seed: 10)
    let top = KernelReference.srgbThresholds[255]
    // Straddling the threshold by a few ulps, exactly on it, far above it, NaN, and translucent.
    let near: [Float] = [top, top.nextUp, top.nextDown, top.nextDown.nextDown, 1, 1.5, 0.999, .nan]
    for round in 0..<24 {
      var tile = [Float](repeating: 1, count: 4 * 1024)
      for j in 0..<1024 {
        // Mostly the top values, so that many groups lie wholly at or above the threshold.
        let pick = { (rng: inout SeededGenerator) -> Float in
          Int.random(in: 0..<16, using: &rng) == 0
            ? near[Int.random(in: 0..<near.count, using: &rng)] : near[Int.random(in: 0..<2, using: &rng)]
        }
        let alpha: Float = round % 3 == 2 ? rng.float(0.5...1) : 1
        tile[j] = pick(&rng) * alpha
        tile[1024 + j] = pick(&rng) * alpha
        tile[2048 + j] = pick(&rng) * alpha
        tile[3072 + j] = alpha
      }
      let (out, expected) = resolvedWholeTile(kernels, tile)
      #expect(out == expected, "round \(round)")
      if round == 0 { #expect(out.contains(254) && out.contains(255)) }
    }
  }

  /// `level`'s whole-tile dithered sRGB resolve (nil where it has none, as the scalar level), as a
  /// function of a 32 × 32 tile, the resolve parameters, the origin, dither, the blocks that may
  /// differ from the background and their clean source (rows of 128 bytes), and the output (rows
  /// of 128 bytes); it returns what the kernel does (0 unless it declined).
  static func ditheredResolve(_ level: SIMDLevel) throws -> (
    ([Float], inkwell_resolve_params, Int, Int, Bool, UInt32, [UInt8]?, inout [UInt8]) -> Int32
  )? {
    let index = UInt32(SIMDLevel.allCases.firstIndex(of: level)!)
    let table = try #require(inkwell_kernels_for(inkwell_simd_level(rawValue: index))?.pointee)
    guard let kernel = table.resolve_srgb8_dithered else { return nil }
    return { tile, p, x, y, dither, blocks, clean, out in
      withUnsafePointer(to: p.matrix) { matrix in
        matrix.withMemoryRebound(to: Float.self, capacity: 9) { m in
          guard let clean else {
            return kernel(tile, m, p.knee, Int32(x), Int32(y), dither ? 1 : 0, blocks, nil, 0, &out, 128)
          }
          return clean.withUnsafeBufferPointer {
            kernel(
              tile, m, p.knee, Int32(x), Int32(y), dither ? 1 : 0, blocks, $0.baseAddress, 128, &out, 128)
          }
        }
      }
    }
  }

  @Test("the dithered sRGB resolve of whole tiles equals the reference loop", arguments: levels)
  func resolveDithered(level: SIMDLevel) throws {
    guard let resolve = try Self.ditheredResolve(level) else {
      #expect(level == .scalar)
      return
    }
    var rng = SeededGenerator(seed: 13)
    let plane = Int(INKWELL_TILE_PIXELS)
    let spaces: [ColorSpace] = [.sRGB, .displayP3]
    var resolved = 0
    for round in 0..<24 {
      let settings = ResolveSettings(
        colorSpace: spaces[round % 2], transfer: .sRGB,
        toneMapping: ToneMapping(contentPeak: round % 6 == 5 ? 4 : 1, headroom: 1))
      let p = settings.kernelParameters
      // Paper with strokes: runs of white, of ink, translucent and transparent pixels, values a few
      // ulps around code starts, channels above the knee now and then, and NaN.
      var tile = [Float](repeating: 1, count: plane * 4)
      for i in 0..<plane {
        let kind = Int.random(in: 0..<14, using: &rng)
        let alpha: Float = kind == 0 ? 0 : (kind < 3 ? rng.float(0.05...1) : 1)
        var rgb: [Float]
        switch kind {
        case 3, 4, 5: rgb = [1, 1, 1]
        case 6:
          rgb = (0..<3).map { _ in KernelReference.srgbThresholds[Int.random(in: 1...255, using: &rng)] }
        case 13:
          // Deep shadows, where some dither rows already start code 1 (from 2.4e-6), and the ends
          // of the dithered lookup's range.
          rgb = (0..<3).map { _ in
            [rng.float(0...0.0003), 0x1p-20, Float(0x1p-20).nextDown, 0x1p-13, 0][
              Int.random(in: 0..<5, using: &rng)]
          }
        case 12:
          // On a start of the pixel's own dither row, or an ulp either side.
          let (x, y) = (i / 32, i % 32)
          let rank = Int32(inkwell_dither_offset(Int32(round * 5 + x), Int32(round * 3 + y)) * 64 - 0.5)
          rgb = (0..<3).map { _ in
            let start = inkwell_srgb_code_start(rank, Int32.random(in: 1...255, using: &rng))
            return [start, start.nextUp, start.nextDown][Int.random(in: 0..<3, using: &rng)]
          }
        case 7: rgb = (0..<3).map { _ in rng.float(0.99...1) }
        case 8: rgb = [round % 6 == 5 ? 3 : 1, 0.2, .nan]
        default: rgb = (0..<3).map { _ in rng.float(0...1) }
        }
        for c in 0..<3 { tile[c * plane + i] = rgb[c] * alpha }
        tile[3 * plane + i] = alpha
      }
      for dither in [true, false] {
        var out = [UInt8](repeating: 0, count: 32 * 32 * 4)
        var expected = out
        let declined = resolve(tile, p, round * 5, round * 3, dither, INKWELL_ALL_BLOCKS, nil, &out)
        ResolveReference.kernels.resolveU8(tile, 32, 32, round * 5, round * 3, dither, p, &expected, 128)
        if declined == 0 {
          #expect(out == expected, "round \(round), dither \(dither)")
          resolved += 1
        }
      }
    }
    // Most rounds have nothing above the knee; those are compared above.
    #expect(resolved >= 30)
  }

  @Test(
    "the dithered resolve at every code start of every dither rank, and an ulp either side", arguments: levels
  )
  func resolveDitheredEveryStart(level: SIMDLevel) throws {
    guard let resolve = try Self.ditheredResolve(level) else {
      #expect(level == .scalar)
      return
    }
    let plane = Int(INKWELL_TILE_PIXELS)
    let p = ResolveSettings(
      colorSpace: .sRGB, transfer: .sRGB, toneMapping: ToneMapping(contentPeak: 1, headroom: 1)
    )
    .kernelParameters
    // Each rank covers 16 pixels of a tile, three channels each: 16 tiles give every rank its 255
    // starts in three variants (the start, an ulp above, an ulp below).
    for round in 0..<16 {
      var tile = [Float](repeating: 1, count: plane * 4)
      var seen = [Int](repeating: 0, count: 64)
      for x in 0..<32 {
        for y in 0..<32 {
          let rank = Int(inkwell_dither_offset(Int32(x), Int32(y)) * 64 - 0.5)
          let slot = round * 16 + seen[rank]
          seen[rank] += 1
          for c in 0..<3 {
            let m = slot * 3 + c
            let start = inkwell_srgb_code_start(Int32(rank), Int32(m / 3 % 255 + 1))
            tile[c * plane + x * 32 + y] = [start, start.nextUp, start.nextDown][(m + round) % 3]
          }
        }
      }
      var out = [UInt8](repeating: 0, count: 32 * 32 * 4)
      var expected = out
      let declined = resolve(tile, p, 0, 0, true, INKWELL_ALL_BLOCKS, nil, &out)
      ResolveReference.kernels.resolveU8(tile, 32, 32, 0, 0, true, p, &expected, 128)
      #expect(declined == 0)
      #expect(out == expected, "round \(round)")
    }
  }

  @Test(
    "the dithered resolve copies the blocks that hold the background and shares equal channels' codes",
    arguments: levels)
  func resolveDitheredBlocks(level: SIMDLevel) throws {
    guard let resolve = try Self.ditheredResolve(level) else {
      #expect(level == .scalar)
      return
    }
    var rng = SeededGenerator(seed: 17)
    let plane = Int(INKWELL_TILE_PIXELS)
    let p = ResolveSettings(
      colorSpace: .sRGB, transfer: .sRGB, toneMapping: ToneMapping(contentPeak: 1, headroom: 1)
    )
    .kernelParameters
    let background: [Float] = [0.93, 0.91, 0.87, 1]
    var copied = 0
    for round in 0..<16 {
      let blocks = UInt32.random(in: 0...UInt32(INKWELL_ALL_BLOCKS), using: &rng)
      // Background everywhere; in the marked blocks, runs of eight rows of gray, of equal red and
      // green, of three different channels (opaque or translucent), or of gray in some rows only.
      var tile = [Float](repeating: 0, count: plane * 4)
      for c in 0..<4 { for i in 0..<plane { tile[c * plane + i] = background[c] } }
      for x in 0..<32 {
        for group in 0..<4 where blocks >> (x / 8 + 4 * group) & 1 == 1 {
          let kind = Int.random(in: 0..<5, using: &rng)
          for y in (group * 8)..<(group * 8 + 8) {
            let v = rng.float(0...1)
            let w = rng.float(0...1)
            let alpha: Float = kind == 3 ? rng.float(0.1...1) : 1
            let gray = kind == 0 || (kind == 4 && y % 3 == 0)
            let rgb: [Float] = gray ? [v, v, v] : (kind == 1 ? [v, v, w] : [v, w, rng.float(0...1)])
            for c in 0..<3 { tile[c * plane + x * 32 + y] = rgb[c] * alpha }
            tile[3 * plane + x * 32 + y] = alpha
          }
        }
      }
      let backgroundTile = [Float](tile.indices.map { background[$0 / plane] })
      let origin = (x: 32 * (round % 3), y: 32 * (round % 5))
      for dither in [true, false] {
        var clean = [UInt8](repeating: 0, count: 32 * 32 * 4)
        ResolveReference.kernels.resolveU8(backgroundTile, 32, 32, 0, 0, dither, p, &clean, 128)
        var out = [UInt8](repeating: 0, count: 32 * 32 * 4)
        var expected = out
        let declined = resolve(tile, p, origin.x, origin.y, dither, blocks, clean, &out)
        ResolveReference.kernels.resolveU8(tile, 32, 32, origin.x, origin.y, dither, p, &expected, 128)
        #expect(declined == 0)
        #expect(out == expected, "round \(round), dither \(dither), blocks \(String(blocks, radix: 16))")
        // The public entry point, through the level the process selected.
        var entry = [UInt8](repeating: 0, count: 32 * 32 * 4)
        ResolveKernels.native.resolveU8Blocks(
          tile, blocks, clean, 128, origin.x, origin.y, dither, p, &entry, 128)
        #expect(entry == expected, "round \(round), dither \(dither), public entry")
        copied += (0..<16).filter { blocks >> $0 & 1 == 0 }.count
      }
    }
    #expect(copied > 100)
  }

  /// Floats near every threshold (±2 ulps), the edges of the range, special values and a seeded
  /// sample of `count` bit patterns spread over [0, 1] and a little outside.
  static func encodeInputs(count: Int) -> [Float] {
    var values: [Float] = [0, -0.0, 1, -1, 2, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude]
    values += [.leastNormalMagnitude, 0x1p-13, 0x1.fffffep-1, Float(0x1p-13).nextDown, Float(0x1p-13).nextUp]
    for k in 1...255 {
      var v = KernelReference.srgbThresholds[k]
      values.append(v)
      for _ in 0..<2 {
        v = v.nextUp
        values.append(v)
      }
      v = KernelReference.srgbThresholds[k]
      for _ in 0..<2 {
        v = v.nextDown
        values.append(v)
      }
    }
    var rng = SeededGenerator(seed: 6)
    let one = Float(1).bitPattern
    for _ in 0..<count {
      let bits = UInt32.random(in: 0...(one + 0x1_0000), using: &rng)
      values.append(Float(bitPattern: rng.next() & 15 == 0 ? bits | 0x8000_0000 : bits))
    }
    return values
  }

  /// The inputs and their reference codes, computed once for every level.
  static let encodeCases: ([Float], [UInt8]) = {
    let inputs = encodeInputs(count: 1 << 21)
    return (inputs, inputs.map(KernelReference.srgb8(fromLinear:)))
  }()

  @Test("sRGB8 encoding at every threshold neighbour and on a sample of floats", arguments: levels)
  func encodeSRGB8(level: SIMDLevel) {
    let kernels = RasterKernels.native(level: level)!
    let (inputs, expected) = Self.encodeCases
    var codes = [UInt8](repeating: 0, count: inputs.count)
    kernels.encodeSRGB8(inputs, &codes, inputs.count)
    var mismatches = 0
    for i in inputs.indices where codes[i] != expected[i] {
      let (value, code) = (inputs[i], codes[i])
      if mismatches < 5 {
        Issue.record("\(level): \(value) (0x\(String(value.bitPattern, radix: 16))) encodes to \(code)")
      }
      mismatches += 1
    }
    #expect(mismatches == 0)
  }

  /// Every float in [0, 1], 2^30 + 1 of them: run once in release with
  /// `INKWELL_EXHAUSTIVE_SRGB8=1 swift test -c release --filter exhaustive` (see shaders-cpu/README.md).
  @Test(
    "sRGB8 encoding of every float in [0, 1] (exhaustive; release, on request)",
    .enabled(if: ProcessInfo.processInfo.environment["INKWELL_EXHAUSTIVE_SRGB8"] == "1"))
  func exhaustiveSRGB8() {
    let levels = Self.levels.filter { $0 != .scalar }
    let chunk = 1 << 20
    var inputs = [Float](repeating: 0, count: chunk)
    var expected = [UInt8](repeating: 0, count: chunk)
    var codes = [UInt8](repeating: 0, count: chunk)
    var mismatches = [SIMDLevel: Int]()
    let one = Float(1).bitPattern
    var start: UInt32 = 0
    while start <= one {
      let n = Int(Swift.min(UInt32(chunk), one - start + 1))
      for i in 0..<n { inputs[i] = Float(bitPattern: start + UInt32(i)) }
      KernelReference.encodeSRGB8(linear: inputs, codes: &expected, count: n)
      for level in levels {
        RasterKernels.native(level: level)!.encodeSRGB8(inputs, &codes, n)
        for i in 0..<n where codes[i] != expected[i] { mismatches[level, default: 0] += 1 }
      }
      start += UInt32(n)
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test("a seeded random scene renders to the same bytes at every level and with the reference")
  func wholeScene() {
    // Not a multiple of the tile size, so edge tiles take the partial resolve.
    let (width, height): (Float, Float) = (230, 170)
    let drawing = randomDrawing(seed: 21, count: 70, width: width, height: height)
    let viewport = Viewport(
      region: Rect(x: 0, y: 0, width: width, height: height), width: Int(width), height: Int(height))
    let reference = Renderer(threads: 1, kernels: KernelReference.kernels).render(
      drawing, viewport: viewport, background: Color(red: 0.95, green: 0.9, blue: 0.8, alpha: 1))
    #expect(reference.pixels.contains { $0 != reference.pixels[0] })
    for level in Self.levels {
      let image = Renderer(threads: 2, kernels: RasterKernels.native(level: level)!, minimumWorkPerThread: 0)
        .render(
          drawing, viewport: viewport, background: Color(red: 0.95, green: 0.9, blue: 0.8, alpha: 1))
      #expect(image == reference, "\(level)")
      let clear = Renderer(threads: 1, kernels: RasterKernels.native(level: level)!).renderLinear(
        SceneBuilder.primitives(for: drawing, view: viewport.transform), width: 64, height: 40,
        background: .clear)
      let clearReference = Renderer(threads: 1, kernels: KernelReference.kernels).renderLinear(
        SceneBuilder.primitives(for: drawing, view: viewport.transform), width: 64, height: 40,
        background: .clear)
      #expect(bitwiseEqual(clear, clearReference), "\(level), linear")
    }
  }

  @Test("INKWELL_SIMD forces a level; an unavailable or unknown one falls back with a note")
  func environment() throws {
    let document = Golden.root + "/examples/bdalab-handwriting.inkwell.json"
    func render(_ simd: String?) throws -> ([UInt8], String) {
      let result = try runInkwell(
        ["render", document, "--scale", "0.5", "-o", "-"], environment: ["INKWELL_SIMD": simd])
      #expect(result.status == 0, "INKWELL_SIMD=\(simd ?? "unset")")
      return (result.stdout, result.stderr)
    }
    let (plain, _) = try render(nil)
    #expect(!plain.isEmpty)
    let missing = SIMDLevel.allCases.first { !$0.isAvailable }
    for simd in ["scalar", "bogus"] + (missing.map { [$0.rawValue] } ?? []) {
      let (bytes, note) = try render(simd)
      #expect(bytes == plain, "INKWELL_SIMD=\(simd)")
      #expect(note.contains("INKWELL_SIMD") == (simd != "scalar"), "INKWELL_SIMD=\(simd): \(note)")
    }
  }
}

/// Handwriting-like notes: `count` strokes of 20–80 points, 2–6 px wide, opaque dark ink.
func notesDrawing(seed: UInt64, count: Int, width: Float, height: Float) -> Drawing {
  randomDrawing(
    seed: seed, count: count, width: width, height: height,
    shape: RandomStrokeShape(
      points: 20...80, inkWidth: 2...6, force: 0.4...1, turn: 0.6, step: 1...4,
      color: { rng in Color(red: 0.05, green: 0.05, blue: rng.float(0.1...0.3), alpha: 1) }))
}

@Suite("Raster stage timing")
struct RasterTimingTests {
  /// Prints the raster stage's median time per level, one thread: run in release with
  /// `INKWELL_TIME_RASTER=1 swift test -c release --filter "raster stage"`. Not a pass/fail check.
  @Test(
    "raster stage time per SIMD level (on request)",
    .enabled(if: ProcessInfo.processInfo.environment["INKWELL_TIME_RASTER"] != nil))
  func rasterStage() {
    let scenes: [(String, Drawing, Int, Int)] = [
      (
        "notes 600 strokes 1536x2048", notesDrawing(seed: 1, count: 600, width: 1536, height: 2048), 1536,
        2048
      ),
      (
        "random 2000 strokes 2048x2048", randomDrawing(seed: 2, count: 2000, width: 2048, height: 2048), 2048,
        2048
      ),
    ]
    let runs = Int(ProcessInfo.processInfo.environment["INKWELL_TIME_RASTER"] ?? "") ?? 7
    for (name, drawing, width, height) in scenes {
      let viewport = Viewport(
        region: Rect(x: 0, y: 0, width: Float(width), height: Float(height)), width: width, height: height)
      let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
      var binner = TileBinner(grid: TileGrid(width: width, height: height))
      for (index, primitive) in primitives.enumerated() {
        binner.add(primitive.path, rule: primitive.rule, index: index)
      }
      let bins = binner.finish()
      let background = LinearColor(.white)
      var sets: [(String, RasterKernels)] = SIMDLevel.available.map {
        ($0.rawValue, RasterKernels.native(level: $0)!)
      }
      sets.append(("swift-reference", KernelReference.kernels))
      // INKWELL_TIME_LEVELS=avx2,sse2 keeps only those sets (for a profiler run).
      if let only = ProcessInfo.processInfo.environment["INKWELL_TIME_LEVELS"]?.split(separator: ",") {
        sets = sets.filter { only.contains(Substring($0.0)) }
      }
      var times = [String: [Double]]()
      var first: RGBA8Image?
      // Interleaved: every set once per round.
      for _ in 0..<runs {
        for (label, kernels) in sets {
          let start = DispatchTime.now().uptimeNanoseconds
          let image = TileRasterizer(kernels: kernels).render(
            bins, primitives: primitives, background: background, threads: 1)
          times[label, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
          if first == nil { first = image }
          if times[label]!.count == 1 { #expect(image == first, "\(label)") }
        }
      }
      print(
        "raster stage, \(name), \(primitives.count) primitives, \(bins.entries.count) tile entries, "
          + "\(bins.segments.count) pieces, \(runs) runs, 1 thread:")
      for (label, _) in sets {
        let sorted = times[label]!.sorted()
        let line = String(
          format: "  %@ median %8.2f ms   min %8.2f   max %8.2f", label as NSString,
          sorted[sorted.count / 2],
          sorted[0], sorted[sorted.count - 1])
        print(line)
      }
    }
  }
}
