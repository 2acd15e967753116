// The alpha profile's search for the nearest segment of the spine, with the segments that cannot
// win dropped per tile, against the search over every segment.

import Inkwell
import InkwellKernels
import Testing

@testable import InkwellRender

@Suite("Paint profile")
struct PaintProfileTests {
  /// A tile's coverage after the profile stage with `segments` (6 floats each).
  func profiled(_ segments: [Float], x0: Int, y0: Int) -> [Float] {
    var coverage = [Float](repeating: 0, count: 32 * 32)
    for i in coverage.indices { coverage[i] = Float((i * 37) % 101 + 1) / 101 }
    segments.withUnsafeBufferPointer { buffer in
      coverage.withUnsafeMutableBufferPointer { tile in
        PaintReference.profile(
          coverage: tile.baseAddress!, x0: x0, y0: y0, segments: buffer.baseAddress!, count: buffer.count / 6)
      }
    }
    return coverage
  }

  @Test("dropping the segments that cannot be nearest leaves every pixel's value as it was")
  func prunedSearchIsExact() {
    var random = SeededGenerator(seed: 90)
    var dropped = 0
    var total = 0
    for round in 0..<400 {
      let x0 = 32 * Int.random(in: -4...40, using: &random)
      let y0 = 32 * Int.random(in: -4...40, using: &random)
      // Spines near the tile and far from it, on a grid of whole and half pixels (ties between
      // equally near segments) or anywhere, with a few far-out points.
      let count = Int.random(in: 2...60, using: &random)
      let spread = Float([8, 40, 200, 3000][round % 4])
      var segments: [Float] = []
      var previous: (Float, Float, Float)?
      for _ in 0..<count {
        var x = Float(x0 + 16) + Float.random(in: -spread...spread, using: &random)
        var y = Float(y0 + 16) + Float.random(in: -spread...spread, using: &random)
        if round % 3 == 0 {
          x = (x * 2).rounded() / 2
          y = (y * 2).rounded() / 2
        }
        if Int.random(in: 0..<40, using: &random) == 0 { x = 1e30 }
        let alpha = Float.random(in: 0...1, using: &random)
        if let previous { segments += [previous.0, previous.1, previous.2, x, y, alpha] }
        previous = (x, y, alpha)
      }
      var pruned = segments
      PaintKernels.keepPossiblyNearest(&pruned, x0: x0, y0: y0, size: 32)
      dropped += (segments.count - pruned.count) / 6
      total += segments.count / 6
      #expect(profiled(pruned, x0: x0, y0: y0) == profiled(segments, x0: x0, y0: y0), "round \(round)")
    }
    // The search is pruned, not only left alone.
    #expect(dropped > total / 4, "\(dropped) of \(total) dropped")
  }

