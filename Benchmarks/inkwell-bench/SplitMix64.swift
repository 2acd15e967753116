/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64), so the
/// synthetic scenes are the same on every machine and every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A float in 0..<1 from the top 24 bits, exactly representable.
  mutating func nextUnitFloat() -> Float {
    Float(next() >> 40) * 0x1p-24
  }

  /// A float in `range`.
  mutating func nextFloat(in range: ClosedRange<Float>) -> Float {
    range.lowerBound + (range.upperBound - range.lowerBound) * nextUnitFloat()
  }

  /// An integer in `range`; the tiny modulo bias does not matter for scene generation.
  mutating func nextInt(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
}
