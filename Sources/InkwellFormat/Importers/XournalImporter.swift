import InkwellModel

/// Reads Xournal++ (`.xopp`) and Xournal (`.xoj`) documents: gzip-compressed XML (plain XML is
/// accepted too), in PostScript points with the origin at each page's top-left and y down.
///
/// Pages are stacked top to bottom, `pageGap` apart, as Xournal++ lays them out; the document's
/// canvas is the whole stack. Each `<stroke>` of every `<layer>` is one stroke, in file order:
/// `pen` draws with a pen ink, `highlighter` with a marker ink in its recorded (translucent) color,
/// and `eraser` (Xournal's whiteout eraser, a stroke in the background color) with a pen ink in its
/// recorded color, painted over what lies below, as Xournal shows it. Text, images, LaTeX and the
/// page backgrounds are not ink and are skipped.
///
/// `width="W w₀ … wₙ₋₂"` gives the nominal width and, for a pressure stroke, the width of each of
/// the n − 1 segments. Segment i runs from point i to point i + 1, so point i takes wᵢ and the last
/// point repeats wₙ₋₂. A width becomes `force` relative to the stroke's reference width, the larger
/// of W and the widest segment (Xournal++'s pressure multiplier can exceed W), which is also the
/// ink's width; without segment widths, force is 1 and the ink's width is W.
public enum XournalImporter {
  /// The vertical space between stacked pages, in points.
  public static let pageGap: Float = 20

  /// Xournal's named colors, as it writes them in `.xoj` files.
  static let namedColors: [String: UInt32] = [
    "black": 0x0000_00FF, "blue": 0x3333_CCFF, "red": 0xFF00_00FF, "green": 0x0080_00FF,
    "gray": 0x8080_80FF, "lightblue": 0x00C0_FFFF, "lightgreen": 0x00FF_00FF, "magenta": 0xFF00_FFFF,
    "orange": 0xFF80_00FF, "yellow": 0xFFFF_00FF, "white": 0xFFFF_FFFF,
  ]

  /// The opacity Xournal gives a highlighter drawn in a named color.
  static let namedHighlighterAlpha: Float = 0x80 / 255

  /// - Parameter sizeLimit: the largest decompressed size accepted, in bytes.
  /// - Throws: `DocumentError` with the location (in the decompressed XML) of a malformed element.
  public static func load(_ bytes: [UInt8], sizeLimit: Int = Gzip.defaultSizeLimit) throws(DocumentError)
    -> Document
  {
    let xml: [UInt8]
    if Gzip.hasSignature(bytes) {
      do {
        xml = try Gzip.decompress(bytes, sizeLimit: sizeLimit)
      } catch {
        throw DocumentError(.importFailure(error))
      }
    } else {
      xml = bytes
    }
    let root: XMLElement
    do {
      root = try XMLReader.parse(xml)
    } catch {
      throw DocumentError(error)
    }
    guard root.localName == "xournal" || root.localName == "MrWriter" else {
      throw DocumentError.importFailure(
        .wrongRootElement(found: root.name, expected: "xournal"), at: root.offset, in: xml)
    }
    var strokes: [Stroke] = []
    var top: Float = 0
    var canvasWidth: Float = 0
    var pageCount = 0
    for page in root.elements where page.localName == "page" {
      let width = try dimension(page, "width", xml)
      let height = try dimension(page, "height", xml)
      if pageCount > 0 { top += pageGap }
      for layer in page.elements where layer.localName == "layer" {
        for element in layer.elements where element.localName == "stroke" {
          if let stroke = try stroke(element, top: top, xml) { strokes.append(stroke) }
        }
      }
      top += height
      canvasWidth = Swift.max(canvasWidth, width)
      pageCount += 1
    }
    guard top.isFinite else {
      throw DocumentError.importFailure(
        .unsupportedContent("the pages are too tall"), at: root.offset, in: xml)
    }
    let bounds = pageCount > 0 ? Rect(x: 0, y: 0, width: canvasWidth, height: top) : nil
    return ImportedDocument.make(strokes: strokes, bounds: bounds)
  }

  private static func dimension(_ page: XMLElement, _ name: String, _ xml: [UInt8]) throws(DocumentError)
    -> Float
  {
    guard let text = page.attribute(name) else {
      throw DocumentError.importFailure(
        .missingAttribute(element: "page", attribute: name), at: page.offset, in: xml)
    }
    guard let value = number(text), value >= 0 else {
      throw DocumentError(
        .valueOutOfRange(value: text, allowed: "a number >= 0"),
        location: SourceLocation(offset: attributeOffset(page, name), in: xml))
    }
    return value
  }

