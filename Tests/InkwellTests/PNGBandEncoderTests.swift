import CInkwellPNG
import Inkwell
import InkwellPNG
import Testing

@Suite("Band-parallel PNG encoder")
struct PNGBandEncoderTests {
  /// A deterministic RGBA image with smooth areas, edges and noise.
  static func image(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = UInt8(truncatingIfNeeded: x * 3 + y)
        pixels[i + 1] = (x / 7 + y / 5) % 2 == 0 ? 255 : 20
        pixels[i + 2] = UInt8.random(in: 0...255, using: &rng)
        pixels[i + 3] = UInt8(truncatingIfNeeded: 128 + x - y)
      }
    }
    return pixels
  }

  static let sizes: [(Int, Int)] = [
    (1, 1), (3, 2), (16, 3), (47, 5), (64, 64), (130, 129), (37, 300), (500, 65),
  ]

  @Test("decodes to the same pixels, RGBA and RGB, at every effort", arguments: sizes)
  func roundTrip(_ size: (Int, Int)) throws {
    let (w, h) = size
    let pixels = Self.image(width: w, height: h, seed: UInt64(w * 1000 + h))
    for effort in [1, 2, 4, 6, 9] {
      for alpha in [true, false] {
        let bytes = try pixels.withUnsafeBytes {
          try PNGBandEncoder(effort: effort).encode(
            rgba8: $0, width: w, height: h, hasAlpha: alpha, threads: 2)
        }
        let decoded = try PNGImage.decode(bytes, maxPixels: w * h)
        var expected = pixels
        if !alpha { for i in stride(from: 3, to: expected.count, by: 4) { expected[i] = 255 } }
        #expect(decoded.width == w && decoded.height == h)
        #expect(decoded.pixels == expected, "effort \(effort), alpha \(alpha)")
      }
    }
  }

  /// Paper with dark strokes: rows of 255 crossed by short dark runs with soft edges, as a page
  /// of handwriting renders.
  static func page(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for _ in 0..<(width * height / 300) {
      let (x0, y0) = (Int.random(in: 0..<width, using: &rng), Int.random(in: 0..<height, using: &rng))
      let length = Int.random(in: 4...40, using: &rng)
      for k in 0..<length {
        let (x, y) = (x0 + k, y0 + k / 3)
        guard x < width, y < height else { break }
        let ink = UInt8(20 + (k % 5) * 40)
        for c in 0..<3 { pixels[(y * width + x) * 4 + c] = ink }
      }
    }
    return pixels
  }

  /// Effort 2 keeps, band by band, the smaller of effort 1's band and an adaptively filtered one,
  /// so it is never larger; higher efforts add zlib levels, which are not monotone to the byte
  /// (level 9 came out 0.2 % larger than level 6 on the noise), so they are held to effort 1.
  @Test("more effort never makes a page larger than effort 1, on handwriting or on colorful noise")
  func effortShrinks() throws {
    for (name, pixels, w, h) in [
      ("page", Self.page(width: 400, height: 300, seed: 3), 400, 300),
      ("noise", Self.image(width: 400, height: 300, seed: 4), 400, 300),
    ] {
      let sizes = try [1, 2, 6, 9].map { effort in
        try pixels.withUnsafeBytes {
          try PNGBandEncoder(effort: effort).encode(
            rgba8: $0, width: w, height: h, hasAlpha: false, threads: 2)
        }.count
      }
      for k in 1..<sizes.count { #expect(sizes[k] <= sizes[0], "\(name): \(sizes)") }
      let bytes = try pixels.withUnsafeBytes {
        try PNGBandEncoder(effort: 9).encode(rgba8: $0, width: w, height: h, hasAlpha: false, threads: 3)
      }
      let again = try pixels.withUnsafeBytes {
        try PNGBandEncoder(effort: 9).encode(rgba8: $0, width: w, height: h, hasAlpha: false, threads: 1)
      }
      #expect(bytes == again, "\(name): effort 9 depends on the thread count")
    }
  }

  @Test("the file is the same on any number of threads")
  func threadIndependent() throws {
    let (w, h) = (211, 700)
    let pixels = Self.image(width: w, height: h, seed: 5)
    let files = try [1, 2, 3, 8].map { threads in
      try pixels.withUnsafeBytes {
        try PNGBandEncoder().encode(rgba8: $0, width: w, height: h, hasAlpha: false, threads: threads)
      }
    }
    #expect(files.allSatisfy { $0 == files[0] })
  }

  @Test("compressors kept from earlier files, of other sizes and efforts, write the same bytes")
  func reusedCompressors() throws {
    // Noise makes each band's output outgrow its first buffer; the page of strokes does not.
    let noise = Self.image(width: 300, height: 150, seed: 11)
    let page = Self.page(width: 256, height: 341, seed: 12)
    func encode(_ pixels: [UInt8], _ w: Int, _ h: Int, effort: Int, threads: Int) throws -> [UInt8] {
      try pixels.withUnsafeBytes {
        try PNGBandEncoder(effort: effort).encode(
          rgba8: $0, width: w, height: h, hasAlpha: false, threads: threads)
      }
    }
    let first = try [
      encode(noise, 300, 150, effort: 1, threads: 1), encode(page, 256, 341, effort: 1, threads: 1),
    ]
    for effort in [9, 2, 1] {
      for threads in [1, 4] {
        _ = try encode(noise, 300, 150, effort: effort, threads: threads)
        _ = try encode(page, 256, 341, effort: effort, threads: threads)
      }
    }
    let again = try [
      encode(noise, 300, 150, effort: 1, threads: 3), encode(page, 256, 341, effort: 1, threads: 2),
    ]
    #expect(again == first)
    #expect(try PNGImage.decode(again[0], maxPixels: 300 * 150).pixels.count == 300 * 150 * 4)
  }

  @Test("a padded row stride is honoured")
  func rowStride() throws {
    let (w, h) = (10, 70)
    let tight = Self.image(width: w, height: h, seed: 9)
    var padded = [UInt8](repeating: 0xAB, count: h * (w * 4 + 12))
    for y in 0..<h {
      for x in 0..<(w * 4) { padded[y * (w * 4 + 12) + x] = tight[y * w * 4 + x] }
    }
    let bytes = try padded.withUnsafeBytes {
      try PNGBandEncoder().encode(rgba8: $0, width: w, height: h, hasAlpha: true, rowStride: w * 4 + 12)
    }
    #expect(try PNGImage.decode(bytes, maxPixels: w * h).pixels == tight)
  }

  @Test(
    "an image is opaque until any one pixel's alpha is below 255",
    arguments: [(1, 1), (3, 1), (5, 3), (300, 7)])
  func opacity(_ size: (Int, Int)) {
    let (w, h) = size
    let opaque = RGBA8Image(width: w, height: h, pixels: [UInt8](repeating: 255, count: w * h * 4))
    #expect(opaque.isOpaque)
    for pixel in Set([0, w * h / 2, w * h - 2, w * h - 1].filter { $0 >= 0 }) {
      var translucent = opaque
      translucent.pixels[pixel * 4 + 3] = 254
      #expect(!translucent.isOpaque, "pixel \(pixel)")
      var colored = opaque
      colored.pixels[pixel * 4] = 0
      #expect(colored.isOpaque, "pixel \(pixel)")
    }
  }

  @Test("a buffer too small for the image is refused")
  func tooSmall() {
    let pixels = [UInt8](repeating: 0, count: 10)
    #expect(throws: PNGError.self) {
      try pixels.withUnsafeBytes {
        try PNGBandEncoder().encode(rgba8: $0, width: 4, height: 4, hasAlpha: true)
      }
    }
  }

  @Test("the checksum's vectors agree with zlib's adler32 at every length, start and offset")
  func adler32() {
    var rng = SeededGenerator(seed: 32)
    // Runs of 255 are the largest sums a block can make; the chunk of 64 KiB and more is where the
    // lanes' sums are reduced.
    let random = (0..<140_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let paper = [UInt8](repeating: 255, count: 140_000)
    let starts: [UInt32] = [1, 0, 0xfff0_fff0, 0x1234_5678 % 65521 | (40_000 << 16)]
    for bytes in [random, paper] {
      bytes.withUnsafeBufferPointer { buffer in
        let base = buffer.baseAddress!
        var lengths = Array(0...96) + [255, 256, 769, 4096, 5552, 65535, 65536, 65537, 131_071]
        lengths.append(buffer.count - 3)
        for length in lengths {
          for offset in [0, 1, 3] {
            for start in starts {
              let fast = inkwell_png_adler32(start, base + offset, length)
              let reference = inkwell_png_adler32_reference(start, base + offset, length)
              #expect(fast == reference, "length \(length), offset \(offset), start \(start)")
            }
          }
        }
      }
    }
  }
}
