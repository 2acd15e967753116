import InkwellModel

/// Why a document could not be read (or written), and where.
///
/// `description` is one line: the path of the offending value when there is one
/// (`drawing.strokes[3].points[17][2]`), the problem, and its place in the file
/// (`line 40, column 9, byte 1234` in text, `byte 1234` in binary). Text importers give no path;
/// their location names the line and column of the offending field.
///
/// Every error also falls in one of three `Category`s, the distinction an application acts on:
/// not our format, our format but newer than this build (show `thumbnailPNG`), or our format but
/// broken.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What an application can do about an error.
  public enum Category: String, Hashable, Sendable {
    /// The bytes are not a document of the format asked for.
    case incorrectFormat
    /// The document is from a newer format or content version than this build reads;
    /// `thumbnailPNG` holds its embedded picture when it has one.
    case incompatibleFormatTooNew
    /// The document is of the format but broken: truncated, corrupted or invalid.
    case malformedData
  }

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
    /// The document's content needs a newer content version than this build reads.
    case contentTooNew(found: Int, supported: Int)
    /// A key that belongs to another format version (`drawing` in version 2, `elements` in 1).
    case keyNotInVersion(key: String, version: Int)
    /// A name that is none of the allowed ones (`known` lists them).
    case unknownName(String, known: [String])
    /// A string that is not RFC 4648 base64.
    case invalidBase64
    /// Writing: a preserved unknown field whose name is one the format itself uses at that level.
    case reservedFieldName(String)
    /// Writing: a preserved unknown field whose value is not JSON text.
    case invalidPreservedField(String)
    /// Binary: the data ends before a value of `needed` bytes (`available` are left).
    case truncated(needed: Int, available: Int)
    /// Binary: a count or length that cannot fit in what is left of its section.
    case countTooLarge(count: UInt64, what: String, limit: Int)
    /// Binary: a structural problem (section order, flags, encodings), described.
    case invalidBinary(String)
    /// Binary: text that is not valid UTF-8.
    case invalidUTF8
    /// Binary: a compressed section that does not inflate to its stated size.
    case decompressionFailed(String)
  }

  public var kind: Kind
  /// The path of the offending value (`""` is the document itself); `nil` for text importers.
  public var path: String?
  /// Line, column and byte of the offending value in a text file.
  public var location: SourceLocation?
  /// Binary: the offset of the offending bytes in the file or, inside a compressed section (named by
  /// `path`), in that section's decompressed bytes.
  public var byteOffset: Int?
  public var category: Category
  /// With `incompatibleFormatTooNew`: the document's embedded thumbnail, when it has one.
  public var thumbnailPNG: [UInt8]?

  public init(
    _ kind: Kind, path: String? = nil, location: SourceLocation? = nil, byteOffset: Int? = nil,
    category: Category? = nil, thumbnailPNG: [UInt8]? = nil
  ) {
    self.kind = kind
    self.path = path
    self.location = location
    self.byteOffset = byteOffset
    self.category = category ?? kind.category
    self.thumbnailPNG = thumbnailPNG
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
    case .contentTooNew(let found, let supported):
      return "content version \(found) is newer than the newest supported content version (\(supported))"
    case .keyNotInVersion(let key, let version): return "key \"\(key)\" does not belong in version \(version)"
    case .unknownName(let name, let known):
      return "unknown name \"\(name)\" (known: \(known.joined(separator: ", ")))"
    case .invalidBase64: return "invalid base64"
    case .reservedFieldName(let name): return "unknown field \"\(name)\" has the name of a known key"
    case .invalidPreservedField(let name): return "unknown field \"\(name)\" does not hold JSON text"
    case .truncated(let needed, let available):
      return "data ends early: \(needed) bytes needed, \(available) left"
    case .countTooLarge(let count, let what, let limit):
      return "\(what) count \(count) exceeds what the remaining data can hold (\(limit))"
    case .invalidBinary(let detail): return detail
    case .invalidUTF8: return "invalid UTF-8"
    case .decompressionFailed(let detail): return "compressed data is corrupt: \(detail)"
    }
  }

  /// One line: `PATH: MESSAGE (line L, column C, byte B)`.
  public var description: String {
    var text = ""
    if let path { text += (path.isEmpty ? "document" : path) + ": " }
    text += message
    if let location {
      text += " (\(location))"
    } else if let byteOffset {
      text += " (byte \(byteOffset))"
    }
    return text
  }
}

extension DocumentError.Kind {
  /// The category an error of this kind has unless its reader knows better (a reader decides
  /// whether unparsable JSON is another format or a broken document of its own).
  public var category: DocumentError.Category {
    switch self {
    case .notInkwellDocument: return .incorrectFormat
    case .unsupportedVersion, .contentTooNew: return .incompatibleFormatTooNew
    default: return .malformedData
    }
  }
}
