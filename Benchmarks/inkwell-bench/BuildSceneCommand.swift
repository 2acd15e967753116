// `inkwell-bench --build-scene NAME [--threads N] [--runs N]`: the strokes of one of the
// comparison's synthetic scenes turned into primitives (`SceneBuilder.primitives`, the stage that
// ink adds to a fill) and nothing else, timed, with a hash of everything built.
//
// The hash (FNV-1a over every point's and color component's bit pattern, each path's contour ends
// and which primitives carry a paint, a clip or a knockout) says whether a change to the build
// kept its primitives bit for bit: the pixels then cannot move, and the change is judged by its
// time and instructions alone. The process does little besides building, so it is also the one
// to count instructions in (`valgrind --tool=callgrind --toggle-collect=…SceneBuilder…primitives…`).

import Inkwell

@MainActor
enum BuildSceneCommand {
  /// The scenes it knows, by the comparison's names.
  static let sceneNames = ["notes", "sketch", "highlighter", "big", "huge", "thumbs"]

  /// Returns the process's exit status.
  static func run(name: String, threads: Int, runs: Int) -> Int32 {
    let scene: ComparisonScene
    switch name {
    case "notes": scene = .synthetic(.notes)
    case "sketch": scene = .synthetic(.sketch)
    case "highlighter": scene = .synthetic(.highlighter)
    case "big": scene = .synthetic(.big)
    case "huge": scene = .huge
    case "thumbs": scene = .thumbs
    default:
      print(
        "inkwell-bench: --build-scene knows \(sceneNames.joined(separator: ", ")), not '\(name)'",
        to: &standardError)
      return 2
    }
    let drawings = scene.drawings()
    let view = scene.view
    func build() -> [[Primitive]] {
      drawings.map { SceneBuilder.primitives(for: $0, view: view, threads: threads) }
    }
    let built = build()  // warm-up, and what the hash reads
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = MonotonicClock.nanoseconds()
      let primitives = build()
      samples.append(MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds()))
      precondition(primitives.count == built.count, "a build lost a document")
    }
    var hash = PrimitivesHash()
    for primitives in built { hash.add(primitives) }
    let summary = TimingSummary(samples)
    let strokes = drawings.reduce(0) { $0 + $1.strokes.count }
    let count = built.reduce(0) { $0 + $1.count }
    let points = built.reduce(0) { $0 + $1.reduce(0) { $0 + $1.path.points.count } }
    print(
      "\(name): \(drawings.count) document(s), \(strokes) strokes → \(count) primitives, \(points) points; "
        + "build on \(threads) thread(s): median \(fixed(summary.median, 3)) ms "
        + "(min \(fixed(summary.minimum, 3)), max \(fixed(summary.maximum, 3))); "
        + "primitives hash \(hash.hex)")
    return 0
  }
}

/// FNV-1a, 64 bits, over the primitives' bit patterns.
struct PrimitivesHash {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  private mutating func add(_ word: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) {
      value = (value ^ UInt64((word >> UInt32(shift)) & 0xff)) &* 0x100_0000_01b3
    }
  }

  mutating func add(_ primitives: [Primitive]) {
    add(UInt32(truncatingIfNeeded: primitives.count))
    for primitive in primitives {
      add(UInt32(truncatingIfNeeded: primitive.path.points.count))
      for point in primitive.path.points {
        add(point.x.bitPattern)
        add(point.y.bitPattern)
      }
      for end in primitive.path.contourEnds { add(UInt32(truncatingIfNeeded: end)) }
      let color = primitive.color
      for component in [color.red, color.green, color.blue, color.alpha] { add(component.bitPattern) }
      add(primitive.rule == .nonZero ? 1 : 2)
      add(
        (primitive.paint == .solid ? 0 : 1) | (primitive.clip == nil ? 0 : 2)
          | (primitive.knockout == nil ? 0 : 4))
    }
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
