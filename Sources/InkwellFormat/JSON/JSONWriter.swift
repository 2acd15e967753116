/// Serializes a `JSONValue` deterministically: members in the order given, numbers as their text,
/// strings with the minimal escapes (`"`, `\`, control characters), non-ASCII left as UTF-8.
public enum JSONWriter {
  /// How the output is laid out.
  public enum Style: Hashable, Sendable {
    /// No whitespace at all.
    case compact
    /// Nested containers indented by `indent` spaces; a container whose children are all scalars
    /// stays on one line (`[1, 2, 3]`, `{"type": "pen", "width": 3}`). Ends with a newline.
    case pretty(indent: Int)
  }

  /// The UTF-8 bytes of `value` in `style`.
  public static func write(_ value: JSONValue, style: Style = .pretty(indent: 2)) -> [UInt8] {
    var output: [UInt8] = []
    switch style {
    case .compact:
      writeCompact(value, into: &output)
    case .pretty(let indent):
      writePretty(value, indent: Swift.max(indent, 0), level: 0, into: &output)
      output.append(UInt8(ascii: "\n"))
    }
    return output
  }

  private static func writeCompact(_ value: JSONValue, into output: inout [UInt8]) {
    writeInline(value, separator: [UInt8(ascii: ",")], colon: [UInt8(ascii: ":")], into: &output)
  }

  private static func writeInline(
    _ value: JSONValue, separator: [UInt8], colon: [UInt8], into output: inout [UInt8]
  ) {
    switch value.content {
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { output.append(contentsOf: separator) }
        writeInline(element, separator: separator, colon: colon, into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { output.append(contentsOf: separator) }
        writeString(member.key, into: &output)
        output.append(contentsOf: colon)
        writeInline(member.value, separator: separator, colon: colon, into: &output)
      }
      output.append(UInt8(ascii: "}"))
    default:
      writeScalar(value, into: &output)
    }
  }

  private static func writePretty(_ value: JSONValue, indent: Int, level: Int, into output: inout [UInt8]) {
    let inlineSeparator: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: " ")]
    let colon: [UInt8] = [UInt8(ascii: ":"), UInt8(ascii: " ")]
    func newline(_ level: Int) {
      output.append(UInt8(ascii: "\n"))
      output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }
    switch value.content {
    case .array(let elements) where !elements.allSatisfy(\.isScalar):
      output.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { output.append(UInt8(ascii: ",")) }
        newline(level + 1)
        writePretty(element, indent: indent, level: level + 1, into: &output)
      }
      newline(level)
      output.append(UInt8(ascii: "]"))
    case .object(let members) where !members.allSatisfy(\.value.isScalar):
      output.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { output.append(UInt8(ascii: ",")) }
        newline(level + 1)
        writeString(member.key, into: &output)
        output.append(contentsOf: colon)
        writePretty(member.value, indent: indent, level: level + 1, into: &output)
      }
      newline(level)
      output.append(UInt8(ascii: "}"))
    default:
      writeInline(value, separator: inlineSeparator, colon: colon, into: &output)
    }
  }

  private static func writeScalar(_ value: JSONValue, into output: inout [UInt8]) {
    switch value.content {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let number): output.append(contentsOf: number.text.utf8)
    case .string(let text): writeString(text, into: &output)
    case .array, .object: break
    }
  }

  private static func writeString(_ text: String, into output: inout [UInt8]) {
    let hexDigits = Array("0123456789abcdef".utf8)
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
      case 0x0A: output.append(contentsOf: "\\n".utf8)
      case 0x0D: output.append(contentsOf: "\\r".utf8)
      case 0x09: output.append(contentsOf: "\\t".utf8)
      case 0..<0x20:
        output.append(contentsOf: "\\u00".utf8)
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
