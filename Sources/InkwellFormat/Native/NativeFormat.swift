// Native: Inkwell's own document format, JSON, version 1 (specified in docs/format.md).
//
// A document is one JSON object: `format` ("inkwell"), `version`, an optional canvas `bounds`, and a
// `drawing` whose `strokes` each carry an ink, an optional transform, seed and creation date, and
// their points as rows of numbers whose columns `fields` names. Rows keep files compact (a point is
// one short line) while staying self-describing; a column appears only when some point differs from
// its default, so a plain pen trace is `x, y, t`.
//
// Decoding is strict about what it understands: every value is type-checked, numbers that overflow
// `Float` are errors, and each error names the JSON path and the line and column of the value. Keys
// it does not know are ignored. Encoding is deterministic (fixed key order, shortest round-trip
// numbers), so encode → decode → encode reproduces the bytes exactly.

import InkwellModel

/// Reads and writes the native format.
public enum NativeFormat {
  /// The format version this code writes and the newest it reads.
  public static let version = 1

  /// The file name extension of native documents.
  public static let fileExtension = ".inkwell.json"

  /// Decodes a native document.
  /// - Throws: `DocumentError` naming the first problem, its JSON path and its location.
  public static func decode(_ bytes: [UInt8]) throws(DocumentError) -> Document {
    try NativeDecoder(bytes: bytes).decode()
  }

  /// Encodes `document`: pretty JSON with 2-space indentation and one point row per line.
  /// - Throws: `DocumentError.Kind.nonFiniteValue` when a value is infinite or NaN.
  public static func encode(_ document: Document) throws(DocumentError) -> [UInt8] {
    JSONWriter.write(try NativeEncoder.encode(document), style: .pretty(indent: 2))
  }
}
