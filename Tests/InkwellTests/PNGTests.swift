import InkwellPNG
import Testing

/// Deterministic test pixels (SplitMix64), so failures reproduce.
private struct SeededBytes {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  mutating func bytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
  }

  mutating func samples16(_ count: Int) -> [UInt16] {
    (0..<count).map { _ in UInt16(truncatingIfNeeded: next()) }
  }
}

/// The chunks of a PNG file, in order, as (type, data).
func chunks(of png: [UInt8]) -> [(type: String, data: [UInt8])] {
  var result: [(type: String, data: [UInt8])] = []
  var offset = 8
  while offset + 12 <= png.count {
    let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
    result.append((type, Array(png[offset + 8..<offset + 8 + length])))
    offset += 12 + length
  }
  return result
}

/// The IHDR color type: 2 is RGB, 3 a palette, 6 is RGBA.
func colorType(of png: [UInt8]) -> UInt8? {
  chunks(of: png).first { $0.type == "IHDR" }?.data[9]
}

private func withOpaqueAlpha(_ rgba: [UInt8]) -> [UInt8] {
  var opaque = rgba
  for index in stride(from: 3, to: opaque.count, by: 4) { opaque[index] = 255 }
  return opaque
}

@Test(arguments: PNGEncoder.Filter.allCases)
func rgba8RoundTripIsExact(filter: PNGEncoder.Filter) throws {
  var random = SeededBytes(state: 1)
  let pixels = random.bytes(37 * 23 * 4)
  let png = try PNGEncoder(filter: filter).encode(rgba8: pixels, width: 37, height: 23, hasAlpha: true)
  #expect(colorType(of: png) == 6)
  let image = try PNGImage.decode(png, maxPixels: 37 * 23)
  #expect(image == PNGImage(width: 37, height: 23, pixels: pixels))
}

@Test(arguments: [0, 1, 9])
func compressionLevelsRoundTrip(level: Int) throws {
  var random = SeededBytes(state: 2)
  let pixels = random.bytes(16 * 9 * 4)
  let png = try PNGEncoder(compressionLevel: level).encode(
    rgba8: pixels, width: 16, height: 9, hasAlpha: true)
  #expect(try PNGImage.decode(png, maxPixels: 1000).pixels == pixels)
}

@Test func rgb8DropsTheFourthByte() throws {
  var random = SeededBytes(state: 3)
  let pixels = random.bytes(19 * 11 * 4)
  let png = try PNGEncoder().encode(rgba8: pixels, width: 19, height: 11, hasAlpha: false)
  #expect(colorType(of: png) == 2)
  let image = try PNGImage.decode(png, maxPixels: 19 * 11)
  #expect(image.pixels == withOpaqueAlpha(pixels))
}

@Test func rowStrideSkipsPadding() throws {
  var random = SeededBytes(state: 4)
  let width = 5
  let height = 4
  let stride = width * 4 + 12
  let padded = random.bytes(stride * height)
  let packed = (0..<height).flatMap { row in padded[row * stride..<row * stride + width * 4] }
  let png = try padded.withUnsafeBytes { bytes in
    try PNGEncoder().encode(rgba8: bytes, width: width, height: height, hasAlpha: true, rowStride: stride)
  }
  #expect(try PNGImage.decode(png, maxPixels: 100).pixels == packed)
}

@Test(arguments: [true, false])
func rgba16RoundTripIsExact(hasAlpha: Bool) throws {
  var random = SeededBytes(state: 5)
  let samples = random.samples16(13 * 7 * 4)
  let png = try PNGEncoder().encode(rgba16: samples, width: 13, height: 7, hasAlpha: hasAlpha)
  #expect(colorType(of: png) == (hasAlpha ? 6 : 2))
  #expect(chunks(of: png).first { $0.type == "IHDR" }?.data[8] == 16)
  let image = try PNGImage16.decode(png, maxPixels: 13 * 7)
  var expected = samples
  if !hasAlpha {
    for index in stride(from: 3, to: expected.count, by: 4) { expected[index] = 0xFFFF }
  }
  #expect(image == PNGImage16(width: 13, height: 7, pixels: expected))
}

