import InkwellModel

/// Why a document could not be read (or written), and where.
///
/// `description` is one line: the JSON path of the offending value when there is one
/// (`drawing.strokes[3].points[17][2]`), the problem, and its place in the file
/// (`line 40, column 9, byte 1234`). Text importers give no path; their location names the line and
/// column of the offending field.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The problem itself.
  public enum Kind: Hashable, Sendable {
    /// The bytes are not JSON.
    case invalidJSON(JSONError.Reason)
    /// A value of the wrong JSON type; both are descriptions such as `an array`.
    case wrongType(expected: String, found: String)
    /// A required object key is absent.
    case missingKey(String)
    /// An object names the same key twice.
    case duplicateKey(String)
    /// `format` is not `"inkwell"`.
    case notInkwellDocument(format: String)
    /// `version` is newer than this reader.
    case unsupportedVersion(found: Int, supported: Int)
    /// `version` is not a positive whole number.
    case invalidVersion(String)
    /// `ink.type` is none of `InkType`'s raw values.
    case unknownInkType(String)
    /// A color that is neither `#rrggbb`/`#rrggbbaa` nor four numbers in 0…1.
    case invalidColor(String)
    /// A number beyond the range of the type that stores it (`Float` for almost everything).
    case numberOutOfRange(String)
    /// A number outside its allowed range; `allowed` says which (`>= 0`).
    case valueOutOfRange(value: String, allowed: String)
    /// A value that must be a whole number in `range` is not.
    case notAnInteger(String, range: String)
    /// A fixed-length array (transform, bounds, color) of the wrong length.
    case wrongArrayLength(expected: Int, found: Int, elements: String)
    /// A name listed twice in a stroke's `fields`.
    case duplicateField(String)
    /// A name in `fields` that is not a point field.
    case unknownField(String)
    /// A required point field (`x`, `y`) missing from `fields`.
    case missingField(String)
    /// A point row whose length differs from the number of fields.
    case wrongRowLength(expected: Int, found: Int, fields: [String])
    /// A text row with the wrong number of columns; `columns` names them.
    case wrongColumnCount(expected: Int, found: Int, columns: String)
    /// A text field that is not a decimal number.
    case notANumber(String)
    /// The arrays of a column-wise JSON capture differ in length.
    case mismatchedLengths(String)
    /// Writing: a number that is infinite or NaN, which JSON cannot hold.
    case nonFiniteValue
    /// An importer's own failure: XML, compression, protobuf or the imported format's rules.
    case importFailure(ImportFailure)
  }

  public var kind: Kind
  /// The JSON path of the offending value (`""` is the document itself); `nil` outside JSON.
  public var path: String?
  public var location: SourceLocation?

  public init(_ kind: Kind, path: String? = nil, location: SourceLocation? = nil) {
    self.kind = kind
    self.path = path
    self.location = location
  }

  /// The problem alone, without path or location.
  public var message: String {
    switch kind {
    case .invalidJSON(let reason): return "invalid JSON: " + reason.message
    case .wrongType(let expected, let found): return "expected \(expected), found \(found)"
    case .missingKey(let key): return "missing required key \"\(key)\""
    case .duplicateKey(let key): return "duplicate key \"\(key)\""
    case .notInkwellDocument(let format): return "format is \"\(format)\", expected \"inkwell\""
    case .unsupportedVersion(let found, let supported):
      return "\(found) is newer than the newest supported version (\(supported))"
    case .invalidVersion(let text): return "version must be a positive whole number, found \(text)"
    case .unknownInkType(let name):
      let known = InkType.allCases.map(\.rawValue).joined(separator: ", ")
      return "unknown ink type \"\(name)\" (known: \(known))"
    case .invalidColor(let text):
      return
        "invalid color \(text): expected \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] with components in 0...1"
    case .numberOutOfRange(let text): return "\(text) is beyond the range of a 32-bit float"
    case .valueOutOfRange(let value, let allowed): return "\(value) is out of range, expected \(allowed)"
    case .notAnInteger(let text, let range): return "expected a whole number in \(range), found \(text)"
    case .wrongArrayLength(let expected, let found, let elements):
      return "expected \(expected) numbers (\(elements)), found \(found)"
    case .duplicateField(let name): return "field \"\(name)\" is listed twice"
    case .unknownField(let name):
      let known = PointField.allCases.map(\.rawValue).joined(separator: ", ")
      return "unknown field \"\(name)\" (known: \(known))"
    case .missingField(let name): return "fields must include \"\(name)\""
    case .wrongRowLength(let expected, let found, let fields):
      return "expected \(expected) numbers (fields \(fields.joined(separator: ", "))), found \(found)"
    case .wrongColumnCount(let expected, let found, let columns):
      return "expected \(expected) numbers (\(columns)), found \(found)"
    case .notANumber(let text): return "\"\(text)\" is not a number"
    case .mismatchedLengths(let detail): return "arrays differ in length: \(detail)"
    case .nonFiniteValue: return "cannot write an infinite or NaN number"
    case .importFailure(let failure): return failure.message
    }
  }

  /// One line: `PATH: MESSAGE (line L, column C, byte B)`.
  public var description: String {
    var text = ""
    if let path { text += (path.isEmpty ? "document" : path) + ": " }
    text += message
    if let location { text += " (\(location))" }
    return text
  }
}
