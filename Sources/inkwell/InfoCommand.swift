// info: what a document holds, for people or (with --json) for scripts.

import Inkwell

/// `inkwell info DOC [--from FORMAT] [--json]`: stroke and point counts, bounds, canvas, inks,
/// required content version and feature set.
enum InfoCommand {
  static func run(_ arguments: [String]) throws {
    var input: String?
    var json = false
    var forcedFormat: DocumentFormat?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": json = true
      case "--from":
        guard let name = remaining.popFirst(), let format = DocumentFormat(name: name) else {
          let known = DocumentFormat.allCases.map(\.name).joined(separator: ", ")
          throw CommandError(message: "info: --from needs a format name (known: \(known))", status: 2)
        }
        forcedFormat = format
      default:
        guard !argument.hasPrefix("-") || argument == "-", input == nil else {
          throw CommandError(message: "info: unexpected argument '\(argument)'\n\(usage)", status: 2)
        }
        input = argument
      }
    }
    guard let input else { throw CommandError(message: "usage: inkwell info DOC [--json]", status: 2) }
    let bytes = try FileIO.read(input)
    let loaded: (format: DocumentFormat, document: Document)?
    do {
      loaded = try OptionValues.document(bytes, path: input, format: forcedFormat)
    } catch {
      throw CommandError(message: "\(input): \(error) [\(error.category.rawValue)]")
    }
    guard let (format, document) = loaded else {
      throw CommandError(message: "\(input): cannot tell the format; name it with --from")
    }
    let summary = summary(of: document, format: BinaryFormat.isBinary(bytes) ? "binary" : format.name)
    if json {
      print(
        String(decoding: JSONWriter.write(summary, style: .pretty(indent: 2)), as: UTF8.self), terminator: "")
    } else {
      print(text(summary))
    }
  }

  /// The summary as a JSON object; `strokes` is the stroke count.
  static func summary(of document: Document, format: String) -> JSONValue {
    let drawing = document.drawing
    let strokes = drawing.strokes
    let inks = InkType.allCases.filter { type in strokes.contains { $0.ink.type == type } }
    let set = document.markup.featureSet
    func number(_ v: Float) -> JSONValue { JSONValue(.number(JSONNumber(v) ?? JSONNumber(0))) }
    func integer(_ v: Int) -> JSONValue { JSONValue(.number(JSONNumber(v))) }
    func rect(_ r: Rect?) -> JSONValue {
      // A frame too large for float (its width overflowing) is written as unknown.
      guard let r, r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else {
        return JSONValue(.null)
      }
      return JSONValue(.array([number(r.minX), number(r.minY), number(r.width), number(r.height)]))
    }
    func names(_ list: [String]) -> JSONValue { JSONValue(.array(list.map { JSONValue(.string($0)) })) }
    func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: value) }
    let points = strokes.reduce(0) { $0 + $1.path.count }
    let featureSet = JSONValue(
      .object([
        member("features", names(FeatureSet.Feature.allCases.filter(set.features.contains).map(\.rawValue))),
        member("inks", names(InkType.allCases.filter(set.inks.contains).map(\.rawValue))),
        member("shapes", names(ShapeType.allCases.filter(set.shapes.contains).map(\.rawValue))),
        member("colorMaximumLinearExposure", number(set.colorMaximumLinearExposure)),
        member("contentVersion", integer(set.contentVersion)),
      ]))
    return JSONValue(
      .object([
        member("format", JSONValue(.string(format))),
        member("strokes", integer(strokes.count)),
        member("points", integer(points)),
        member("elements", integer(document.markup.elements.count)),
        member("bounds", rect(strokes.isEmpty ? nil : drawing.bounds)),
        member("canvas", rect(document.canvas)),
        member("inks", names(inks.map(\.rawValue))),
        member("requiredContentVersion", integer(document.requiredContentVersion)),
        member("featureSet", set == .latest ? JSONValue(.string("latest")) : featureSet),
        // The document's exposure limit, and the brightest ink exposure stored (renders cap the
        // second at the first).
        member("colorMaximumLinearExposure", number(set.colorMaximumLinearExposure)),
        member(
          "inkMaximumLinearExposure",
          number(strokes.map(\.ink.color.linearExposure).max() ?? 1)),
        member("thumbnailBytes", integer(document.thumbnailPNG?.count ?? 0)),
      ]))
  }

  /// One `key: value` line per member, values as compact JSON.
  static func text(_ summary: JSONValue) -> String {
    guard case .object(let members) = summary.content else { return "" }
    return members.map { member in
      let value: String
      if case .string(let s) = member.value.content {
        value = s
      } else {
        value = String(decoding: JSONWriter.write(member.value, style: .compact), as: UTF8.self)
      }
      return "\(member.key): \(value)"
    }.joined(separator: "\n")
  }
}
