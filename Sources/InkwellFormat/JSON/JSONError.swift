/// Why a byte sequence is not JSON, and where.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Hashable, Sendable {
    /// The input ended inside a value (`expected` says what was still needed).
    case unexpectedEnd(expected: String)
    /// A byte that cannot start or continue the value being read.
    case unexpectedCharacter(found: String, expected: String)
    /// Bytes after the single top-level value.
    case trailingCharacters
    /// A byte sequence that is not valid UTF-8.
    case invalidUTF8
    /// `NaN`, `Infinity` or `-Infinity`, which JSON does not have.
    case nonFiniteNumber(String)
    /// A number such as `012`.
    case leadingZero
    /// A control character (below U+0020) inside a string; it must be escaped.
    case controlCharacterInString
    /// An escape sequence other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape
    /// A `\uD800`–`\uDFFF` escape without its partner.
    case loneSurrogate
    /// Arrays and objects nested deeper than `JSONReader.maximumDepth`.
    case nestingTooDeep(limit: Int)
  }

  public var reason: Reason
  public var location: SourceLocation

  public init(reason: Reason, location: SourceLocation) {
    self.reason = reason
    self.location = location
  }

  /// The reason alone, without the location.
  public var message: String { reason.message }

  /// `invalid JSON: MESSAGE (line L, column C, byte B)`.
  public var description: String { "invalid JSON: \(message) (\(location))" }
}

extension JSONError.Reason {
  /// What went wrong, in a few words.
  public var message: String {
    switch self {
    case .unexpectedEnd(let expected): return "unexpected end of input, expected \(expected)"
    case .unexpectedCharacter(let found, let expected): return "unexpected \(found), expected \(expected)"
    case .trailingCharacters: return "unexpected characters after the end of the JSON value"
    case .invalidUTF8: return "invalid UTF-8"
    case .nonFiniteNumber(let literal): return "'\(literal)' is not a JSON number"
    case .leadingZero: return "a number may not have leading zeros"
    case .controlCharacterInString: return "unescaped control character in a string"
    case .invalidEscape: return "invalid escape sequence in a string"
    case .loneSurrogate: return "unpaired UTF-16 surrogate in a \\u escape"
    case .nestingTooDeep(let limit): return "arrays and objects nested more than \(limit) deep"
    }
  }
}