  private static func stroke(_ element: XMLElement, top: Float, _ xml: [UInt8]) throws(DocumentError)
    -> Stroke?
  {
    let tool = element.attribute("tool") ?? "pen"
    let colorText = element.attribute("color") ?? "black"
    var color: Color
    if let named = namedColors[colorText] {
      color = Color(
        red: Float(named >> 24) / 255, green: Float((named >> 16) & 0xFF) / 255,
        blue: Float((named >> 8) & 0xFF) / 255, alpha: tool == "highlighter" ? namedHighlighterAlpha : 1)
    } else if let parsed = Color(parsing: colorText), colorText.first == "#" {
      color = parsed
    } else {
      throw DocumentError(
        .invalidColor("\"\(colorText)\""),
        location: SourceLocation(offset: attributeOffset(element, "color"), in: xml))
    }
    guard let widthText = element.attribute("width") else {
      throw DocumentError.importFailure(
        .missingAttribute(element: "stroke", attribute: "width"), at: element.offset, in: xml)
    }
    var widths: [Float] = []
    for field in widthText.split(separator: " ") {
      guard let value = number(String(field)), value >= 0 else {
        throw DocumentError(
          .valueOutOfRange(value: String(field), allowed: "a number >= 0"),
          location: SourceLocation(offset: attributeOffset(element, "width"), in: xml))
      }
      widths.append(value)
    }
    guard let nominal = widths.first else {
      throw DocumentError(
        .notANumber(widthText), location: SourceLocation(offset: attributeOffset(element, "width"), in: xml))
    }
    let (text, textOffset) = element.text
    let utf8 = Array(text.utf8)
    var coordinates: [Float] = []
    coordinates.reserveCapacity(utf8.count / 2)
    var fieldStart: Int?
    func endField(at end: Int) throws(DocumentError) {
      guard let start = fieldStart else { return }
      fieldStart = nil
      let field = String(decoding: utf8[start..<end], as: UTF8.self)
      guard let value = number(field) else {
        throw DocumentError(.notANumber(field), location: SourceLocation(offset: textOffset + start, in: xml))
      }
      coordinates.append(value)
    }
    for (index, byte) in utf8.enumerated() {
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D: try endField(at: index)
      default: if fieldStart == nil { fieldStart = index }
      }
    }
    try endField(at: utf8.count)
    guard coordinates.count % 2 == 0 else {
      throw DocumentError.importFailure(
        .wrongValueCount(expected: "an even number of", found: coordinates.count, channels: "x y pairs"),
        at: textOffset, in: xml)
    }
    let count = coordinates.count / 2
    guard count > 0 else { return nil }
    let segmentWidths = widths.dropFirst()
    let hasPressure = !segmentWidths.isEmpty
    if hasPressure, segmentWidths.count != Swift.max(count - 1, 1) {
      throw DocumentError.importFailure(
        .wrongValueCount(
          expected: "\(Swift.max(count - 1, 1) + 1)", found: widths.count,
          channels: "width W and one per segment"),
        at: attributeOffset(element, "width"), in: xml)
    }
    let reference = Swift.max(nominal, segmentWidths.max() ?? 0)
    var points: [StrokePoint] = []
    points.reserveCapacity(count)
    for i in 0..<count {
      var force: Float = 1
      if hasPressure, reference > 0 {
        let segment = segmentWidths[segmentWidths.startIndex + Swift.min(i, segmentWidths.count - 1)]
        force = segment / reference
      }
      let y = coordinates[2 * i + 1] + top
      guard y.isFinite else {
        throw DocumentError(
          .numberOutOfRange("\(coordinates[2 * i + 1])"),
          location: SourceLocation(offset: textOffset, in: xml))
      }
      points.append(
        StrokePoint(
          location: Point(x: coordinates[2 * i], y: y), size: Size(width: reference, height: reference),
          force: force))
    }
    let inkType: InkType = tool == "highlighter" ? .marker : .pen
    return Stroke(
      ink: Ink(type: inkType, color: color, width: reference), path: StrokePath(controlPoints: points))
  }

  /// A finite decimal number.
  static func number(_ text: String) -> Float? {
    guard isDecimalNumber(text), let value = Float(text), value.isFinite else { return nil }
    return value
  }

  static func attributeOffset(_ element: XMLElement, _ name: String) -> Int {
    element.attributes.first { $0.name == name }?.offset ?? element.offset
  }
}