@Test func decodingConvertsBetweenDepthsExactly() throws {
  let levels = (0..<64).map { UInt8($0 * 4) }
  let pixels8: [UInt8] = levels.flatMap { level -> [UInt8] in [level, 255 - level, level / 2, 200] }
  let png8 = try PNGEncoder().encode(rgba8: pixels8, width: 8, height: 8, hasAlpha: true)
  #expect(try PNGImage16.decode(png8, maxPixels: 64).pixels == pixels8.map { UInt16($0) * 257 })

  let png16 = try PNGEncoder().encode(
    rgba16: pixels8.map { UInt16($0) * 257 }, width: 8, height: 8, hasAlpha: true)
  #expect(try PNGImage.decode(png16, maxPixels: 64).pixels == pixels8)
}

@Test func sRGBChunkFollowsTheOption() throws {
  let pixels8 = [UInt8](repeating: 128, count: 4 * 4 * 4)
  let pixels16 = [UInt16](repeating: 1000, count: 4 * 4 * 4)
  func hasSRGB(_ png: [UInt8]) -> Bool {
    chunks(of: png).contains { $0.type == "sRGB" && $0.data == [0] }
  }
  let automatic = PNGEncoder()
  #expect(hasSRGB(try automatic.encode(rgba8: pixels8, width: 4, height: 4, hasAlpha: true)))
  #expect(!hasSRGB(try automatic.encode(rgba16: pixels16, width: 4, height: 4, hasAlpha: true)))
  let always = PNGEncoder(sRGBChunk: .always)
  #expect(hasSRGB(try always.encode(rgba16: pixels16, width: 4, height: 4, hasAlpha: true)))
  let never = PNGEncoder(sRGBChunk: .never)
  #expect(!hasSRGB(try never.encode(rgba8: pixels8, width: 4, height: 4, hasAlpha: false)))
  let order = chunks(of: try automatic.encode(rgba8: pixels8, width: 4, height: 4, hasAlpha: true))
  #expect(order.map(\.type) == ["IHDR", "sRGB", "IDAT", "IEND"])
}

@Test(arguments: [1, 7, 64])
func streamingInBandsMatchesOneShot(bandHeight: Int) throws {
  var random = SeededBytes(state: 6)
  let width = 21
  let height = 64
  let pixels = random.bytes(width * height * 4)
  let oneShot = try PNGEncoder().encode(rgba8: pixels, width: width, height: height, hasAlpha: false)

  let inMemory = try PNGStreamEncoder(width: width, height: height, rowFormat: .rgba8, hasAlpha: false)
  var streamed: [UInt8] = []
  let toSink = try PNGStreamEncoder(width: width, height: height, rowFormat: .rgba8, hasAlpha: false) {
    streamed += $0
  }
  for bandStart in stride(from: 0, to: height, by: bandHeight) {
    let band = Array(pixels[bandStart * width * 4..<min(bandStart + bandHeight, height) * width * 4])
    try inMemory.writeRows(rgba8: band)
    try toSink.writeRows(rgba8: band)
  }
  #expect(try inMemory.finish() == oneShot)
  #expect(try toSink.finish() == [])
  #expect(streamed == oneShot)
}

@Test func streaming16BitRoundTrips() throws {
  var random = SeededBytes(state: 7)
  let samples = random.samples16(9 * 6 * 4)
  let encoder = try PNGStreamEncoder(width: 9, height: 6, rowFormat: .rgba16, hasAlpha: true)
  try encoder.writeRows(rgba16: Array(samples[..<(9 * 4 * 2)]))
  try encoder.writeRows(rgba16: Array(samples[(9 * 4 * 2)...]))
  #expect(try PNGImage16.decode(try encoder.finish(), maxPixels: 54).pixels == samples)
}

private struct SinkFull: Error {}

