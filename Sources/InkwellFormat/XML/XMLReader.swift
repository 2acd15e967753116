// XML: a small, strict, non-validating reader for the XML-based importers (InkML, Xournal++).
//
// It reads a whole document into a tree of `XMLElement`s: names, attributes (in source order,
// duplicates rejected) and text, each with the byte offset where it starts, so that an importer can
// point at the exact place a value went wrong. Character and predefined entity references are
// expanded, CDATA sections become text, and comments, processing instructions and a DOCTYPE
// (including its internal subset) are skipped. There is no DTD processing: an entity the document
// declares itself is an error, like any other unknown entity, and nothing is fetched.
//
// Strictness follows the JSON reader: the input must be UTF-8 (checked in one pass up front, so the
// tree builder can slice strings without re-validating), tags must nest and match, and nesting is
// bounded by `maximumDepth`, so hostile input fails with an error instead of exhausting the stack.
// Namespaces are not resolved: a prefixed name keeps its prefix, and `XMLElement.localName` drops
// it, which is all InkML's optional `inkml:` prefix needs.

/// One element: its name, attributes and children, with the byte offset of its `<`.
public struct XMLElement: Hashable, Sendable {
  /// One child: an element or a run of text (character data, references expanded, CDATA included).
  public enum Node: Hashable, Sendable {
    case element(XMLElement)
    case text(String, offset: Int)
  }

  /// One `name="value"` pair; `value` has its references expanded and whitespace normalized.
  public struct Attribute: Hashable, Sendable {
    public var name: String
    public var value: String
    /// Byte offset of the attribute's name.
    public var offset: Int
  }

  /// The qualified name as written (`inkml:trace`).
  public var name: String
  public var attributes: [Attribute]
  public var children: [Node]
  /// Byte offset of the element's `<`.
  public var offset: Int

  /// The name without its namespace prefix (`trace`).
  public var localName: String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
  }

  /// The value of the attribute named `name` (a qualified name, `xml:id`), if present.
  public func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// The child elements, in order.
  public var elements: [XMLElement] {
    children.compactMap {
      if case .element(let element) = $0 { return element }
      return nil
    }
  }

  /// The element's text children joined, and the offset of the first one (or of the element).
  public var text: (String, offset: Int) {
    var text = ""
    var offset: Int?
    for case .text(let run, let runOffset) in children {
      if offset == nil { offset = runOffset }
      text += run
    }
    return (text, offset ?? self.offset)
  }
}

/// Why bytes are not well-formed XML, and where.
public struct XMLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Hashable, Sendable {
    /// The input ended inside a construct (`expected` says what was still needed).
    case unexpectedEnd(expected: String)
    /// A character that cannot appear here.
    case unexpectedCharacter(found: String, expected: String)
    /// A byte sequence that is not valid UTF-8.
    case invalidUTF8
    /// An end tag that does not match the open element.
    case mismatchedEndTag(found: String, expected: String)
    /// An attribute given twice on one element.
    case duplicateAttribute(String)
    /// `&name;` for a name other than `lt`, `gt`, `amp`, `apos` and `quot`.
    case unknownEntity(String)
    /// A character reference to something that is not an XML character.
    case invalidCharacterReference(String)
    /// Elements nested deeper than the reader's limit.
    case nestingTooDeep(limit: Int)
    /// No root element, or more than one.
    case rootElementCount(Int)
    /// Text other than whitespace outside the root element.
    case textOutsideRootElement
  }

  public var reason: Reason
  public var location: SourceLocation

  public init(reason: Reason, location: SourceLocation) {
    self.reason = reason
    self.location = location
  }

  /// `invalid XML: MESSAGE (line L, column C, byte B)`.
  public var description: String { "invalid XML: \(reason.message) (\(location))" }
}

