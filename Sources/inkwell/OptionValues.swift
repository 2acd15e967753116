// Option values that several commands take, read one way so that they mean and say the same.

import Inkwell

/// Parsers for shared option values; each throws the command's own usage error (`invalid`) with
/// a message naming the option and what it expects.
enum OptionValues {
  /// The document in `bytes` (read from `path`) and its format: `format` when `--from` names
  /// one, else the one the name and contents settle, which reads a JSON recording once for both
  /// (`DocumentFormat.detectAndLoad`). `nil` when no format is named or found.
  static func document(
    _ bytes: [UInt8], path: String, format: DocumentFormat?
  ) throws(DocumentError) -> (format: DocumentFormat, document: Document)? {
    if let format { return (format, try format.load(bytes)) }
    return try DocumentFormat.detectAndLoad(path: path, bytes: bytes)
  }

  /// `--size WxH`: a box of positive whole numbers.
  static func box(_ text: String, invalid: (String) -> CommandError) throws -> (width: Int, height: Int) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
      throw invalid("--size expects WxH with positive whole numbers, got '\(text)'")
    }
    return (w, h)
  }

  /// `--background COLOR | transparent`.
  static func background(_ text: String, invalid: (String) -> CommandError) throws -> Color {
    guard let color = Color(parsing: text) else {
      throw invalid("--background expects #rrggbb, #rrggbbaa, a color name or 'transparent', got '\(text)'")
    }
    return color
  }

  /// `--from FORMAT`: a format's short name.
  static func format(_ text: String, invalid: (String) -> CommandError) throws -> DocumentFormat {
    guard let format = DocumentFormat(name: text) else {
      let known = DocumentFormat.allCases.map(\.name).joined(separator: ", ")
      throw invalid("unknown format '\(text)' (known: \(known))")
    }
    return format
  }

  /// `--dither ordered|none` (also on and off): whether 8-bit output is dithered.
  static func dither(_ text: String, invalid: (String) -> CommandError) throws -> Bool {
    switch text.lowercased() {
    case "ordered", "on": return true
    case "none", "off": return false
    default: throw invalid("--dither expects ordered or none, got '\(text)'")
    }
  }
}
