/// A JSON number, kept as its (valid) source text so that each reader converts it to its own type
/// with a single, correct rounding.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
  /// The text, held inline when it is short (nearly every number: making a `String` for each
  /// one was an eighth of loading a document), else as a `String`.
  private enum Storage: Hashable, Sendable {
    /// Up to 16 ASCII bytes, first byte lowest, zero-padded; `count` of them.
    case inline(low: UInt64, high: UInt64, count: UInt8)
    case string(String)
  }

  private let storage: Storage
  /// The value as `ShortDecimal.packed` holds it, worked out while the text was scanned; 0 when
  /// the number is outside the fast conversions' range.
  let packed: UInt64

  /// The number's text; always valid JSON number syntax.
  public var text: String {
    switch storage {
    case .string(let text): return text
    case .inline(let low, let high, let count):
      return withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) {
        String(decoding: $0.prefix(Int(count)), as: UTF8.self)
      }
    }
  }

  /// Wraps `text` if it is valid JSON number syntax (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`).
  public init?(text: String) {
    let utf8 = Array(text.utf8)
    guard let scanned = try? JSONNumberScanner.scan(utf8, from: 0), scanned.end == utf8.count else {
      return nil
    }
    self.init(validatedUTF8: utf8[...], packed: scanned.packed)
  }

  /// The number whose (valid) text is `utf8`, with its `packed` form.
  init(validatedUTF8 utf8: UnsafeBufferPointer<UInt8>, packed: UInt64) {
    self.packed = packed
    storage = Self.storage(of: utf8)
  }

  /// The number whose (valid) text is `utf8`, with its `packed` form.
  init(validatedUTF8 utf8: ArraySlice<UInt8>, packed: UInt64) {
    self.packed = packed
    storage = utf8.withUnsafeBufferPointer { Self.storage(of: $0) }
  }

  private static func storage(of utf8: UnsafeBufferPointer<UInt8>) -> Storage {
    guard utf8.count <= 16 else { return .string(String(decoding: utf8, as: UTF8.self)) }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
    return .inline(
      low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: UInt8(utf8.count))
  }

  init(validatedText: String) {
    let utf8 = Array(validatedText.utf8)
    self.init(validatedUTF8: utf8[...], packed: (try? JSONNumberScanner.scan(utf8, from: 0))?.packed ?? 0)
  }

  /// Swift's shortest representation that reads back as the same `Float`, with a trailing `.0`
  /// removed (`2`, not `2.0`); `nil` for infinities and NaN, which JSON cannot express.
  public init?(_ value: Float) {
    guard value.isFinite else { return nil }
    self.init(validatedText: JSONNumber.trimmingIntegralSuffix(value.description))
  }

  /// As `init(_: Float)`, for a `Double`.
  public init?(_ value: Double) {
    guard value.isFinite else { return nil }
    self.init(validatedText: JSONNumber.trimmingIntegralSuffix(value.description))
  }

  /// A whole number.
  public init<I: BinaryInteger>(_ value: I) {
    self.init(validatedText: String(value))
  }

  /// The nearest `Float`, correctly rounded; infinite when the value is beyond `Float`'s range.
  public var floatValue: Float {
    if let decimal = ShortDecimal(packed: packed), let value = decimal.float { return value }
    return Float(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
  }

  /// The nearest `Double`, correctly rounded; infinite when the value is beyond `Double`'s range.
  public var doubleValue: Double {
    if let decimal = ShortDecimal(packed: packed) { return decimal.double }
    return Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
  }

  /// The value as an integer of type `I` when it is a whole number within `I`'s range (`7`, `7.0` and
  /// `7e0` all qualify); `nil` otherwise.
  public func integerValue<I: FixedWidthInteger>(as type: I.Type = I.self) -> I? {
    if let exact = I(text) { return exact }
    let value = doubleValue
    guard value.isFinite, value == value.rounded(.towardZero) else { return nil }
    return I(exactly: value)
  }

  public var description: String { text }

  // Swift prints `1e-05`, `1e+16` and `-0.0`, all valid JSON; only `.0` needs trimming.
  private static func trimmingIntegralSuffix(_ text: String) -> String {
    text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// Whether `bytes` is exactly one JSON number.
  static func isValidSyntax(_ bytes: [UInt8]) -> Bool {
    (try? JSONNumberScanner.scan(bytes, from: 0))?.end == bytes.count
  }
}

/// Scans the JSON number grammar; shared by `JSONNumber` and `JSONReader`. While it checks the
/// digits it also reads them into a `ShortDecimal`, so that converting the number later takes
/// one floating-point operation instead of a pass over its text.
enum JSONNumberScanner {
  enum Failure: Error {
    /// A digit was expected at this offset.
    case expectedDigit(Int)
    /// A zero followed by more digits starts at this offset.
    case leadingZero(Int)
  }

  /// How many of the eight bytes of `chunk` (first byte lowest) are ASCII digits before the first
  /// that is not, and the number they spell. The bytes less `'0'` are 0…9 for digits; adding
  /// 0x76 sets a byte's top bit exactly when it was not (or when the subtraction wrapped), and
  /// the lowest such byte ends the run (what carries past it does not matter). The value comes
  /// from the digits moved to the top bytes, so that zeros lead, and paired twice over: ten
  /// times each digit plus the next, a hundred times each pair plus the next, ten thousand
  /// times each four plus the next.
  @inline(__always)
  static func digitsInChunk(_ chunk: UInt64) -> (length: Int, value: UInt64) {
    let x = chunk &- 0x3030_3030_3030_3030
    let stops = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
    let length = stops == 0 ? 8 : stops.trailingZeroBitCount >> 3
    guard length > 0 else { return (0, 0) }
    var v = x << UInt64(64 &- 8 &* length)
    v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    return (length, v)
  }

  /// Reads the digits at `index` (at least one) into `significand` and returns how many there
  /// were. The significand is exact while a number has at most 19 digits (leading zeros
  /// included); `scan` leaves longer numbers to the library.
  @inline(__always)
  private static func digits(
    _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ significand: inout UInt64
  ) throws(Failure) -> Int {
    let count = digitRun(bytes, &index, &significand)
    guard count > 0 else { throw .expectedDigit(index) }
    return count
  }

  /// `digits`, returning 0 where there is no digit.
  @inline(__always)
  private static func digitRun(
    _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ significand: inout UInt64
  ) -> Int {
    let count = bytes.count
    guard index < count, bytes[index] &- UInt8(ascii: "0") < 10 else { return 0 }
    let first = index
    // Eight bytes at a time while they last: the run of digits at their start, and its value.
    if let base = bytes.baseAddress {
      while index &+ 8 <= count {
        let chunk = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let run = digitsInChunk(chunk)
        significand = significand &* powerOfTen(run.length) &+ run.value
        index &+= run.length
        guard run.length == 8 else { return index &- first }
      }
    }
    while index < count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      significand = significand &* 10 &+ UInt64(digit)
      index &+= 1
    }
    return index &- first
  }

  /// 10^n for n in 0…8.
  @inline(__always)
  private static func powerOfTen(_ n: Int) -> UInt64 {
    var power: UInt64 = 1
    for _ in 0..<n { power &*= 10 }
    return power
  }

  /// The `Float` of the number at `index` when it is a plain decimal (no exponent part) of at
  /// most nineteen digits that the one-operation conversion decides (`ShortDecimal.float`, which
  /// takes the longer significands of recorders that print a `Double`'s 17 digits), with `index`
  /// moved past it; otherwise `nil` and `index` unchanged, for `scan` to read it in full (and
  /// report what is wrong with it).
  @inline(__always)
  static func plainFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Float? {
    if let value = shortPlainFloat(bytes, &index) { return value }
    return generalPlainFloat(bytes, &index)
  }

  /// 10^n for n in 0…19, written out so that the table is data rather than set up on first use.
  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
    1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
    1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
  ]

  /// `plainFloat` of the shape point rows are written in, from three words of text with no
  /// loop: an optional minus, one to seven integer digits, and optionally a point and one to
  /// fifteen fraction digits, nineteen digits in all at most. `nil`, with `index` unchanged, for
  /// any other shape (an exponent, a leading zero, a longer number) and within 25 bytes of the
  /// end of the text, where `generalPlainFloat` reads the number instead.
  @inline(__always)
  private static func shortPlainFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Float? {
    guard let base = bytes.baseAddress, index &+ 25 <= bytes.count else { return nil }
    @inline(__always) func word(_ at: Int) -> UInt64 {
      UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
    }
    let negative = base[index] == UInt8(ascii: "-")
    let start = negative ? index &+ 1 : index
    let head = word(start)
    let whole = digitsInChunk(head)
    guard whole.length > 0, whole.length < 8, whole.length == 1 || head & 0xFF != 0x30 else { return nil }
    var end = start &+ whole.length
    var significand = whole.value
    var exponent = 0
    if base[end] == UInt8(ascii: ".") {
      let first = digitsInChunk(word(end &+ 1))
      guard first.length > 0 else { return nil }
      var length = first.length
      var fraction = first.value
      if length == 8 {
        let second = digitsInChunk(word(end &+ 9))
        guard second.length < 8 else { return nil }
        length = 8 &+ second.length
        fraction = fraction &* powersOfTen[second.length] &+ second.value
      }
      guard whole.length &+ length <= 19 else { return nil }
      significand = significand &* powersOfTen[length] &+ fraction
      exponent = -length
      end = end &+ 1 &+ length
    }
    guard base[end] | 0x20 != UInt8(ascii: "e"),
      let value = ShortDecimal(negative: negative, significand: significand, exponent: exponent).float
    else { return nil }
    index = end
    return value
  }

  /// `plainFloat` of any plain decimal, a run of digits at a time.
  @inline(__always)
  private static func generalPlainFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Float? {
    var i = index
    let count = bytes.count
    let negative = i < count && bytes[i] == UInt8(ascii: "-")
    if negative { i &+= 1 }
    var significand: UInt64 = 0
    var digitCount: Int
    if i < count, bytes[i] == UInt8(ascii: "0") {
      i &+= 1
      digitCount = 1
      if i < count, bytes[i] &- UInt8(ascii: "0") < 10 { return nil }
    } else {
      digitCount = digitRun(bytes, &i, &significand)
      guard digitCount > 0 else { return nil }
    }
    var exponent = 0
    if i < count, bytes[i] == UInt8(ascii: ".") {
      i &+= 1
      let fraction = digitRun(bytes, &i, &significand)
      guard fraction > 0 else { return nil }
      digitCount &+= fraction
      exponent = -fraction
    }
    guard i >= count || bytes[i] | 0x20 != UInt8(ascii: "e"), digitCount <= 19, exponent >= -22,
      let value = ShortDecimal(negative: negative, significand: significand, exponent: exponent).float
    else { return nil }
    index = i
    return value
  }

  /// The offset just past the number that starts at `start`, and its `ShortDecimal.packed` form.
  static func scan(_ bytes: borrowing [UInt8], from start: Int) throws(Failure) -> (end: Int, packed: UInt64)
  {
    let result: Result<(end: Int, packed: UInt64), Failure> = bytes.withUnsafeBufferPointer { bytes in
      do throws(Failure) {
        return .success(try scan(bytes, from: start))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(Failure) -> (end: Int, packed: UInt64) {
    var index = start
    let count = bytes.count
    let negative = index < count && bytes[index] == UInt8(ascii: "-")
    if negative { index &+= 1 }
    var significand: UInt64 = 0
    var exponent = 0
    var digitCount = 0
    if index < count, bytes[index] == UInt8(ascii: "0") {
      if index &+ 1 < count, bytes[index &+ 1] &- UInt8(ascii: "0") < 10 { throw .leadingZero(index) }
      index &+= 1
      digitCount = 1
    } else {
      digitCount = try digits(bytes, &index, &significand)
    }
    if index < count, bytes[index] == UInt8(ascii: ".") {
      index &+= 1
      let fraction = try digits(bytes, &index, &significand)
      digitCount &+= fraction
      exponent = -fraction
    }
    var written = 0
    var writtenDigits = 0
    var writtenNegative = false
    if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index &+= 1
      if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        writtenNegative = bytes[index] == UInt8(ascii: "-")
        index &+= 1
      }
      guard index < count, bytes[index] &- UInt8(ascii: "0") < 10 else { throw .expectedDigit(index) }
      while index < count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        if written != 0 || digit != 0 { writtenDigits &+= 1 }
        if writtenDigits <= 4 { written = written &* 10 &+ Int(digit) }
        index &+= 1
      }
    }
    guard digitCount <= 19, writtenDigits <= 4 else { return (index, 0) }
    exponent &+= writtenNegative ? -written : written
    let decimal = ShortDecimal(negative: negative, significand: significand, exponent: exponent)
    return (index, decimal.packed)
  }
}

