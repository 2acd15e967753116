// The HDR golden suite, golden/hdr/: one scene whose second stroke is HDR ink at linear exposure 4
// (the native format does not store exposure yet, so the manifest names the stroke and the
// exposure), rendered to SDR with each tone mapper, to 16-bit PQ and to OpenEXR.
//
// SDR cases are 8-bit PNGs compared like every golden (per channel, in 8-bit levels). PQ and EXR
// references are compared in linear float after decoding, with a relative tolerance: the PQ
// signal is decoded through the inverse EOTF, the EXR read as floats. Recording
// (INKWELL_RECORD_GOLDEN=1) writes the references and fails, as for the other suites; review the
// SDR PNGs by eye.

import Inkwell
import InkwellEXR
import InkwellKernels
import Testing

enum HDRGolden {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var format: String
    var toneMap: ToneMapper
    var exposure: Float?
    var tolerance: Double
    var description: String { name }
  }

  static let manifestPath = Golden.goldenDirectory + "/hdr/manifest.json"

  static let manifest: (scene: String, stroke: Int, exposure: Float, cases: [Case])? = try? load()

  static func load() throws -> (scene: String, stroke: Int, exposure: Float, cases: [Case]) {
    let root = try JSONReader.parse(Golden.read(manifestPath))
    guard let scene = root["scene"]?.stringValue, let stroke = root["hdrStroke"]?.intValue,
      let exposure = root["exposure"]?.floatValue, let list = root["cases"]?.arrayValue
    else { throw GoldenError("hdr manifest needs scene, hdrStroke, exposure and cases") }
    let cases = try list.map { item in
      guard let name = item["name"]?.stringValue, let format = item["format"]?.stringValue,
        let toneMap = item["toneMap"]?.stringValue.flatMap({ ToneMapper(rawValue: $0) }),
        let tolerance = item["tolerance"]?.floatValue.map(Double.init)
      else { throw GoldenError("malformed hdr case at byte \(item.offset)") }
      return Case(
        name: name, format: format, toneMap: toneMap, exposure: item["exposure"]?.floatValue,
        tolerance: tolerance)
    }
    return (scene, stroke, exposure, cases)
  }

  static func document(exposure: Float) throws -> Document {
    guard let m = manifest else { throw GoldenError("cannot read \(manifestPath)") }
    var document = try NativeFormat.decode(
      Golden.read(Golden.goldenDirectory + "/" + m.scene + ".inkwell.json"))
    document.drawing.strokes[m.stroke].ink.color.linearExposure = exposure
    return document
  }

  static func extensionFor(_ format: String) -> String { format == "exr" ? ".exr" : ".png" }

  /// Encoded output of a case.
  static func render(_ c: Case, threads: Int = 1) throws -> [UInt8] {
    guard let m = manifest, let format = ImageFormat(name: c.format) else {
      throw GoldenError("unknown format \(c.format)")
    }
    var options = RenderOptions(threads: threads)
    options.toneMapper = c.toneMap
    return try document(exposure: c.exposure ?? m.exposure).encode(options, as: format)
  }

  /// Linear RGBA (straight alpha for PNG, premultiplied for EXR) decoded from a PQ PNG or an EXR.
  static func decodeLinear(_ bytes: [UInt8], format: String) throws -> [Float] {
    if format == "exr" { return try EXRCodec.decode(bytes, maxPixels: 1 << 24).pixels }
    let image = try PNGImage16.decode(bytes, maxPixels: 1 << 24)
    var p = ResolveSettings(
      colorSpace: .bt2020, transfer: .pq, toneMapping: ToneMapping(contentPeak: 1, headroom: 1)
    ).kernelParameters
    var out = [Float](repeating: 0, count: image.pixels.count)
    for i in 0..<(image.width * image.height) {
      var rgb = (0..<3).map { Float(image.pixels[i * 4 + $0]) / 65535 }
      inkwell_transfer_decode(&p, &rgb)
      (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) = (rgb[0], rgb[1], rgb[2])
      out[i * 4 + 3] = Float(image.pixels[i * 4 + 3]) / 65535
    }
    return out
  }
}

@Suite("Golden images: HDR")
struct GoldenHDRTests {
  @Test("the hdr manifest lists cases")
  func manifest() throws {
    #expect(try HDRGolden.load().cases.count >= 5)
  }

  @Test("HDR renders match their references", arguments: HDRGolden.manifest?.cases ?? [])
  func matchesReference(_ c: HDRGolden.Case) throws {
    let bytes = try HDRGolden.render(c)
    let path = Golden.goldenDirectory + "/" + c.name + HDRGolden.extensionFor(c.format)
    if c.format == "png8" {
      let image = try PNGImage.decode(bytes, maxPixels: 1 << 24)
      let golden = Golden.Case(
        name: c.name, width: image.width, height: image.height, tolerance: Int(c.tolerance), reason: "")
      if let failure = try Golden.check(
        golden, RGBA8Image(width: image.width, height: image.height, pixels: image.pixels))
      {
        Issue.record(Comment(rawValue: "\(c.name): \(failure)"))
      }
      return
    }
    if Golden.recording {
      try writeOutput(bytes, to: path)
      Issue.record(
        Comment(rawValue: "recorded \(path): review its SDR form, then rerun without INKWELL_RECORD_GOLDEN"))
      return
    }
    guard Golden.exists(path) else {
      Issue.record(Comment(rawValue: "no reference \(path); record one with INKWELL_RECORD_GOLDEN=1"))
      return
    }
    let expected = try HDRGolden.decodeLinear(Golden.read(path), format: c.format)
    let actual = try HDRGolden.decodeLinear(bytes, format: c.format)
    #expect(expected.count == actual.count)
    var worst = 0.0
    for (e, a) in zip(expected, actual) {
      worst = max(worst, Double(abs(e - a)) / max(Double(abs(e)), 0.01))
    }
    #expect(worst <= c.tolerance, "\(c.name): worst relative difference \(worst)")
  }

  @Test("HDR goldens are identical on 1 and 3 threads", arguments: HDRGolden.manifest?.cases ?? [])
  func threadIndependent(_ c: HDRGolden.Case) throws {
    #expect(try HDRGolden.render(c, threads: 1) == HDRGolden.render(c, threads: 3))
  }
}
