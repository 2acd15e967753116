import Inkwell
import InkwellKernels
import Testing

@Suite("HDR colors in documents")
struct ColorFormatTests {
  static func document(exposure: Float, space: ColorSpace, cap: Float = 8) -> Document {
    let color = Color(red: 0.8, green: 0.1, blue: 0.1, alpha: 1, colorSpace: space, linearExposure: exposure)
    let stroke = Stroke(
      ink: Ink(type: .pen, color: color, width: 10),
      path: StrokePath(controlPoints: [
        StrokePoint(location: Point(x: 10, y: 20), size: Size(width: 10, height: 10)),
        StrokePoint(location: Point(x: 90, y: 30), size: Size(width: 10, height: 10)),
      ]))
    var featureSet = FeatureSet.latest
    featureSet.colorMaximumLinearExposure = cap
    return Document(
      markup: Markup(
        bounds: Rect(x: 0, y: 0, width: 100, height: 50), featureSet: featureSet,
        drawing: Drawing(strokes: [stroke])))
  }

  static let cases: [(Float, ColorSpace)] = [(1, .sRGB), (4, .displayP3), (2.5, .bt2020)]

  @Test("exposure and color space survive JSON and binary", arguments: cases)
  func roundTrip(_ c: (Float, ColorSpace)) throws {
    let original = Self.document(exposure: c.0, space: c.1)
    let json = try NativeFormat.encode(original)
    let fromJSON = try NativeFormat.decode(json)
    #expect(fromJSON.drawing.strokes[0].ink.color == original.drawing.strokes[0].ink.color)
    let binary = try BinaryFormat.encode(fromJSON)
    let fromBinary = try NativeFormat.decode(binary)
    #expect(fromBinary.drawing.strokes[0].ink.color == original.drawing.strokes[0].ink.color)
    #expect(try NativeFormat.encode(fromBinary) == json)
  }

  @Test("an SDR ink writes no exposure or color space keys")
  func sdrStaysCompact() throws {
    let json = String(
      decoding: try NativeFormat.encode(Self.document(exposure: 1, space: .sRGB)), as: UTF8.self)
    #expect(!json.contains("exposure\""))
    #expect(!json.contains("colorSpace"))
  }

  @Test("an exposure below 1 is refused")
  func belowOne() {
    let text =
      ##"{"format": "inkwell", "version": 1, "drawing": {"strokes": [{"ink": {"type": "pen", "color": "#ff0000", "exposure": 0.5}, "fields": ["x", "y"], "points": [[1, 2]]}]}}"##
    #expect(throws: DocumentError.self) { try NativeFormat.decode(Array(text.utf8)) }
  }

  @Test("the document's maximum exposure caps its inks at render time")
  func documentCap() throws {
    let options = RenderOptions(threads: 1)
    let capped = try Self.document(exposure: 4, space: .sRGB, cap: 1).render(options)
    let sdr = try Self.document(exposure: 1, space: .sRGB, cap: 1).render(options)
    let bright = try Self.document(exposure: 4, space: .sRGB, cap: 8).render(options)
    #expect(capped == sdr)
    #expect(bright != sdr)
  }
}

@Suite("Tabled 8-bit sRGB resolve")
struct SRGBCodeStartTests {
  @Test("the C and Swift code-start tables are the same")
  func tablesMatch() {
    for row in 0...64 {
      for code in 1...255 {
        #expect(
          inkwell_srgb_code_start(Int32(row), Int32(code)) == ResolveReference.srgbCodeStarts[row][code])
      }
    }
  }

  @Test("plain rounding through the table is the exact threshold resolve")
  func plainRowIsExact() {
    #expect(Array(ResolveReference.srgbCodeStarts[64][1...]) == Array(KernelReference.srgbThresholds[1...]))
  }
}