/// A JSON number whose digits fit a `UInt64` as `significand · 10^exponent`, for the conversions
/// that need no arbitrary precision: the text of a recorded point (`57.174805`) is most of a
/// document and converting it through the C library's `strtof` was a quarter of loading one.
///
/// A significand up to 2^53 and a power of ten up to 10^22 are both exact doubles, so one
/// multiplication or division rounds the value correctly to a `Double`. Rounding that `Double`
/// again to a `Float` gives the correctly rounded `Float` unless the `Double` is exactly halfway
/// between two floats: a value below a float midpoint rounds to a double at or below it (the
/// midpoint is itself a double), and likewise above, so only the midpoint can be rounded onto
/// from the wrong side. Those, and every number outside the fast range, go to the library.
struct ShortDecimal {
  var negative: Bool
  var significand: UInt64
  var exponent: Int

  /// Powers of ten that are exact doubles.
  private static let powers: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  init(negative: Bool, significand: UInt64, exponent: Int) {
    self.negative = negative
    self.significand = significand
    self.exponent = exponent
  }

  /// The decimal in one word when it is in the fast range (significand at most 2^53, exponent
  /// within ±22): bit 63 set, bit 62 the sign, bits 54–59 the exponent plus 32, bits 0–53 the
  /// significand; 0 otherwise.
  var packed: UInt64 {
    guard significand <= 1 << 53, exponent >= -22, exponent <= 22 else { return 0 }
    return 1 << 63 | (negative ? 1 << 62 : 0) | UInt64(exponent &+ 32) << 54 | significand
  }