@Test func sinkErrorStopsTheEncoder() throws {
  let encoder = try PNGStreamEncoder(
    width: 64, height: 64, rowFormat: .rgba8, hasAlpha: true, options: PNGEncoder(compressionLevel: 0)
  ) { bytes in
    if bytes.count > 100 { throw SinkFull() }
  }
  let rows = [UInt8](repeating: 7, count: 64 * 64 * 4)
  #expect {
    try encoder.writeRows(rgba8: rows)
  } throws: { error in
    guard case .sinkFailed(let underlying) = error as? PNGError else { return false }
    return underlying is SinkFull
  }
  #expect(throws: PNGError.self) { try encoder.finish() }
}

@Test func streamingRejectsMisuse() throws {
  let encoder = try PNGStreamEncoder(width: 2, height: 2, rowFormat: .rgba8, hasAlpha: true)
  #expect(throws: PNGError.self) { try encoder.writeRows(rgba8: [UInt8](repeating: 0, count: 3 * 8)) }
  #expect(throws: PNGError.self) { try encoder.writeRows(rgba8: [UInt8](repeating: 0, count: 5)) }
  #expect(throws: PNGError.self) { try encoder.writeRows(rgba16: [UInt16](repeating: 0, count: 8)) }
  try encoder.writeRows(rgba8: [UInt8](repeating: 0, count: 8))
  #expect(encoder.rowsWritten == 1)
  #expect(throws: PNGError.self) { try encoder.finish() }
  try encoder.writeRows(rgba8: [UInt8](repeating: 0, count: 8))
  _ = try encoder.finish()
  #expect(throws: PNGError.self) { try encoder.finish() }
}

@Test func encoderRejectsBadRequests() {
  let encoder = PNGEncoder()
  #expect(throws: PNGError.self) {
    try encoder.encode(rgba8: [1, 2, 3], width: 1, height: 1, hasAlpha: true)
  }
  #expect(throws: PNGError.self) { try encoder.encode(rgba8: [], width: 0, height: 1, hasAlpha: true) }
  #expect(throws: PNGError.self) {
    try PNGEncoder(compressionLevel: 10).encode(rgba8: [0, 0, 0, 0], width: 1, height: 1, hasAlpha: true)
  }
}

private func samplePNG() throws -> [UInt8] {
  var random = SeededBytes(state: 8)
  return try PNGEncoder().encode(rgba8: random.bytes(30 * 20 * 4), width: 30, height: 20, hasAlpha: true)
}

@Test func truncatedPNGIsAnError() throws {
  let png = try samplePNG()
  for length in [0, 4, 8, 20, 33, 40, png.count / 2, png.count - 12, png.count - 1] {
    #expect(throws: PNGError.self, "truncated to \(length) bytes") {
      try PNGImage.decode(Array(png[..<length]), maxPixels: 1 << 20)
    }
  }
}

@Test func corruptedPNGIsAnError() throws {
  let png = try samplePNG()
  var badIDAT = png
  let idatData = 8 + 25 + 13 + 8  // signature, IHDR chunk, sRGB chunk, IDAT length and type
  badIDAT[idatData + 10] ^= 0x5A
  var badIHDR = png
  badIHDR[16 + 8] = 3  // bit depth 3 does not exist
  let notPNG = Array("GIF89a, not a PNG at all".utf8)
  for bytes in [badIDAT, badIHDR, notPNG] {
    #expect(throws: PNGError.self) { try PNGImage.decode(bytes, maxPixels: 1 << 20) }
    #expect(throws: PNGError.self) { try PNGImage16.decode(bytes, maxPixels: 1 << 20) }
  }
  do {
    _ = try PNGImage.decode(notPNG, maxPixels: 1 << 20)
  } catch {
    #expect(error.description == "PNG decoding failed: not a PNG file (bad signature)")
  }
}

@Test func tooLargeImageIsRefused() throws {
  let png = try samplePNG()
  #expect(throws: Never.self) { try PNGImage.decode(png, maxPixels: 600) }
  do {
    _ = try PNGImage16.decode(png, maxPixels: 599)
    Issue.record("a 600-pixel image passed a 599-pixel limit")
  } catch {
    guard case .imageTooLarge(let width, let height, let maxPixels) = error else {
      Issue.record("unexpected error: \(error)")
      return
    }
    #expect(width == 30 && height == 20 && maxPixels == 599)
    #expect(error.description == "PNG image is 30x20, over the limit of 599 pixels")
  }
}
