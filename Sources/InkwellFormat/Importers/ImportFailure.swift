/// The failures particular to the importers, carried by `DocumentError.Kind.importFailure`:
/// the containers they unpack (XML, gzip, protobuf) and the rules of the formats they read.
public enum ImportFailure: Error, Hashable, Sendable {
  /// The bytes are not well-formed XML.
  case invalidXML(XMLError.Reason)
  /// The root element is not the one the format requires.
  case wrongRootElement(found: String, expected: String)
  /// A required attribute is absent.
  case missingAttribute(element: String, attribute: String)
  /// A reference (`brushRef="#b1"`) to an id that nothing defines.
  case undefinedReference(String)
  /// References that lead back to where they started.
  case circularReference(String)
  /// A point with too few or too many values; `channels` names what was expected.
  case wrongValueCount(expected: String, found: Int, channels: String)
  /// A trace value that cannot be read (`token` as written).
  case invalidTraceValue(String)
  /// The bytes do not start with the gzip signature.
  case notGzip
  /// The compressed stream is damaged (zlib's message).
  case corruptCompressedData(String)
  /// The compressed stream ends before its end marker.
  case truncatedCompressedData
  /// Decompressing would produce more than `limit` bytes.
  case decompressedSizeLimitExceeded(limit: Int)
  /// The bytes are not a valid protobuf message.
  case invalidProtobuf(ProtobufReader.Failure)
  /// A value outside what the format allows; `detail` says what.
  case unsupportedContent(String)

  /// What went wrong, in a few words.
  public var message: String {
    switch self {
    case .invalidXML(let reason): return "invalid XML: " + reason.message
    case .wrongRootElement(let found, let expected):
      return "the root element is <\(found)>, expected <\(expected)>"
    case .missingAttribute(let element, let attribute):
      return "<\(element)> needs the attribute \"\(attribute)\""
    case .undefinedReference(let id): return "nothing is defined with the id \"\(id)\""
    case .circularReference(let id): return "references starting at \"\(id)\" form a cycle"
    case .wrongValueCount(let expected, let found, let channels):
      return "expected \(expected) values (\(channels)), found \(found)"
    case .invalidTraceValue(let token): return "\"\(token)\" is not a trace value"
    case .notGzip: return "not gzip-compressed data"
    case .corruptCompressedData(let detail): return "corrupt compressed data: \(detail)"
    case .truncatedCompressedData: return "the compressed data is truncated"
    case .decompressedSizeLimitExceeded(let limit):
      return "the data decompresses to more than \(limit) bytes"
    case .invalidProtobuf(let failure): return "invalid protobuf: " + failure.message
    case .unsupportedContent(let detail): return detail
    }
  }
}

extension DocumentError {
  /// An importer failure at byte `offset` of `bytes`.
  static func importFailure(
    _ failure: ImportFailure, at offset: Int? = nil, in bytes: [UInt8]? = nil, path: String? = nil
  ) -> DocumentError {
    let location = offset.flatMap { offset in bytes.map { SourceLocation(offset: offset, in: $0) } }
    return DocumentError(.importFailure(failure), path: path, location: location)
  }

  /// An XML syntax error as a document error.
  init(_ error: XMLError) {
    self.init(.importFailure(.invalidXML(error.reason)), location: error.location)
  }
}