extension XMLError.Reason {
  /// What went wrong, in a few words.
  public var message: String {
    switch self {
    case .unexpectedEnd(let expected): return "unexpected end of input, expected \(expected)"
    case .unexpectedCharacter(let found, let expected): return "unexpected \(found), expected \(expected)"
    case .invalidUTF8: return "invalid UTF-8"
    case .mismatchedEndTag(let found, let expected): return "end tag </\(found)> does not close <\(expected)>"
    case .duplicateAttribute(let name): return "attribute \"\(name)\" is given twice"
    case .unknownEntity(let name): return "unknown entity &\(name);"
    case .invalidCharacterReference(let text): return "&#\(text); is not an XML character"
    case .nestingTooDeep(let limit): return "elements nested more than \(limit) deep"
    case .rootElementCount(let count): return "expected one root element, found \(count)"
    case .textOutsideRootElement: return "text outside the root element"
    }
  }
}

/// Parses XML text (UTF-8 bytes) into its root `XMLElement`; see the module head.
public struct XMLReader {
  /// The deepest nesting of elements accepted.
  public static let defaultMaximumDepth = 256

  private let bytes: [UInt8]
  private let maximumDepth: Int
  private var index = 0

  private init(bytes: [UInt8], maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// Parses a document with exactly one root element. A UTF-8 byte-order mark is skipped.
  /// - Throws: `XMLError` with the offset, line and column of the first problem.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
  ) throws(XMLError) -> XMLElement {
    if let bad = firstInvalidUTF8Offset(bytes) {
      throw XMLError(reason: .invalidUTF8, location: SourceLocation(offset: bad, in: bytes))
    }
    var reader = XMLReader(bytes: bytes, maximumDepth: maximumDepth)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
    var root: XMLElement?
    var rootCount = 0
    while true {
      reader.skipWhitespace()
      guard reader.index < bytes.count else { break }
      guard reader.bytes[reader.index] == UInt8(ascii: "<") else {
        throw reader.error(.textOutsideRootElement)
      }
      if try reader.skipMarkupOtherThanElement(allowDoctype: root == nil) { continue }
      let start = reader.index
      let element = try reader.parseElement(depth: 0)
      rootCount &+= 1
      if root != nil {
        reader.index = start
        throw reader.error(.rootElementCount(rootCount))
      }
      root = element
    }
    guard let root else { throw reader.error(.rootElementCount(0)) }
    return root
  }

  // MARK: Elements

  private mutating func parseElement(depth: Int) throws(XMLError) -> XMLElement {
    let start = index
    guard depth < maximumDepth else { throw error(.nestingTooDeep(limit: maximumDepth)) }
    index &+= 1  // '<'
    let name = try parseName(expected: "an element name")
    var attributes: [XMLElement.Attribute] = []
    while true {
      let hadSpace = skipWhitespace()
      let byte = try peek(expected: "'>', '/>' or an attribute")
      if byte == UInt8(ascii: ">") {
        index &+= 1
        break
      }
      if byte == UInt8(ascii: "/") {
        index &+= 1
        try expect(UInt8(ascii: ">"), "'>'")
        return XMLElement(name: name, attributes: attributes, children: [], offset: start)
      }
      guard hadSpace else { throw unexpected(expected: "whitespace, '>' or '/>'") }
      let attributeOffset = index
      let attributeName = try parseName(expected: "an attribute name")
      if attributes.contains(where: { $0.name == attributeName }) {
        index = attributeOffset
        throw error(.duplicateAttribute(attributeName))
      }
      skipWhitespace()
      try expect(UInt8(ascii: "="), "'='")
      skipWhitespace()
      let value = try parseAttributeValue()
      attributes.append(.init(name: attributeName, value: value, offset: attributeOffset))
    }
    var children: [XMLElement.Node] = []
    var text: [UInt8] = []
    var textOffset = index
    func flushText() {
      if !text.isEmpty {
        children.append(.text(String(decoding: text, as: UTF8.self), offset: textOffset))
        text.removeAll(keepingCapacity: true)
      }
    }
    while true {
      guard index < bytes.count else { throw error(.unexpectedEnd(expected: "</\(name)>")) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") {
        if startsWith("</") {
          flushText()
          let endOffset = index
          index &+= 2
          let endName = try parseName(expected: "an element name")
          skipWhitespace()
          try expect(UInt8(ascii: ">"), "'>'")
          guard endName == name else {
            index = endOffset
            throw error(.mismatchedEndTag(found: endName, expected: name))
          }
          return XMLElement(name: name, attributes: attributes, children: children, offset: start)
        }
        if startsWith("<![CDATA[") {
          if text.isEmpty { textOffset = index }
          index &+= 9
          guard let end = find("]]>") else { throw error(.unexpectedEnd(expected: "']]>'")) }
          text.append(contentsOf: bytes[index..<end])
          index = end &+ 3
          continue
        }
        if try skipMarkupOtherThanElement(allowDoctype: false) { continue }
        flushText()
        children.append(.element(try parseElement(depth: depth &+ 1)))
        textOffset = index
        continue
      }
      if text.isEmpty { textOffset = index }
      if byte == UInt8(ascii: "&") {
        try parseReference(into: &text)
      } else {
        text.append(byte)
        index &+= 1
      }
    }
  }

