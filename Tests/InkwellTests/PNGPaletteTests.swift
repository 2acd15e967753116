import CInkwellPNG
import Foundation
import InkwellPNG
import Testing

@testable import Inkwell

@Suite("PNG palettes")
struct PNGPaletteTests {
  /// An image drawn from `colors` distinct colors, in runs of random length (paper and strokes),
  /// every color used; alphas vary with `translucent`.
  static func image(width: Int, height: Int, colors: Int, translucent: Bool, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    let palette = (0..<colors).map { k -> [UInt8] in
      [
        UInt8(truncatingIfNeeded: k * 37), UInt8(truncatingIfNeeded: k * 11 + k / 256),
        UInt8(truncatingIfNeeded: k / 3), translucent ? UInt8(truncatingIfNeeded: 255 - k % 7 * 30) : 255,
      ]
    }
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 4)
    var pixel = 0
    while pixel < width * height {
      // The first `colors` pixels name every color once; then runs of 1…40 of a random one.
      let color = pixel < colors ? pixel : Int.random(in: 0..<colors, using: &rng)
      let run = pixel < colors ? 1 : Int.random(in: 1...40, using: &rng)
      for _ in 0..<Swift.min(run, width * height - pixel) { pixels += palette[color] }
      pixel += run
    }
    return Array(pixels.prefix(width * height * 4))
  }

  static func encode(
    _ pixels: [UInt8], _ w: Int, _ h: Int, hasAlpha: Bool, effort: Int = 1, threads: Int = 1,
    rowStride: Int? = nil
  ) throws -> [UInt8] {
    try pixels.withUnsafeBytes {
      try PNGBandEncoder(effort: effort).encode(
        rgba8: $0, width: w, height: h, hasAlpha: hasAlpha, rowStride: rowStride, threads: threads)
    }
  }

  @Test(
    "an image of at most 256 colors is written with a palette and decodes to the same pixels",
    arguments: [(1, 1, 1), (3, 2, 5), (17, 9, 40), (64, 65, 200), (130, 129, 256), (301, 70, 3)])
  func indexed(_ size: (Int, Int, Int)) throws {
    let (w, h, colors) = size
    for translucent in [false, true] {
      let pixels = Self.image(
        width: w, height: h, colors: Swift.min(colors, w * h), translucent: translucent, seed: 7)
      for effort in [1, 2, 9] {
        let png = try Self.encode(pixels, w, h, hasAlpha: translucent, effort: effort, threads: 2)
        #expect(colorType(of: png) == 3, "\(size), effort \(effort)")
        let parts = chunks(of: png)
        let entries = (parts.first { $0.type == "PLTE" }?.data.count ?? 0) / 3
        #expect(entries == Swift.min(colors, w * h))
        #expect(parts.contains { $0.type == "tRNS" } == (translucent && colors > 1))
        #expect(
          parts.map(\.type).prefix(4) == [
            "IHDR", "sRGB", "PLTE", translucent && colors > 1 ? "tRNS" : "IDAT",
          ])
        #expect(try PNGImage.decode(png, maxPixels: w * h).pixels == pixels, "\(size), effort \(effort)")
      }
    }
  }

  @Test("256 colors take a palette, 257 do not; both decode exactly")
  func limit() throws {
    let (w, h) = (120, 90)
    for (colors, type) in [(256, UInt8(3)), (257, UInt8(2))] {
      let pixels = Self.image(width: w, height: h, colors: colors, translucent: false, seed: 9)
      let png = try Self.encode(pixels, w, h, hasAlpha: false)
      #expect(colorType(of: png) == type, "\(colors) colors")
      #expect(try PNGImage.decode(png, maxPixels: w * h).pixels == pixels)
    }
    // The 257th color on the last pixel.
    var late = Self.image(width: w, height: h, colors: 256, translucent: true, seed: 10)
    late[late.count - 4..<late.count] = [1, 2, 3, 4]
    let png = try Self.encode(late, w, h, hasAlpha: true)
    #expect(colorType(of: png) == 6)
    #expect(try PNGImage.decode(png, maxPixels: w * h).pixels == late)
  }

  @Test("without alpha the fourth byte is ignored: colors that differ only there are one entry")
  func opaqueIgnoresAlpha() throws {
    let (w, h) = (33, 5)
    var pixels = Self.image(width: w, height: h, colors: 4, translucent: false, seed: 3)
    for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = UInt8(i % 251) }
    let png = try Self.encode(pixels, w, h, hasAlpha: false)
    #expect(colorType(of: png) == 3)
    #expect((chunks(of: png).first { $0.type == "PLTE" }?.data.count ?? 0) == 4 * 3)
    var expected = pixels
    for i in stride(from: 3, to: expected.count, by: 4) { expected[i] = 255 }
    #expect(try PNGImage.decode(png, maxPixels: w * h).pixels == expected)
  }

  @Test("the palette file is the same on any number of threads, and with a padded row stride")
  func deterministic() throws {
    let (w, h) = (211, 300)
    let pixels = Self.image(width: w, height: h, colors: 90, translucent: true, seed: 5)
    let files = try [1, 2, 3, 8].map { try Self.encode(pixels, w, h, hasAlpha: true, threads: $0) }
    #expect(files.allSatisfy { $0 == files[0] })
    var padded = [UInt8](repeating: 0xCD, count: h * (w * 4 + 20))
    for y in 0..<h {
      for x in 0..<(w * 4) { padded[y * (w * 4 + 20) + x] = pixels[y * w * 4 + x] }
    }
    #expect(try Self.encode(padded, w, h, hasAlpha: true, threads: 2, rowStride: w * 4 + 20) == files[0])
  }

  @Test("random images around the limit decode exactly, with a palette exactly when they fit")
  func randomImages() throws {
    var rng = SeededGenerator(seed: 404)
    for round in 0..<40 {
      let w = Int.random(in: 1...300, using: &rng)
      let h = Int.random(in: 1...40, using: &rng)
      let colors = Swift.min(Int.random(in: 1...300, using: &rng), w * h)
      let translucent = Bool.random(using: &rng)
      let pixels = Self.image(
        width: w, height: h, colors: colors, translucent: translucent, seed: UInt64(round))
      let padding = 4 * Int.random(in: 0...3, using: &rng)
      var padded = [UInt8](repeating: 0x5A, count: h * (w * 4 + padding))
      for y in 0..<h {
        for x in 0..<(w * 4) { padded[y * (w * 4 + padding) + x] = pixels[y * w * 4 + x] }
      }
      let png = try Self.encode(
        padded, w, h, hasAlpha: translucent, effort: [1, 1, 2, 6][round % 4],
        threads: 1 + round % 3, rowStride: w * 4 + padding)
      let fits = colors <= 256
      #expect(
        colorType(of: png) == (fits ? 3 : (translucent ? 6 : 2)), "round \(round): \(w)×\(h), \(colors)")
      #expect(try PNGImage.decode(png, maxPixels: w * h).pixels == pixels, "round \(round)")
    }
  }

  @Test("the indexer numbers colors by first appearance and stops at the 257th")
  func indexer() {
    let (w, h) = (37, 19)
    let pixels = Self.image(width: w, height: h, colors: 70, translucent: true, seed: 21)
    var indices = [UInt8](repeating: 0, count: w * h)
    var palette = [UInt8](repeating: 0, count: 1024)
    let count = inkwell_png_index_colors(pixels, w * 4, UInt32(w), UInt32(h), 1, &indices, &palette)
    #expect(count == 70)
    var seen: [[UInt8]] = []
    for p in 0..<(w * h) {
      let color = Array(pixels[p * 4..<p * 4 + 4])
      if !seen.contains(color) { seen.append(color) }
      #expect(Array(palette[Int(indices[p]) * 4..<Int(indices[p]) * 4 + 4]) == color)
    }
    #expect(seen.count == 70 && Array(palette.prefix(70 * 4)) == seen.flatMap { $0 })
    let many = Self.image(width: w, height: h, colors: 257, translucent: false, seed: 22)
    #expect(inkwell_png_index_colors(many, w * 4, UInt32(w), UInt32(h), 0, &indices, &palette) == 0)
  }

  @Test("only images up to the pixel limit are tried")
  func sizeLimit() {
    #expect(PNGBandEncoder.triesPalette(width: 1024, height: 1024))
    #expect(!PNGBandEncoder.triesPalette(width: 1024, height: 1025))
    #expect(!PNGBandEncoder.triesPalette(width: Int.max, height: 3))
  }

  @Test(
    "writePNG gives a thumbnail of few colors a palette, and streams the same pixels in bands",
    arguments: [1, 2])
  func documentThumbnail(threads: Int) throws {
    var drawing = Drawing()
    drawing.strokes.append(penStroke([(10, 10), (200, 90), (120, 180)], width: 6))
    let document = Document(bounds: Rect(x: 0, y: 0, width: 220, height: 200), drawing: drawing)
    let options = RenderOptions(sizing: .fit(width: 96, height: 96), threads: threads)
    let rendered = try document.render(options)
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var files: [[UInt8]] = []
    for (name, whole) in [("whole.png", PNGBandEncoder.palettePixelLimit), ("bands.png", 0)] {
      let writer = try OutputFileWriter(path: directory + "/" + name)
      try document.writePNG(
        to: writer, options: options, effort: PNGBandEncoder.defaultEffort, inks: .standard, wholeUpTo: whole)
      try writer.commit()
      files.append(try readInput(directory + "/" + name, maxBytes: 1 << 20))
    }
    #expect(colorType(of: files[0]) == 3)
    #expect(colorType(of: files[1]) == 2)
    #expect(files[0] == (try rendered.pngData(threads: threads)))
    for file in files {
      #expect(try PNGImage.decode(file, maxPixels: 96 * 96).pixels == rendered.pixels)
    }
  }
}