  /// The decimal `packed` holds; `nil` for 0.
  init?(packed: UInt64) {
    guard packed >> 63 == 1 else { return nil }
    negative = packed >> 62 & 1 == 1
    exponent = Int(packed >> 54 & 63) &- 32
    significand = packed & (1 << 54 - 1)
  }

  /// The correctly rounded `Double` of a decimal in the fast range.
  var double: Double {
    let whole = Double(significand)
    let magnitude = exponent < 0 ? whole / Self.powers[-exponent] : whole * Self.powers[exponent]
    return negative ? -magnitude : magnitude
  }

  /// The correctly rounded `Float`, when the `Double` decides it (the exponent within ±22).
  /// With a significand up to 2^53 the `Double` is correctly rounded and only a midpoint itself
  /// is in doubt. A longer one (up to 19 digits, as recorders print) is rounded to a `Double`
  /// before it is scaled: two roundings, which leave the `Double` within two of its units of the
  /// decimal, so it must stay more than four units clear of every float midpoint. Values from
  /// 10^-22 up are normal floats; those beyond 2^127 are left to the library too.
  var float: Float? {
    let value = double
    // A float midpoint has a 1 just below the float's last bit and nothing after it.
    let belowFloat = value.bitPattern & 0x1FFF_FFFF
    if significand <= 1 << 53 {
      guard belowFloat != 0x1000_0000 else { return nil }
    } else {
      guard abs(Int(belowFloat) - 0x1000_0000) > 4, abs(value) <= 0x1p127 else { return nil }
    }
    return Float(value)
  }
}
