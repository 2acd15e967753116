// Native: Inkwell's own document format, JSON, versions 1 and 2 (specified in docs/format.md); its
// binary twin is in `Binary/`.
//
// A document is one JSON object: `format` ("inkwell"), `version`, an optional canvas `bounds`, and
// (version 1) a `drawing` or (version 2) a content version, a feature set, ordered `elements` and a
// thumbnail. Strokes each carry an ink, an optional transform, seed, creation date and mask, and
// their points as rows of numbers whose columns `fields` names. Rows keep files compact (a point is
// one short line) while staying self-describing; a column appears only when some point differs from
// its default, so a plain pen trace is `x, y, t`.
//
// Decoding is strict about what it understands: every value is type-checked, numbers that overflow
// `Float` are errors, and each error names the JSON path and the line and column of the value. Keys
// it does not know are kept, as compact JSON text, and written back after the known ones. Encoding is deterministic (fixed key order, shortest round-trip
// numbers), so encode → decode → encode reproduces the bytes exactly.

import InkwellModel

/// Reads and writes the native format.
public enum NativeFormat {
  /// The format version this code writes and the newest it reads.
  public static let version = 2

  /// The file name extension of native documents.
  public static let fileExtension = ".inkwell.json"

  /// Decodes a native document, JSON or binary (recognized by `BinaryFormat.magic`).
  /// - Throws: `DocumentError` naming the first problem, its path and its location.
  public static func decode(_ bytes: [UInt8]) throws(DocumentError) -> Document {
    if BinaryFormat.isBinary(bytes) { return try BinaryFormat.decode(bytes) }
    return try NativeDecoder(bytes: bytes).decode()
  }

  /// Encodes `document` as JSON: by default pretty, with 2-space indentation and one point row per
  /// line. Writes format version 1 when the document fits it, else version 2.
  /// - Throws: `DocumentError` (`nonFiniteValue`, `reservedFieldName`, `invalidPreservedField`)
  ///   when the document holds a value the format cannot.
  public static func encode(
    _ document: Document, style: JSONWriter.Style = .pretty(indent: 2)
  ) throws(DocumentError) -> [UInt8] {
    JSONWriter.write(try NativeEncoder.encode(document), style: style)
  }
}
