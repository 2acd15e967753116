// InkwellFormat: reading and writing Inkwell documents, and importing recorded pen input.
//
// Layout: `JSON/` is a strict, offset-tracking JSON reader and a deterministic writer (no
// Foundation); `Native/` is Inkwell's own format on top of it; `Importers/` turn other tools'
// recordings into documents. `DocumentFormat` is the front door: it names every format, guesses a
// file's format from its name and first bytes, and loads it. Every failure is a `DocumentError` that
// says what is wrong and where (JSON path, line, column, byte offset); no input, however broken or
// truncated, traps.

import InkwellModel

/// The formats Inkwell reads. Only `.native` is also written.
public enum DocumentFormat: String, CaseIterable, Hashable, Sendable {
  /// Inkwell's own format, JSON (`.inkwell.json`, `NativeFormat`) or binary (`.inkwell`,
  /// `BinaryFormat`).
  case native
  /// libmypaint's recorded events (`.dat`); see `LibMyPaintEventsImporter`.
  case libmypaintEvents = "mypaint"
  /// BDALab's Wacom SVC tables (`.svc`); see `BDALabSVCImporter`.
  case bdalabSVC = "svc"
  /// BDALab's browser PointerEvent captures (`.json`); see `BDALabSignalJSONImporter`.
  case bdalabSignalJSON = "signal-json"

  /// The format's short name, as `inkwell convert --from` spells it.
  public var name: String { rawValue }

  /// The format named `name` (`native`, `mypaint`, `svc`, `signal-json`), or `nil`.
  public init?(name: String) {
    self.init(rawValue: name)
  }

  /// Guesses the format of a file from its name and contents.
  ///
  /// Content decides when it is conclusive: a JSON object with a `format` key is native; one with
  /// `x`, `y` and `buttons` arrays is a signal capture; text whose first line is a single number and
  /// whose next line has 7 numbers is SVC; text whose first line has 4 numbers is libmypaint events.
  /// Otherwise the extension decides (`.inkwell.json`/`.inkwell`, `.dat`, `.svc`). `nil` when neither
  /// settles it.
  public static func detect(path: String, bytes: [UInt8]) -> DocumentFormat? {
    if let format = detect(bytes: bytes) { return format }
    let lowered = path.lowercased()
    if lowered.hasSuffix(".inkwell.json") || lowered.hasSuffix(".inkwell") { return .native }
    if lowered.hasSuffix(".dat") { return .libmypaintEvents }
    if lowered.hasSuffix(".svc") { return .bdalabSVC }
    return nil
  }

  /// Loads a document in this format.
  /// - Throws: `DocumentError`.
  public func load(_ bytes: [UInt8]) throws(DocumentError) -> Document {
    switch self {
    case .native: return try NativeFormat.decode(bytes)
    case .libmypaintEvents: return try LibMyPaintEventsImporter.load(bytes)
    case .bdalabSVC: return try BDALabSVCImporter.load(bytes)
    case .bdalabSignalJSON: return try BDALabSignalJSONImporter.load(bytes)
    }
  }

  private static func detect(bytes: [UInt8]) -> DocumentFormat? {
    if BinaryFormat.isBinary(bytes) { return .native }
    let firstByte = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if firstByte == UInt8(ascii: "{") {
      guard let root = try? JSONReader.parse(bytes), case .object(let members) = root.content else {
        return nil
      }
      let keys = Set(members.map(\.key))
      if keys.contains("format") { return .native }
      if keys.isSuperset(of: ["x", "y", "buttons"]) { return .bdalabSignalJSON }
      return nil
    }
    // Only the first two lines are needed; don't tokenize a whole large file.
    var lineEnds = 0
    var prefixEnd = bytes.count
    for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lineEnds += 1
      if lineEnds == 2 {
        prefixEnd = i
        break
      }
    }
    let rows = TextTable(Array(bytes[..<prefixEnd])).rows
    let counts = rows.map(\.fields.count)
    let allNumeric = rows.allSatisfy { $0.fields.allSatisfy { isDecimalNumber($0.text) } }
    guard allNumeric, let first = counts.first else { return nil }
    if first == 1, counts.count == 2, counts[1] == 7 { return .bdalabSVC }
    if first == 4 { return .libmypaintEvents }
    return nil
  }
}
