// The pen's test for opacity that varies along a stroke, against a scan of the clamped opacities.

import Inkwell
import Testing

@testable import InkwellRender

@Suite("Pen opacity")
struct PenOpacityTests {
  @Test("whether opacity varies answers as the span of every clamped opacity, odd values included")
  func opacityVariesMatchesAScan() {
    var rng = SeededGenerator(seed: 41)
    var answers = [false: 0, true: 0]
    let odd: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38, -1, 2.5, 0, 2]
    for trial in 0..<4000 {
      let count = 1 + trial % 13
      let base = rng.float(0...1.2)
      var points = (0..<count).map { _ in
        StrokePoint(
          location: Point(x: 0, y: 0), timeOffset: 0, size: Size(width: 1, height: 1), opacity: base)
      }
      for i in points.indices where rng.float(0...1) < 0.3 {
        points[i].opacity =
          rng.next() % 3 == 0 ? odd[Int(rng.next() % UInt64(odd.count))] : base + rng.float(-0.004...0.004)
      }
      let clamped = points.map { StrokeSamples.opacity(value: $0.opacity) }
      let scanned = clamped.max()! - clamped.min()! >= 1 / 512
      #expect(PenInk.opacityVaries(points) == scanned, "trial \(trial): \(points.map(\.opacity))")
      answers[scanned, default: 0] += 1
    }
    #expect(PenInk.opacityVaries([]) == false)
    #expect(answers[true]! > 500 && answers[false]! > 500, "\(answers)")
  }
}
