// JSON: a strict reader and a deterministic writer, on bytes, without Foundation.
//
// The reader turns `[UInt8]` into a tree of `JSONValue`s, each carrying the byte offset where it
// starts, so that a document decoder can point at the exact place a value went wrong. It is strict
// (RFC 8259): UTF-8 is validated, `NaN`/`Infinity`, leading zeros, trailing commas, control
// characters in strings, lone surrogates and trailing garbage are errors. Recursion is bounded by
// `JSONReader.maximumDepth`, so hostile nesting fails with an error instead of exhausting the stack.
// No input traps: every count taken from the input uses wrapping or checked arithmetic.
//
// Numbers keep their source text (`JSONNumber`), and the decoder converts each once, to exactly the
// type it needs, correctly rounded. The scanner reads the digits into a significand as it checks
// them, so most conversions are one floating-point operation (`ShortDecimal` says when that is
// exact; the rest go to the library). Objects keep their members in source order, duplicates
// included; what a duplicate means is the decoder's decision.
//
// A native document's point rows are most of its bytes: `JSONReader.parseNative` reads the strokes'
// `points` straight into floats beside the tree (measured: five times fewer instructions to load the
// notes scene than with every number in the tree and converted by `strtof`), and a stroke of the
// plain shape the writer gives most strokes whole into its parts (a fifth fewer instructions to load
// the 200 thumbnail pages: the tree of a stroke's few other members, and picking them out of it, had
// cost a third as much as its points). The decoder falls back to the tree for any row or stroke it
// cannot take, so errors read the same either way. `JSONReader.parseRnote` does the same for the
// segments of an Rnote path, three objects and an array a point (a third of the instructions to
// load `rnote/lecture_note_1.rnote`).
//
// The writer (`JSONWriter`) prints members in the order it is given, so the encoder fixes the key
// order; numbers print as their text, which `JSONNumber` builds from Swift's shortest round-trip
// representation. Its pretty style puts a container whose children are all scalars on one line,
// which keeps point rows, colors and transforms compact and readable.

/// A JSON value and the byte offset of its first character in the source.
public struct JSONValue: Hashable, Sendable {
  /// The value itself.
  public enum Content: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    /// Members in source order; keys may repeat.
    case object([JSONMember])
  }

  public var content: Content
  /// Byte offset of the value's first character in the source; 0 for values built in code.
  public var offset: Int

  public init(_ content: Content, offset: Int = 0) {
    self.content = content
    self.offset = offset
  }

  /// A name for the value's type, for error messages: `null`, `a boolean`, `a number`, `a string`,
  /// `an array` or `an object`.
  public var typeDescription: String {
    switch content {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// Whether the value is not an array or an object.
  public var isScalar: Bool {
    switch content {
    case .array, .object: return false
    default: return true
    }
  }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Hashable, Sendable {
  public var key: String
  /// Byte offset of the key's opening quote.
  public var keyOffset: Int
  public var value: JSONValue

  public init(key: String, keyOffset: Int = 0, value: JSONValue) {
    self.key = key
    self.keyOffset = keyOffset
    self.value = value
  }
}
