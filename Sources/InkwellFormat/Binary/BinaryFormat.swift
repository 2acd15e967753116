// Binary: the native model in a compact, fast-loading form (`.inkwell`), for farms and caches.
//
// It holds exactly what the JSON form holds, so JSON → binary → JSON reproduces the JSON bytes. The
// layout (all integers little-endian, varints LEB128, specified in docs/format.md):
//
//   magic    89 49 4E 4B 42 0D 0A 1A   ("\x89INKB\r\n\x1a": binary, and broken by text transfers)
//   version  u16, flags u16 (0)
//   sections tag (4 ASCII bytes), u32 length, payload — HEAD, THMB?, ELEM, ancillary…, IEND
//
// The section framing never changes, so a reader can always find the thumbnail (THMB) of a file
// too new for it. HEAD holds the content version, canvas, feature set and top-level unknown fields;
// ELEM holds the elements as one zlib stream. A tag starting with a lowercase letter is ancillary:
// readers that do not know it keep it (as a top-level unknown field `section:<tag>` holding its
// base64) and write it back; an unknown uppercase tag is an error.
//
// Point columns are predicted and varint-coded (`ColumnCodec`), then deflated together with the rest
// of the elements. Plain Float32 columns were measured first and reach only 2.3–2.5× below compact
// JSON, deflated Float32 3.3–5.3×; predicted varints deflated reach 6.2–11.8× (docs/format.md).
//
// Reading validates every count against the bytes left before allocating and every value as the
// JSON reader does, and inflates only to a declared size no larger than deflate's 1032:1 limit
// allows, so no input traps or allocates much beyond its own size.

import InkwellModel

/// Reads and writes the binary native format.
public enum BinaryFormat {
  /// The binary layout version this code writes and the newest it reads.
  public static let version: UInt16 = 1

  /// The first eight bytes of every binary document.
  public static let magic: [UInt8] = [0x89, 0x49, 0x4E, 0x4B, 0x42, 0x0D, 0x0A, 0x1A]

  /// The file name extension of binary documents.
  public static let fileExtension = ".inkwell"

  /// Whether `bytes` start with the binary magic.
  public static func isBinary(_ bytes: [UInt8]) -> Bool {
    bytes.count >= magic.count && bytes[0..<magic.count].elementsEqual(magic)
  }

  /// Decodes a binary document.
  /// - Throws: `DocumentError`: `incorrectFormat` without the magic, `incompatibleFormatTooNew`
  ///   (with the thumbnail) for a newer layout or content version, `malformedData` otherwise, with
  ///   the byte offset and the part of the document being read.
  public static func decode(_ bytes: [UInt8]) throws(DocumentError) -> Document {
    try BinaryDecoder(bytes: bytes).decode()
  }

  /// Encodes `document`.
  /// - Throws: `DocumentError` when the document holds a value the JSON form could not hold either
  ///   (an infinite or NaN number, a preserved field that is not JSON or has a reserved name), so
  ///   that every binary file converts to JSON.
  public static func encode(_ document: Document) throws(DocumentError) -> [UInt8] {
    // The JSON encoder's checks are the contract both encodings share.
    _ = try NativeEncoder.encode(document)
    return BinaryEncoder.encode(document)
  }
}
