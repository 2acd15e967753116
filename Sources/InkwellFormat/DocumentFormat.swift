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
  /// W3C InkML (`.inkml`); see `InkMLImporter`.
  case inkml
  /// Xournal++ and Xournal documents (`.xopp`, `.xoj`); see `XournalImporter`.
  case xournal = "xopp"
  /// MyScript iinkTS symbol lists (`.json`); see `MyScriptImporter`.
  case myscript
  /// perfect-freehand point lists (`.json`); see `PerfectFreehandImporter`.
  case perfectFreehand = "perfect-freehand"
  /// Google Ink recorded stroke inputs (`.binarypb`); see `GoogleInkImporter`.
  case googleInk = "google-ink"
  /// Rnote notes (`.rnote`); see `RnoteImporter`.
  case rnote

  /// The format's short name, as `inkwell convert --from` spells it.
  public var name: String { rawValue }

  /// The format named `name` (`native`, `mypaint`, `svc`, `signal-json`, `inkml`, `xopp`,
  /// `myscript`, `perfect-freehand`, `google-ink`, `rnote`), or `nil`.
  public init?(name: String) {
    self.init(rawValue: name)
  }

  /// Guesses the format of a file from its name and contents.
  ///
  /// Content decides when it is conclusive: a JSON object with a `format` key is native; one with
  /// `x`, `y` and `buttons` arrays is a signal capture; text whose first line is a single number and
  /// whose next line has 7 numbers is SVC; text whose first line has 4 numbers is libmypaint events.
  /// A JSON array or object holding objects with a `pointers` array is MyScript; one of point lists
  /// (arrays of `[x, y, …]` or `{x, y}`) is perfect-freehand. XML whose root is `<ink>` is InkML and
  /// `<xournal>` Xournal; gzip data is Xournal or Rnote by what it decompresses to.
  /// Otherwise the extension decides (`.inkwell.json`/`.inkwell`, `.dat`, `.svc`, `.inkml`, `.xopp`,
  /// `.xoj`, `.rnote`, `.binarypb`). `nil` when neither settles it.
  public static func detect(path: String, bytes: [UInt8]) -> DocumentFormat? {
    detectParsing(path: path, bytes: bytes)?.format
  }

  /// `detect(path:bytes:)`, then `load(_:)` in the format found: a JSON recording, which
  /// detection parses to tell MyScript, perfect-freehand and BDALab captures apart, is parsed
  /// once for both (twice had been most of loading one). `nil` when no format is found.
  /// - Throws: `DocumentError`, as `load(_:)` does.
  public static func detectAndLoad(
    path: String, bytes: [UInt8]
  ) throws(DocumentError) -> (format: DocumentFormat, document: Document)? {
    guard let (format, root) = detectParsing(path: path, bytes: bytes) else { return nil }
    guard let root else { return (format, try format.load(bytes)) }
    switch format {
    case .myscript: return (format, try MyScriptImporter.load(ImportedJSON(bytes, root: root)))
    case .perfectFreehand: return (format, try PerfectFreehandImporter.load(ImportedJSON(bytes, root: root)))
    case .bdalabSignalJSON: return (format, try BDALabSignalJSONImporter.load(bytes, root: root))
    default: return (format, try format.load(bytes))
    }
  }

  /// The format `detect(path:bytes:)` finds, and the JSON tree it parsed to find it, if any.
  private static func detectParsing(path: String, bytes: [UInt8]) -> (
    format: DocumentFormat, root: JSONValue?
  )? {
    if let found = detect(bytes: bytes) { return found }
    let lowered = path.lowercased()
    return suffixFormats.first { lowered.hasSuffix($0.suffix) }.map { ($0.format, nil) }
  }

  /// The name endings that settle a format when the contents do not.
  private static let suffixFormats: [(suffix: String, format: DocumentFormat)] = [
    (".inkwell.json", .native), (".inkwell", .native), (".dat", .libmypaintEvents), (".svc", .bdalabSVC),
    (".inkml", .inkml), (".xopp", .xournal), (".xoj", .xournal), (".rnote", .rnote),
    (".binarypb", .googleInk),
  ]

  /// Every ending a document file's name has (those above and `.json`, which the contents
  /// settle), in lower case, longest first: what a name drops to name something made from it.
  public static let fileSuffixes: [String] = (suffixFormats.map(\.suffix) + [".json"])
    .sorted { $0.utf8.count > $1.utf8.count }

  /// Loads a document in this format.
  /// - Throws: `DocumentError`.
  public func load(_ bytes: [UInt8]) throws(DocumentError) -> Document {
    switch self {
    case .native: return try NativeFormat.decode(bytes)
    case .libmypaintEvents: return try LibMyPaintEventsImporter.load(bytes)
    case .bdalabSVC: return try BDALabSVCImporter.load(bytes)
    case .bdalabSignalJSON: return try BDALabSignalJSONImporter.load(bytes)
    case .inkml: return try InkMLImporter.load(bytes)
    case .xournal: return try XournalImporter.load(bytes)
    case .myscript: return try MyScriptImporter.load(bytes)
    case .perfectFreehand: return try PerfectFreehandImporter.load(bytes)
    case .googleInk: return try GoogleInkImporter.load(bytes)
    case .rnote: return try RnoteImporter.load(bytes)
    }
  }

  /// The format the contents settle, and the JSON tree parsed to settle it, if any.
  private static func detect(bytes: [UInt8]) -> (format: DocumentFormat, root: JSONValue?)? {
    if BinaryFormat.isBinary(bytes) { return (.native, nil) }
    if Gzip.hasSignature(bytes) { return detectCompressed(bytes).map { ($0, nil) } }
    let firstByte = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if firstByte == UInt8(ascii: "{") {
      // A native document names itself near its start; don't parse a large file twice to see it.
      let head = Array(bytes.prefix(4096))
      if contains(head, #""format""#) && contains(head, #""inkwell""#) { return (.native, nil) }
      guard let root = try? JSONReader.parse(bytes), case .object(let members) = root.content else {
        return nil
      }
      let keys = Set(members.map(\.key))
      // A native document is read by its own reader, not from this tree.
      if keys.contains("format") { return (.native, nil) }
      if keys.isSuperset(of: ["x", "y", "buttons"]) { return (.bdalabSignalJSON, root) }
      return detectRecording(root).map { ($0, root) }
    }
    if firstByte == UInt8(ascii: "[") {
      guard let root = try? JSONReader.parse(bytes) else { return nil }
      return detectRecording(root).map { ($0, root) }
    }
    if firstByte == UInt8(ascii: "<") { return detectXML(bytes.prefix(4096)).map { ($0, nil) } }
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
    if first == 1, counts.count == 2, counts[1] == 7 { return (.bdalabSVC, nil) }
    if first == 4 { return (.libmypaintEvents, nil) }
    return nil
  }

  /// Whether `needle`'s UTF-8 bytes occur in `haystack`.
  private static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let pattern = Array(needle.utf8)
    guard pattern.count <= haystack.count else { return false }
    for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
      if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
    }
    return false
  }

  /// MyScript or perfect-freehand, from the shape of a parsed JSON document.
  private static func detectRecording(_ root: JSONValue) -> DocumentFormat? {
    func isPoint(_ value: JSONValue) -> Bool {
      switch value.content {
      case .array(let numbers):
        return (2...4).contains(numbers.count)
          && numbers.allSatisfy {
            if case .number = $0.content { return true }
            return false
          }
      case .object(let members):
        return members.contains { $0.key == "x" } && members.contains { $0.key == "y" }
      default: return false
      }
    }
    func isPointList(_ value: JSONValue) -> Bool {
      guard case .array(let elements) = value.content else { return false }
      return elements.allSatisfy(isPoint)
    }
    func holdsStrokes(_ value: JSONValue, depth: Int) -> Bool {
      guard depth < 4 else { return false }
      switch value.content {
      case .array(let elements): return elements.contains { holdsStrokes($0, depth: depth + 1) }
      case .object(let members):
        if members.contains(where: { $0.key == "pointers" }) { return true }
        return members.contains { holdsStrokes($0.value, depth: depth + 1) }
      default: return false
      }
    }
    switch root.content {
    case .array(let elements):
      if !elements.isEmpty, isPointList(root) { return .perfectFreehand }
    case .object(let members):
      if !members.isEmpty, members.allSatisfy({ isPointList($0.value) }) { return .perfectFreehand }
    default: return nil
    }
    return holdsStrokes(root, depth: 0) ? .myscript : nil
  }

  /// InkML or Xournal, from the root element's name near the start of an XML document.
  private static func detectXML(_ prefix: ArraySlice<UInt8>) -> DocumentFormat? {
    let text = String(decoding: prefix, as: UTF8.self)
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "<") {
      rest = rest[rest.index(after: open)...]
      guard let first = rest.first, first != "?", first != "!" else { continue }
      let name = rest.prefix { !" \t\r\n/>".contains($0) }
      let localName = name.split(separator: ":").last.map(String.init) ?? ""
      if localName == "ink" { return .inkml }
      if localName == "xournal" || localName == "MrWriter" { return .xournal }
      return nil
    }
    return nil
  }

  /// Xournal or Rnote, from the first decompressed bytes.
  private static func detectCompressed(_ bytes: [UInt8]) -> DocumentFormat? {
    guard let prefix = Gzip.decompressedPrefix(bytes, count: 4096) else { return nil }
    let first = prefix.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if first == UInt8(ascii: "<") { return detectXML(prefix[...]) == .xournal ? .xournal : nil }
    if first == UInt8(ascii: "{") {
      // Rnote writes `{"version":"0.9.4","data":…`.
      if String(decoding: prefix.prefix(256), as: UTF8.self).contains("\"version\"") { return .rnote }
    }
    return nil
  }
}