  @Test(
    "the C profile and threshold profile, by blocks and at every level's width, equal their scalar twins",
    arguments: [
      INKWELL_SIMD_SCALAR, INKWELL_SIMD_SSE2, INKWELL_SIMD_AVX2, INKWELL_SIMD_AVX512, INKWELL_SIMD_NEON,
    ])
  func kernelsMatchReference(level: inkwell_simd_level) {
    guard let kernels = inkwell_paint_kernels_for(level)?.pointee else { return }
    var random = SeededGenerator(seed: 91)
    for round in 0..<300 {
      let x0 = 32 * Int.random(in: -2...20, using: &random)
      let y0 = 32 * Int.random(in: -2...20, using: &random)
      var segments: [Float] = []
      // Up to a few (searched whole), a few dozen (8 × 8 blocks, each with its own segments) and
      // more than a stack buffer holds (whole again).
      let count = round == 7 ? 600 : Int.random(in: 0...40, using: &random)
      for _ in 0..<count {
        for _ in 0..<2 {
          var x = Float(x0) + Float.random(in: -20...52, using: &random)
          var y = Float(y0) + Float.random(in: -20...52, using: &random)
          if round % 2 == 0 {
            // Whole and half pixels: equally near segments, and zero-length ones.
            x = (x * 2).rounded() / 2
            y = (y * 2).rounded() / 2
          }
          segments += [x, y, Float.random(in: -0.2...1.2, using: &random)]
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
          segments[segments.count - 3] = segments[segments.count - 6]
          segments[segments.count - 2] = segments[segments.count - 5]
        }
      }
      // Coverage with zeros, negative zero, negatives and a NaN among the usual values.
      var coverage = [Float](repeating: 0, count: 32 * 32)
      for i in coverage.indices {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: coverage[i] = 0
        case 1: coverage[i] = -0.0
        case 2: coverage[i] = -0.25
        default: coverage[i] = Float.random(in: 0...1, using: &random)
        }
      }
      if round % 5 == 0 { coverage[Int.random(in: 0..<1024, using: &random)] = .nan }
      if segments.isEmpty { segments = [0, 0, 1, 0, 0, 1] }
      let n = segments.count / 6
      for threshold in [false, true] {
        var native = coverage
        var reference = coverage
        segments.withUnsafeBufferPointer { list in
          native.withUnsafeMutableBufferPointer { tile in
            let search = threshold ? kernels.threshold_profile : kernels.profile
            search?(tile.baseAddress!, Int32(x0), Int32(y0), list.baseAddress!, Int32(n))
          }
          reference.withUnsafeMutableBufferPointer { tile in
            if threshold {
              PaintReference.thresholdProfile(
                coverage: tile.baseAddress!, x0: x0, y0: y0, segments: list.baseAddress!, count: n)
            } else {
              PaintReference.profile(
                coverage: tile.baseAddress!, x0: x0, y0: y0, segments: list.baseAddress!, count: n)
            }
          }
        }
        #expect(
          native.map(\.bitPattern) == reference.map(\.bitPattern), "round \(round), threshold \(threshold)")
      }
    }
  }

  @Test("a long spine's runs leave out only segments that miss the tile, NaN and far-out points included")
  func runsKeepEveryNearbySegment() {
    var random = SeededGenerator(seed: 92)
    for round in 0..<60 {
      var points: [Point] = []
      var p = Point(
        x: Float.random(in: 0...600, using: &random), y: Float.random(in: 0...600, using: &random))
      for _ in 0..<Int.random(in: 40...400, using: &random) {
        points.append(p)
        p = Point(
          x: p.x + Float.random(in: -9...9, using: &random), y: p.y + Float.random(in: -9...9, using: &random)
        )
      }
      if round % 3 == 0 { points[Int.random(in: 0..<points.count, using: &random)].y = .nan }
      if round % 4 == 0 { points[Int.random(in: 0..<points.count, using: &random)].x = 1e30 }
      let alphas = points.map { _ in Float.random(in: 0...1, using: &random) }
      let reach: Float = round % 5 == 0 ? 40 : 3
      let profile = AlphaProfile(points: points, alphas: alphas, reach: reach)
      for _ in 0..<30 {
        let x0 = 32 * Int.random(in: -1...20, using: &random)
        let y0 = 32 * Int.random(in: -1...20, using: &random)
        var found: [Float] = []
        PaintKernels.native.nearbySegments(profile, x0: x0, y0: y0, size: 32, into: &found)
        // Every segment tested on its own, as the search did before runs.
        let r = reach + 1
        let (minX, minY) = (Float(x0) - r, Float(y0) - r)
        let (maxX, maxY) = (Float(x0 + 32) + r, Float(y0 + 32) + r)
        var expected: [Float] = []
        var all: [Float] = []
        for k in 0..<(points.count - 1) {
          let (s, e) = (points[k], points[k + 1])
          let segment = [s.x, s.y, alphas[k], e.x, e.y, alphas[k + 1]]
          all += segment
          if Swift.max(s.x, e.x) < minX || Swift.min(s.x, e.x) > maxX || Swift.max(s.y, e.y) < minY
            || Swift.min(s.y, e.y) > maxY
          {
            continue
          }
          expected += segment
        }
        if expected.isEmpty { expected = all }
        if expected.count > 6 * PaintKernels.segmentsPrunedPerBlockOnly || !(reach <= 32) {
          PaintKernels.keepPossiblyNearest(&expected, x0: x0, y0: y0, size: 32)
        }
        #expect(
          found.map(\.bitPattern) == expected.map(\.bitPattern), "round \(round), tile (\(x0), \(y0))")
      }
    }
  }
}
