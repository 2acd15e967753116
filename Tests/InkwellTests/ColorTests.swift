// Color: colors with exposure, primaries, tone mapping, transfer functions, resolve kernels
// against their scalar twins, and the HDR outputs end to end (issue 5, "How it is checked").

import Inkwell
import InkwellEXR
import InkwellKernels
import Testing

/// A document with three pen strokes: a red one whose exposure is `exposure`, and two SDR ones.
func hdrTestDocument(exposure: Float, color: Color = Color(red: 0.82, green: 0.1, blue: 0.12)) -> Document {
  func stroke(_ points: [(Float, Float)], _ color: Color, width: Float) -> Stroke {
    let controlPoints = points.enumerated().map { i, p in
      StrokePoint(
        location: Point(x: p.0, y: p.1), timeOffset: Float(i) * 0.01, size: Size(width: width, height: width),
        force: 1)
    }
    return Stroke(
      ink: Ink(type: .pen, color: color, width: width), path: StrokePath(controlPoints: controlPoints))
  }
  let hdr = color.withExposure(exposure)
  return Document(
    bounds: Rect(x: 0, y: 0, width: 160, height: 100),
    drawing: Drawing(strokes: [
      stroke([(15, 20), (60, 30), (110, 22), (145, 35)], Color(red: 0.1, green: 0.1, blue: 0.2), width: 4),
      stroke([(20, 75), (55, 45), (95, 70), (140, 50)], hdr, width: 10),
      stroke([(20, 90), (140, 88)], Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6), width: 6),
    ]))
}

/// Premultiplied linear sRGB of the document, as compositing leaves it (no tone mapping).
func linearRender(_ document: Document, _ options: RenderOptions) throws -> [Float] {
  let viewport = try document.viewport(for: options)
  let drawing = options.adjustingColors(of: document.drawing)
  let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
  return Renderer(threads: 1).renderLinear(
    primitives, width: viewport.width, height: viewport.height, background: LinearColor(options.background))
}

