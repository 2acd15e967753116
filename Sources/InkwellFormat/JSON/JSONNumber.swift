/// A JSON number, kept as its (valid) source text so that each reader converts it to its own type
/// with a single, correct rounding.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
  /// The number's text; always valid JSON number syntax.
  public let text: String

  /// Wraps `text` if it is valid JSON number syntax (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`).
  public init?(text: String) {
    guard JSONNumber.isValidSyntax(Array(text.utf8)) else { return nil }
    self.text = text
  }

  init(validatedText: String) {
    self.text = validatedText
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
  public var floatValue: Float { Float(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity) }

  /// The nearest `Double`, correctly rounded; infinite when the value is beyond `Double`'s range.
  public var doubleValue: Double { Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity) }

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
    var scanner = JSONNumberScanner(bytes: bytes, start: 0)
    return (try? scanner.scan()) == bytes.count
  }
}

/// Scans the JSON number grammar from `start`; shared by `JSONNumber` and `JSONReader`.
struct JSONNumberScanner {
  enum Failure: Error {
    /// A digit was expected at this offset.
    case expectedDigit(Int)
    /// A zero followed by more digits starts at this offset.
    case leadingZero(Int)
  }

  let bytes: [UInt8]
  var index: Int

  init(bytes: [UInt8], start: Int) {
    self.bytes = bytes
    self.index = start
  }

  private func isDigit(_ i: Int) -> Bool {
    i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
  }

  private mutating func digits() throws(Failure) {
    guard isDigit(index) else { throw .expectedDigit(index) }
    while isDigit(index) { index &+= 1 }
  }

  /// Returns the offset just past the number.
  mutating func scan() throws(Failure) -> Int {
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index &+= 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
      if isDigit(index &+ 1) { throw .leadingZero(index) }
      index &+= 1
    } else {
      try digits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index &+= 1
      try digits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index &+= 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index &+= 1
      }
      try digits()
    }
    return index
  }
}