  /// Skips a comment, a processing instruction or (where allowed) a DOCTYPE at `index`; `false`
  /// when the markup there is something else.
  private mutating func skipMarkupOtherThanElement(allowDoctype: Bool) throws(XMLError) -> Bool {
    if startsWith("<!--") {
      index &+= 4
      guard let end = find("-->") else { throw error(.unexpectedEnd(expected: "'-->'")) }
      index = end &+ 3
      return true
    }
    if startsWith("<?") {
      index &+= 2
      guard let end = find("?>") else { throw error(.unexpectedEnd(expected: "'?>'")) }
      index = end &+ 2
      return true
    }
    if startsWith("<!DOCTYPE") {
      guard allowDoctype else { throw unexpected(expected: "an element") }
      try skipDoctype()
      return true
    }
    if startsWith("<!") { throw unexpected(expected: "an element, comment or CDATA section") }
    return false
  }

  /// Skips `<!DOCTYPE …>`, including an internal subset in brackets and quoted literals.
  private mutating func skipDoctype() throws(XMLError) {
    index &+= 9
    var inSubset = false
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        index &+= 1
        while index < bytes.count, bytes[index] != byte { index &+= 1 }
      case UInt8(ascii: "["): inSubset = true
      case UInt8(ascii: "]"): inSubset = false
      case UInt8(ascii: ">") where !inSubset:
        index &+= 1
        return
      default: break
      }
      index &+= 1
    }
    throw error(.unexpectedEnd(expected: "'>' closing the DOCTYPE"))
  }

  // MARK: Names, values, references

  private static func isNameStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
      UInt8(ascii: ":"), 0x80...0xFF:
      return true
    default: return false
    }
  }

  private static func isNameCharacter(_ byte: UInt8) -> Bool {
    isNameStart(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  private mutating func parseName(expected: String) throws(XMLError) -> String {
    let start = index
    guard index < bytes.count else { throw error(.unexpectedEnd(expected: expected)) }
    guard Self.isNameStart(bytes[index]) else { throw unexpected(expected: expected) }
    while index < bytes.count, Self.isNameCharacter(bytes[index]) { index &+= 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func parseAttributeValue() throws(XMLError) -> String {
    let quote = try peek(expected: "a quoted value")
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
      throw unexpected(expected: "a quoted value")
    }
    index &+= 1
    var value: [UInt8] = []
    while true {
      guard index < bytes.count else { throw error(.unexpectedEnd(expected: "the closing quote")) }
      let byte = bytes[index]
      switch byte {
      case quote:
        index &+= 1
        return String(decoding: value, as: UTF8.self)
      case UInt8(ascii: "<"):
        throw unexpected(expected: "the closing quote")
      case UInt8(ascii: "&"):
        try parseReference(into: &value)
      case 0x09, 0x0A, 0x0D:
        value.append(UInt8(ascii: " "))
        index &+= 1
      default:
        value.append(byte)
        index &+= 1
      }
    }
  }

  /// Expands `&name;`, `&#N;` or `&#xN;` at `index` into `utf8`.
  private mutating func parseReference(into utf8: inout [UInt8]) throws(XMLError) {
    let start = index
    index &+= 1
    var semicolon = index
    while semicolon < bytes.count, semicolon &- index < 32, bytes[semicolon] != UInt8(ascii: ";") {
      semicolon &+= 1
    }
    guard semicolon < bytes.count, bytes[semicolon] == UInt8(ascii: ";") else {
      index = start
      throw error(.unexpectedEnd(expected: "';' ending the reference"))
    }
    let body = Array(bytes[index..<semicolon])
    let bodyText = String(decoding: body, as: UTF8.self)
    index = semicolon &+ 1
    if body.first == UInt8(ascii: "#") {
      var digits = body.dropFirst()
      var radix: UInt32 = 10
      if digits.first == UInt8(ascii: "x") {
        digits = digits.dropFirst()
        radix = 16
      }
      var value: UInt32 = 0
      var valid = !digits.isEmpty
      for byte in digits where valid {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue, UInt32(digit) < radix else {
          valid = false
          break
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: radix)
        valid = !overflow && product <= 0x10FFFF
        value = product &+ UInt32(digit)
      }
      let isXMLCharacter =
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
        || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
      guard valid, isXMLCharacter, let scalar = Unicode.Scalar(value) else {
        index = start
        throw error(.invalidCharacterReference(String(bodyText.dropFirst())))
      }
      utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
      return
    }
    switch bodyText {
    case "lt": utf8.append(UInt8(ascii: "<"))
    case "gt": utf8.append(UInt8(ascii: ">"))
    case "amp": utf8.append(UInt8(ascii: "&"))
    case "apos": utf8.append(UInt8(ascii: "'"))
    case "quot": utf8.append(UInt8(ascii: "\""))
    default:
      index = start
      throw error(.unknownEntity(bodyText))
    }
  }

  // MARK: Helpers

  @discardableResult
  private mutating func skipWhitespace() -> Bool {
    let start = index
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index &+= 1
      default: return index != start
      }
    }
    return index != start
  }

  private func startsWith(_ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard bytes.count &- index >= count else { return false }
    let start = prefix.utf8Start
    for k in 0..<count where bytes[index &+ k] != start[k] { return false }
    return true
  }

  /// The offset of the next occurrence of `needle` at or after `index`.
  private func find(_ needle: StaticString) -> Int? {
    let count = needle.utf8CodeUnitCount
    let start = needle.utf8Start
    let first = start[0]
    var at = index
    while at &+ count <= bytes.count {
      if bytes[at] == first {
        var matches = true
        for k in 1..<count where bytes[at &+ k] != start[k] {
          matches = false
          break
        }
        if matches { return at }
      }
      at &+= 1
    }
    return nil
  }

  private func peek(expected: String) throws(XMLError) -> UInt8 {
    guard index < bytes.count else { throw error(.unexpectedEnd(expected: expected)) }
    return bytes[index]
  }

  private mutating func expect(_ byte: UInt8, _ expected: String) throws(XMLError) {
    guard try peek(expected: expected) == byte else { throw unexpected(expected: expected) }
    index &+= 1
  }

  private func error(_ reason: XMLError.Reason) -> XMLError {
    XMLError(reason: reason, location: SourceLocation(offset: index, in: bytes))
  }

  private func unexpected(expected: String) -> XMLError {
    guard index < bytes.count else { return error(.unexpectedEnd(expected: expected)) }
    let byte = bytes[index]
    let shown: String
    if byte >= 0x80 {
      shown = "non-ASCII character"
    } else if byte < 0x20 || byte == 0x7F {
      shown = "control character"
    } else {
      shown = "'\(Character(Unicode.Scalar(byte)))'"
    }
    return error(.unexpectedCharacter(found: shown, expected: expected))
  }

  /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence.
  static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index &+= 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index
      }
      for k in 1..<length {
        let at = index &+ k
        guard at < bytes.count else { return index }
        let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
        guard bytes[at] >= lo, bytes[at] <= hi else { return index }
      }
      index &+= length
    }
    return nil
  }
}