@Suite("Color model")
struct ColorModelTests {
  @Test("existing initializers keep their meaning: sRGB primaries, exposure 1, same linear values")
  func compatibility() {
    let c = Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.5)
    #expect(c.colorSpace == .sRGB && c.linearExposure == 1 && !c.isHDR)
    let l = LinearColor(c)
    #expect(l.red == SRGBTransfer.linear(fromEncoded: 0.5) * 0.5)
    #expect(l.alpha == 0.5)
  }

  @Test("exposure scales linear light, values above 1 are kept, and the SDR base is recoverable")
  func exposure() {
    let base = Color(red: 1, green: 0.5, blue: 0)
    let hdr = base.withExposure(4)
    let l = LinearColor(hdr)
    #expect(l.red == 4)
    #expect(abs(l.green - 4 * SRGBTransfer.linear(fromEncoded: 0.5)) < 1e-6)
    #expect(hdr.sdrBase == base)
    #expect(hdr.cappingExposure(at: 2).linearExposure == 2)
    #expect(hdr.cappingExposure(at: 8).linearExposure == 4)
    #expect(Color(red: 1, green: 1, blue: 1, colorSpace: .sRGB, linearExposure: 0.5).effectiveExposure == 1)
    let split = Color(linearRed: 3, green: 1.5, blue: 0)
    #expect(split.linearExposure == 3 && abs(split.red - 1) < 1e-6)
  }

  @Test("Display P3 converts to sRGB primaries and back; P3 red lies outside sRGB")
  func primaries() {
    let p3Red = Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)
    let s = p3Red.linearComponents(in: .sRGB)
    #expect(s.red > 1 && s.green < 0 && s.blue < 0)
    let back = ColorSpaceConversion.matrix(from: .sRGB, to: .displayP3).apply((s.red, s.green, s.blue))
    #expect(abs(back.red - 1) < 1e-5 && abs(back.green) < 1e-5 && abs(back.blue) < 1e-5)
    // White is white in every space (all D65).
    for space in ColorSpace.allCases {
      let w = ColorSpaceConversion.matrix(from: .sRGB, to: space).apply((1, 1, 1))
      #expect(abs(w.red - 1) < 1e-5 && abs(w.green - 1) < 1e-5 && abs(w.blue - 1) < 1e-5)
    }
  }

  @Test("a color in its own primaries decodes to the identity matrix's floats, bit for bit")
  func ownPrimaries() {
    // The components the decoding can see: the ends, 8-bit codes, values between, out of range
    // (clamped), ±0, and what a file could carry that is not a number or not finite.
    var values: [Float] = [
      0, -0.0, 1, 0.5, 1.0 / 255, 254.0 / 255, 0.04045, 0.0404, 1.5, -2, .nan, .infinity, -.infinity,
    ]
    var rng = SeededGenerator(seed: 31)
    for _ in 0..<40 { values.append(rng.float(0...1)) }
    let exposures: [Float] = [1, 0.5, 3.7, 1e30, .nan, .infinity]
    var checked = 0
    for (k, exposure) in exposures.enumerated() {
      for (i, red) in values.enumerated() {
        let green = values[(i * 7 + k) % values.count]
        let blue = values[(i * 13 + 3 * k + 1) % values.count]
        for space in ColorSpace.allCases {
          let color = Color(red: red, green: green, blue: blue, colorSpace: space, linearExposure: exposure)
          let e = color.effectiveExposure
          func decode(_ v: Float) -> Float {
            SRGBTransfer.linear(fromEncoded: Swift.min(Swift.max(v, 0), 1)) * e
          }
          let expected = ColorMatrix.identity.apply((decode(red), decode(green), decode(blue)))
          let got = color.linearComponents(in: space)
          for (a, b) in [(got.red, expected.red), (got.green, expected.green), (got.blue, expected.blue)] {
            #expect(a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN), "\(color)")
          }
          checked += 1
        }
      }
    }
    #expect(checked == exposures.count * values.count * ColorSpace.allCases.count)
  }

  @Test("dark appearance: near-black becomes near-white, white becomes the floor, hue is kept")
  func darkAppearance() {
    let black = Color.black.adaptedForDarkAppearance
    #expect(black.red > 0.98 && black.green > 0.98 && black.blue > 0.98)
    let white = OKLab(linearSRGB: Color.white.adaptedForDarkAppearance.linearComponents())
    #expect(abs(white.l - Color.darkAppearanceFloor) < 1e-3)
    let blue = Color(red: 0.1, green: 0.2, blue: 0.6)
    let before = OKLab(linearSRGB: blue.linearComponents())
    let after = OKLab(linearSRGB: blue.adaptedForDarkAppearance.linearComponents())
    #expect(after.l > before.l)
    #expect(abs(FloatMath.atan2(after.b, after.a) - FloatMath.atan2(before.b, before.a)) < 1e-2)
    // A saturated blue loses chroma at the higher lightness (the gamut is narrower there); a muted
    // one keeps it.
    #expect(after.chroma <= before.chroma + 1e-3)
    let muted = Color(red: 0.35, green: 0.4, blue: 0.5)
    let mutedBefore = OKLab(linearSRGB: muted.linearComponents())
    let mutedAfter = OKLab(linearSRGB: muted.adaptedForDarkAppearance.linearComponents())
    #expect(abs(mutedAfter.chroma - mutedBefore.chroma) < 2e-3)
    #expect(abs(mutedAfter.l - (1 - 0.8 * mutedBefore.l)) < 2e-3)
    let hdr = blue.withExposure(3).adaptedForDarkAppearance
    #expect(hdr.linearExposure == 3)
  }
}

