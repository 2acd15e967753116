import Foundation
import InkwellFormat
import InkwellModel

/// Paths and helpers shared by the format tests.
enum FormatFixtures {
  /// The package root, found from this file's location.
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus`, next to the package.
  static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

  static var corpusAvailable: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("SOURCES.md").path)
  }

  static func corpusBytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
  }

  static func exampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("examples/" + name)))
  }

  static let mypaint = "libmypaint/painting30sec.dat"
  static let jack = "bdalab-handwriting-sample/jack_18-07-2014_M_0006_Doe_12-10-2020.svc"
  static let signalSVC = "bdalab-handwriting-sample/signal.svc"
  static let signalJSON = "bdalab-handwriting-sample/signal.json"

  static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// SplitMix64: a small, seeded, reproducible generator for the randomized tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Any finite float, from every binade: random bit patterns with non-finite ones redrawn.
  mutating func anyFiniteFloat() -> Float {
    while true {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: next()))
      if value.isFinite { return value }
    }
  }

  /// A finite float that is usually a plausible coordinate and sometimes an extreme one.
  mutating func float(in range: ClosedRange<Float>) -> Float {
    switch next() % 8 {
    case 0: return abs(anyFiniteFloat())
    case 1: return Float(Int(next() % 200))
    default: return Float.random(in: range, using: &self)
    }
  }
}