@Suite("Transfer functions")
struct TransferTests {
  @Test("the sRGB decode's 8-bit table gives the formula's floats, and other values take the formula")
  func srgbDecodeTable() {
    func formula(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : FloatMath.pow((v + 0.055) / 1.055, 2.4) }
    for k in 0...255 {
      let v = Float(k) / 255
      #expect(SRGBTransfer.linear(fromEncoded: v).bitPattern == formula(v).bitPattern, "code \(k)")
      let between = v.nextUp
      if between <= 1 {
        #expect(
          SRGBTransfer.linear(fromEncoded: between).bitPattern == formula(between).bitPattern, "past \(k)")
      }
    }
    for v: Float in [0.5, 0.3333, 0.999, 1e-7] {
      #expect(SRGBTransfer.linear(fromEncoded: v).bitPattern == formula(v).bitPattern, "\(v)")
    }
  }

  static func params(_ transfer: TransferFunction) -> inkwell_resolve_params {
    ResolveSettings(
      colorSpace: .bt2020, transfer: transfer, toneMapping: ToneMapping(contentPeak: 1, headroom: 1)
    ).kernelParameters
  }

  @Test(
    "PQ and HLG round trips are within 1e-4 relative over their range",
    arguments: [TransferFunction.pq, .hlg])
  func roundTrip(transfer: TransferFunction) {
    var p = Self.params(transfer)
    let top: Float = transfer == .pq ? 10000 / 203 : 1000 / 203
    var v: Float = 1e-3
    var worst: Float = 0
    while v <= top {
      for tint: (Float, Float) in [(1, 1), (0.5, 0.25), (0.05, 0.9)] {
        var rgb: [Float] = [v, v * tint.0, v * tint.1]
        let original = rgb
        inkwell_transfer_encode(&p, &rgb)
        #expect(rgb.allSatisfy { $0 >= 0 })
        // HLG's OOTF: a saturated color at the display's peak needs scene light above 1, which
        // the signal cannot carry; only representable colors can round-trip.
        if rgb.contains(where: { $0 > 1 }) {
          #expect(transfer == .hlg)
          continue
        }
        inkwell_transfer_decode(&p, &rgb)
        for c in 0..<3 where original[c] >= 1e-3 {
          worst = max(worst, abs(rgb[c] - original[c]) / original[c])
        }
      }
      v *= 1.07
    }
    #expect(worst < 1e-4, "worst relative error \(worst)")
  }

  @Test("PQ puts SDR white (203 nits) at 0.58 and HLG at 0.75")
  func referenceWhite() {
    var rgb: [Float] = [1, 1, 1]
    var p = Self.params(.pq)
    inkwell_transfer_encode(&p, &rgb)
    #expect(abs(rgb[0] - 0.5807) < 1e-3)
    rgb = [1, 1, 1]
    p = Self.params(.hlg)
    inkwell_transfer_encode(&p, &rgb)
    #expect(abs(rgb[0] - 0.75) < 2e-3)
  }
}

@Suite("Tone mapping")
struct ToneMappingTests {
  static let cases: [(ToneMapper, Float, Float)] = ToneMapper.allCases.flatMap { mapper in
    [(4, 1), (4, 2), (8, 2), (16, 4), (4, 3.5), (64, 1)].map { (mapper, Float($0.0), Float($0.1)) }
  }

  static func params(_ mapper: ToneMapper, _ e: Float, _ h: Float, pathToWhite: Float = 0)
    -> inkwell_resolve_params
  {
    ResolveSettings(
      colorSpace: .sRGB, transfer: .linear,
      toneMapping: ToneMapping(mapper: mapper, contentPeak: e, headroom: h, pathToWhite: pathToWhite)
    ).kernelParameters
  }

  static func map(_ p: inkwell_resolve_params, _ rgb: [Float]) -> [Float] {
    var p = p
    var v = rgb
    inkwell_tone_map(&p, &v)
    return v
  }

  @Test(
    "monotone, identity up to a knee ≥ 1, E lands on H, channel ratios kept",
    arguments: 0..<cases.count)
  func sweep(index: Int) {
    let (mapper, e, h) = Self.cases[index]
    let p = Self.params(mapper, e, h)
    #expect(p.knee >= 1)
    var previous: Float = 0
    var m: Float = 0.001
    while m <= e * 1.5 {
      let out = Self.map(p, [m, m * 0.5, m * 0.1])
      // Monotone, to the few ulps the BT.2390 curve's PQ round trip carries.
      #expect(out[0] >= previous * (1 - 1e-6), "\(mapper) not monotone at \(m)")
      #expect(out[0] <= h * 1.00001)
      if m <= p.knee { #expect(out == [m, m * 0.5, m * 0.1]) }
      if m <= 1 { #expect(out[0] == m) }
      // Hue: before any path to white, ratios are those of the input.
      #expect(abs(out[1] / out[0] - 0.5) < 1e-3 && abs(out[2] / out[0] - 0.1) < 1e-3)
      previous = out[0]
      m *= 1.01
    }
    let peak = Self.map(p, [e, 0, 0])
    #expect(abs(peak[0] - h) < h * 2e-3, "\(mapper): E = \(e) lands at \(peak[0]), not \(h)")
  }

  @Test("content that fits the headroom is untouched", arguments: ToneMapper.allCases)
  func fits(mapper: ToneMapper) {
    let p = Self.params(mapper, 2, 4)
    #expect(p.curve == Int32(INKWELL_TONE_NONE.rawValue))
    for m: Float in [0.1, 1, 1.5, 2] { #expect(Self.map(p, [m, m / 2, 0]) == [m, m / 2, 0]) }
  }

  @Test("H = 1: an HDR red stays red (no per-channel clip), rolls toward white by its excess")
  func sdrTarget() {
    let p = Self.params(.extendedReinhard, 4, 1, pathToWhite: 0.1)
    let out = Self.map(p, [4, 0.4, 0.2])
    #expect(out[0] == 1)
    #expect(out[1] < 0.2 && out[2] < out[1])
    // The path to white moves toward (m', m', m'): the ratio of the other channels' distances from
    // the top is kept, so the dominant wavelength (hue) is kept.
    #expect(abs((1 - out[1]) / (1 - out[2]) - (1 - 0.1) / (1 - 0.05)) < 1e-3)
    let clip = Self.map(Self.params(.clip, 4, 1, pathToWhite: 0.1), [4, 0.4, 0.2])
    #expect(abs(clip[1] - 0.1) < 1e-6 && abs(clip[2] - 0.05) < 1e-6)
  }
}

@Suite("Resolve kernels")
struct ResolveKernelTests {
  static func randomTile(seed: UInt64) -> [Float] {
    var rng = SeededGenerator(seed: seed)
    let plane = Int(INKWELL_TILE_PIXELS)
    var tile = [Float](repeating: 0, count: plane * 4)
    for i in 0..<plane {
      let a = i % 7 == 0 ? 0 : rng.float(0...1)
      tile[3 * plane + i] = a
      for c in 0..<3 { tile[c * plane + i] = rng.float(0...(i % 3 == 0 ? 6 : 1.2)) * a }
    }
    return tile
  }

  static let settings: [ResolveSettings] = {
    var list: [ResolveSettings] = []
    for mapper in ToneMapper.allCases {
      for (space, transfer) in [
        (ColorSpace.sRGB, TransferFunction.sRGB), (.displayP3, .sRGB), (.bt2020, .pq), (.bt2020, .hlg),
        (.sRGB, .linear),
      ] {
        list.append(
          ResolveSettings(
            colorSpace: space, transfer: transfer,
            toneMapping: ToneMapping(mapper: mapper, contentPeak: 6, headroom: transfer == .sRGB ? 1 : 3)))
      }
    }
    return list
  }()

  @Test("runs of equal pixels along a row resolve as each pixel alone would", arguments: 0..<settings.count)
  func twinsOnRuns(index: Int) {
    let p = Self.settings[index].kernelParameters
    var tile = Self.randomTile(seed: UInt64(index + 100))
    var rng = SeededGenerator(seed: UInt64(index + 200))
    let plane = Int(INKWELL_TILE_PIXELS)
    let size = Int(INKWELL_TILE)
    // Pixel (x, y) is at x·32 + y: copy the pixel to the left, often, so that rows are runs; some
    // runs are transparent with −0 colors, some hold NaN (never equal to itself).
    for i in size..<plane where Int.random(in: 0..<10, using: &rng) < 7 {
      for c in 0..<4 { tile[c * plane + i] = tile[c * plane + i - size] }
    }
    for i in stride(from: 3, to: plane, by: 97) {
      tile[3 * plane + i] = 0
      for c in 0..<3 { tile[c * plane + i] = -0.0 }
    }
    for i in stride(from: 11, to: plane, by: 173) { tile[i] = .nan }
    tile.withUnsafeBufferPointer { t in
      var a8 = [UInt8](repeating: 0, count: 32 * 32 * 4)
      var b8 = a8
      ResolveKernels.native.resolveU8(t.baseAddress!, 32, 32, 3, 6, true, p, &a8, 128)
      ResolveReference.kernels.resolveU8(t.baseAddress!, 32, 32, 3, 6, true, p, &b8, 128)
      #expect(a8 == b8)
      ResolveKernels.native.resolveU8(t.baseAddress!, 32, 32, 3, 6, false, p, &a8, 128)
      ResolveReference.kernels.resolveU8(t.baseAddress!, 32, 32, 3, 6, false, p, &b8, 128)
      #expect(a8 == b8)
    }
  }

  @Test("C resolves equal their Swift twins bit for bit", arguments: 0..<settings.count)
  func twins(index: Int) {
    let p = Self.settings[index].kernelParameters
    let tile = Self.randomTile(seed: UInt64(index + 1))
    tile.withUnsafeBufferPointer { t in
      let tp = t.baseAddress!
      for kernels in [(ResolveKernels.native, ResolveReference.kernels)] {
        var a8 = [UInt8](repeating: 0, count: 32 * 32 * 4)
        var b8 = a8
        kernels.0.resolveU8(tp, 32, 30, 5, 9, true, p, &a8, 128)
        kernels.1.resolveU8(tp, 32, 30, 5, 9, true, p, &b8, 128)
        #expect(a8 == b8)
        var a16 = [UInt16](repeating: 0, count: 32 * 32 * 4)
        var b16 = a16
        kernels.0.resolveU16(tp, 31, 32, p, &a16, 128)
        kernels.1.resolveU16(tp, 31, 32, p, &b16, 128)
        #expect(a16 == b16)
        var af = [Float](repeating: 0, count: 32 * 32 * 4)
        var bf = af
        kernels.0.resolvePremultipliedF32(tp, 32, 32, p, &af, 128)
        kernels.1.resolvePremultipliedF32(tp, 32, 32, p, &bf, 128)
        #expect(af == bf)
      }
    }
  }

  @Test("dithering leaves exact codes alone and moves others by at most one level")
  func ditherBounds() {
    let settings = ResolveSettings(
      colorSpace: .sRGB, transfer: .sRGB, toneMapping: ToneMapping(contentPeak: 1, headroom: 1))
    let p = settings.kernelParameters
    let plane = Int(INKWELL_TILE_PIXELS)
    var tile = [Float](repeating: 1, count: plane * 4)
    for i in 0..<plane {
      let code = Float(i % 256) / 255
      let v = i < 512 ? SRGBTransfer.linear(fromEncoded: code) : Float(i - 512) / 512
      for c in 0..<3 { tile[c * plane + i] = v }
    }
    var dithered = [UInt8](repeating: 0, count: plane * 4)
    var plain = [UInt8](repeating: 0, count: plane * 4)
    tile.withUnsafeBufferPointer { t in
      ResolveKernels.native.resolveU8(t.baseAddress!, 32, 32, 0, 0, true, p, &dithered, 128)
      ResolveKernels.native.resolveU8(t.baseAddress!, 32, 32, 0, 0, false, p, &plain, 128)
    }
    // Tiles are column-major: tile value i is pixel (i / 32, i % 32) of the row-major output.
    for i in 0..<plane {
      let o = (i % 32) * 32 + i / 32
      if i < 512 {
        #expect(dithered[o * 4] == UInt8(i % 256), "exact code \(i % 256) moved")
      } else {
        #expect(abs(Int(dithered[o * 4]) - Int(plain[o * 4])) <= 1)
      }
    }
  }
}

@Suite("HDR output, end to end")
struct HDROutputTests {
  @Test("8-bit sRGB: the HDR stroke keeps its hue and every other pixel equals the exposure-1 render")
  func sdrBytes() throws {
    let options = RenderOptions(threads: 2)
    let sdr = try hdrTestDocument(exposure: 1).render(options)
    let hdr = try hdrTestDocument(exposure: 4).render(options)
    let linear = try linearRender(hdrTestDocument(exposure: 1), options)
    let linearHDR = try linearRender(hdrTestDocument(exposure: 4), options)
    var touched = 0
    var checkedHue = 0
    for i in 0..<(sdr.width * sdr.height) {
      let same = (0..<4).allSatisfy { linear[i * 4 + $0] == linearHDR[i * 4 + $0] }
      if same {
        #expect(Array(sdr.pixels[(i * 4)..<(i * 4 + 4)]) == Array(hdr.pixels[(i * 4)..<(i * 4 + 4)]))
      } else {
        touched += 1
        // Interior pixels: red stays the dominant channel, green and blue stay in their order.
        if linear[i * 4 + 3] == 1 && linearHDR[i * 4] > 2.5 {
          let (r, g, b) = (hdr.pixels[i * 4], hdr.pixels[i * 4 + 1], hdr.pixels[i * 4 + 2])
          #expect(r == 255 && g < 100 && b < 100 && b >= g)
          checkedHue += 1
        }
      }
    }
    #expect(touched > 500 && checkedHue > 200)
  }

  @Test("dithered 8-bit output is identical on 1, 2 and 3 threads")
  func ditherThreads() throws {
    let document = Document(
      bounds: Rect(x: 0, y: 0, width: 300, height: 260),
      drawing: randomDrawing(seed: 5, count: 80, width: 300, height: 260))
    var options = RenderOptions(threads: 1)
    options.inkColor = Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.5).withExposure(3)
    let one = try document.render(options)
    options.threads = 2
    let two = try document.render(options)
    options.threads = 3
    let three = try document.render(options)
    #expect(one == two && one == three)
  }

  @Test("16-bit PQ PNG: cICP reads 9 16 0 1, and decoded values match the linear render")
  func pq() throws {
    let document = hdrTestDocument(exposure: 4)
    let options = RenderOptions(threads: 2)
    let png = try document.encode(options, as: .pngPQ)
    let chunks = try #require(PNGChunk.chunks(in: png))
    #expect(chunks.first { $0.typeName == "cICP" }?.data == [9, 16, 0, 1])
    #expect(!chunks.contains { $0.typeName == "sRGB" })
    let clli = try #require(chunks.first { $0.typeName == "cLLI" })
    let maxCLL = clli.data[0..<4].reduce(0) { $0 << 8 | Int($1) }
    // The stroke's red reaches 4 × 0.64 of SDR white in sRGB; in BT.2020 its red is a bit lower.
    #expect(maxCLL > 300 * 10000 && maxCLL < 4 * 203 * 10000)
    #expect(chunks.contains { $0.typeName == "mDCV" && $0.data.count == 24 })
    let decoded = try PNGImage16.decode(png, maxPixels: 1 << 20)
    let linear = try linearRender(document, options)
    var p = ResolveSettings(
      colorSpace: .bt2020, transfer: .pq, toneMapping: ToneMapping(contentPeak: 4, headroom: 1000 / 203)
    ).kernelParameters
    let toSRGB = ColorSpaceConversion.matrix(from: .bt2020, to: .sRGB)
    var worst: Float = 0
    for i in 0..<(decoded.width * decoded.height) {
      var rgb = (0..<3).map { Float(decoded.pixels[i * 4 + $0]) / 65535 }
      inkwell_transfer_decode(&p, &rgb)
      let s = toSRGB.apply((rgb[0], rgb[1], rgb[2]))
      let a = linear[i * 4 + 3]
      guard a > 0 else { continue }
      for (c, v) in [s.red, s.green, s.blue].enumerated() {
        let expected = linear[i * 4 + c] / a
        worst = max(worst, abs(v - expected) / max(expected, 0.05))
      }
    }
    // 16-bit PQ steps are about 0.1% of the value at these levels.
    #expect(worst < 5e-3, "worst relative difference \(worst)")
  }

  @Test("HLG PNG says 9 18 0 1; Display P3 8-bit says 12 13 0 1 and drops the sRGB chunk")
  func cicpCodes() throws {
    let document = hdrTestDocument(exposure: 4)
    let hlg = try #require(PNGChunk.chunks(in: document.encode(RenderOptions(threads: 1), as: .pngHLG)))
    #expect(hlg.first { $0.typeName == "cICP" }?.data == [9, 18, 0, 1])
    var options = RenderOptions(threads: 1)
    options.colorSpace = .displayP3
    let p3 = try #require(PNGChunk.chunks(in: document.encode(options, as: .png8)))
    #expect(p3.first { $0.typeName == "cICP" }?.data == [12, 13, 0, 1])
    #expect(!p3.contains { $0.typeName == "sRGB" })
    let srgb = try #require(PNGChunk.chunks(in: document.encode(RenderOptions(threads: 1), as: .png8)))
    #expect(srgb.contains { $0.typeName == "sRGB" } && !srgb.contains { $0.typeName == "cICP" })
  }

  @Test("EXR decodes to the linear render (float exactly, half within its precision)")
  func exr() throws {
    let document = hdrTestDocument(exposure: 4)
    let options = RenderOptions(threads: 2)
    let linear = try linearRender(document, options)
    let full = try EXRCodec.decode(document.encode(options, as: .exr(.float)), maxPixels: 1 << 20)
    #expect(full.width == 160 && full.height == 100)
    #expect(full.pixels == linear)
    let half = try EXRCodec.decode(document.encode(options, as: .exr(.half)), maxPixels: 1 << 20)
    for (a, b) in zip(half.pixels, linear) { #expect(abs(a - b) <= max(abs(b), 6e-5) * 1e-3) }
    #expect(linear.contains { $0 > 2.5 })
  }

  @Test("the exposure cap limits what inks use")
  func exposureCap() throws {
    var options = RenderOptions(threads: 1)
    options.maximumLinearExposure = 1
    let capped = try hdrTestDocument(exposure: 4).render(options)
    let sdr = try hdrTestDocument(exposure: 1).render(RenderOptions(threads: 1))
    #expect(capped == sdr)
  }
}

@Suite("inkwell render: color options", .serialized)
struct ColorCommandTests {
  @Test("'.exr' output writes OpenEXR; --format png-pq writes cICP 9 16 0 1; --appearance dark darkens")
  func formats() throws {
    let dir = temporaryDirectory()
    var result = try runInkwell([
      "render", exampleDocument, "-o", dir + "/out.exr", "--scale", "0.25", "--color", "#d11a1f",
      "--exposure", "4",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let exr = try EXRCodec.decode(readInput(dir + "/out.exr", maxBytes: 1 << 26), maxPixels: 1 << 24)
    #expect(exr.pixels.contains { $0 > 1.05 })
    result = try runInkwell([
      "render", exampleDocument, "-o", dir + "/pq.png", "--scale", "0.25", "--format", "png-pq", "--tone-map",
      "bt2390", "--headroom", "2", "--color", "red", "--exposure", "8",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let chunks = try #require(PNGChunk.chunks(in: readInput(dir + "/pq.png", maxBytes: 1 << 26)))
    #expect(chunks.first { $0.typeName == "cICP" }?.data == [9, 16, 0, 1])
    result = try runInkwell([
      "render", exampleDocument, "-o", dir + "/dark.png", "--scale", "0.25", "--appearance", "dark",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let dark = try PNGImage.decode(readInput(dir + "/dark.png", maxBytes: 1 << 26), maxPixels: 1 << 24)
    #expect(dark.pixels[0] < 64)
  }

  @Test(
    "bad color options are usage errors",
    arguments: [
      ["--exposure", "4"], ["--color", "red", "--exposure", "0.5"], ["--format", "gif"],
      ["--tone-map", "aces"],
      ["--color-space", "rec2020"], ["--headroom", "0"], ["--appearance", "sepia"], ["--dither", "fs"],
    ])
  func usage(extra: [String]) throws {
    let result = try runInkwell(["render", exampleDocument, "-o", "/tmp/never.png"] + extra)
    #expect(result.status == 2, "\(extra): \(result.stderr)")
  }
}
