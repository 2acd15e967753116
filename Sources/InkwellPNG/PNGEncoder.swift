import CInkwellPNG

/// Encodes whole RGBA images as PNG files in memory.
///
/// The encoder is a value holding options; each `encode` call is independent.
public struct PNGEncoder: Sendable {
  /// How rows are filtered before compression.
  public enum Filter: Sendable, CaseIterable {
    /// libpng picks the best of all five filters for each row: smallest files, slowest.
    case adaptive
    case none
    case sub
    case up
    case average
    case paeth
  }

  /// When to write an `sRGB` chunk (rendering intent perceptual).
  public enum SRGBChunk: Sendable {
    /// For 8-bit images, whose samples are sRGB-encoded; not for 16-bit ones, which may be linear.
    case for8BitOnly
    case always
    case never
  }

  /// zlib compression level, 0 (stored) through 9 (smallest).
  public var compressionLevel: Int
  public var filter: Filter
  public var sRGBChunk: SRGBChunk
  /// Ancillary chunks written after the header and before the image data (`cICP`, `mDCV`,
  /// `cLLI`, …), in order.
  public var chunks: [PNGChunk]

  public init(
    compressionLevel: Int = 6, filter: Filter = .adaptive, sRGBChunk: SRGBChunk = .for8BitOnly,
    chunks: [PNGChunk] = []
  ) {
    self.compressionLevel = compressionLevel
    self.filter = filter
    self.sRGBChunk = sRGBChunk
    self.chunks = chunks
  }

  /// The extra chunks back to back as the shim reads them: type, big-endian length, data.
  var serializedChunks: [UInt8] {
    var bytes: [UInt8] = []
    for chunk in chunks {
      bytes += chunk.type
      bytes += PNGChunk.bigEndian(UInt32(chunk.data.count))
      bytes += chunk.data
    }
    return bytes
  }

  /// Encodes tightly packed RGBA8 rows, `width * height * 4` bytes.
  ///
  /// - Parameter hasAlpha: when false, the fourth byte of each pixel is dropped and RGB is written.
  public func encode(rgba8 pixels: [UInt8], width: Int, height: Int, hasAlpha: Bool) throws(PNGError)
    -> [UInt8]
  {
    try withRawBytes(of: pixels) { (bytes) throws(PNGError) -> [UInt8] in
      try encode(rgba8: bytes, width: width, height: height, hasAlpha: hasAlpha)
    }
  }

  /// Encodes RGBA8 rows that start `rowStride` bytes apart (by default `width * 4`).
  ///
  /// - Parameter hasAlpha: when false, the fourth byte of each pixel is dropped and RGB is written.
  public func encode(
    rgba8 pixels: UnsafeRawBufferPointer, width: Int, height: Int, hasAlpha: Bool, rowStride: Int? = nil
  ) throws(PNGError) -> [UInt8] {
    let header = try PNGHeader(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha)
    return try encode(header: header, rows: pixels, rowStride: rowStride ?? header.rowBytes)
  }

  /// Encodes tightly packed RGBA rows of native-endian 16-bit samples, `width * height * 4` of them.
  ///
  /// - Parameter hasAlpha: when false, the fourth sample of each pixel is dropped and RGB is written.
  public func encode(rgba16 pixels: [UInt16], width: Int, height: Int, hasAlpha: Bool) throws(PNGError)
    -> [UInt8]
  {
    let header = try PNGHeader(width: width, height: height, bitDepth: 16, hasAlpha: hasAlpha)
    return try withRawBytes(of: pixels) { (bytes) throws(PNGError) -> [UInt8] in
      try encode(header: header, rows: bytes, rowStride: header.rowBytes)
    }
  }

  private func encode(header: PNGHeader, rows: UnsafeRawBufferPointer, rowStride: Int) throws(PNGError)
    -> [UInt8]
  {
    try header.checkRows(rows, count: header.height, stride: rowStride)
    var options = try shimOptions(for: header)
    var encoded: UnsafeMutablePointer<UInt8>? = nil
    var encodedSize = 0
    let extra = serializedChunks
    let (status, message) = extra.withUnsafeBufferPointer { extra in
      options.extra_chunks = extra.baseAddress
      options.extra_chunks_size = extra.count
      return callShim { message, capacity in
        inkwell_png_encode(&options, rows.baseAddress, rowStride, &encoded, &encodedSize, message, capacity)
      }
    }
    defer { inkwell_png_free(encoded) }
    guard status == INKWELL_PNG_OK, let encoded else {
      throw PNGError(encodingStatus: status, message: message)
    }
    return Array(UnsafeBufferPointer(start: encoded, count: encodedSize))
  }

  func shimOptions(for header: PNGHeader) throws(PNGError) -> inkwell_png_encode_options {
    guard (0...9).contains(compressionLevel) else {
      throw .invalidRequest("compression level \(compressionLevel) is outside 0...9")
    }
    let writesSRGB: Bool
    switch sRGBChunk {
    case .for8BitOnly: writesSRGB = header.bitDepth == 8
    case .always: writesSRGB = true
    case .never: writesSRGB = false
    }
    return inkwell_png_encode_options(
      width: UInt32(header.width),
      height: UInt32(header.height),
      bit_depth: Int32(header.bitDepth),
      layout: header.hasAlpha ? INKWELL_PNG_LAYOUT_RGBA : INKWELL_PNG_LAYOUT_RGBX,
      byte_order: nativeByteOrder,
      compression_level: Int32(compressionLevel),
      filter: filter.shimFilter,
      write_srgb_chunk: writesSRGB ? 1 : 0,
      extra_chunks: nil,
      extra_chunks_size: 0,
      palette: nil,
      palette_entries: 0
    )
  }
}

extension PNGEncoder.Filter {
  fileprivate var shimFilter: inkwell_png_filter {
    switch self {
    case .adaptive: return INKWELL_PNG_FILTER_ADAPTIVE
    case .none: return INKWELL_PNG_FILTER_NONE
    case .sub: return INKWELL_PNG_FILTER_SUB
    case .up: return INKWELL_PNG_FILTER_UP
    case .average: return INKWELL_PNG_FILTER_AVERAGE
    case .paeth: return INKWELL_PNG_FILTER_PAETH
    }
  }
}

/// Validated dimensions and sample format of an image to encode; rows are always RGBA in memory.
struct PNGHeader {
  let width: Int
  let height: Int
  let bitDepth: Int
  let hasAlpha: Bool

  init(width: Int, height: Int, bitDepth: Int, hasAlpha: Bool) throws(PNGError) {
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw .invalidRequest("image size \(width)x\(height) is outside 1...\(Int32.max) per side")
    }
    self.width = width
    self.height = height
    self.bitDepth = bitDepth
    self.hasAlpha = hasAlpha
  }

  /// Bytes of one packed RGBA row in memory.
  var rowBytes: Int { width * 4 * (bitDepth / 8) }

  func checkRows(_ rows: UnsafeRawBufferPointer, count rowCount: Int, stride rowStride: Int) throws(PNGError)
  {
    guard rowCount > 0 else { return }
    guard rowCount == 1 || rowStride >= rowBytes else {
      throw .invalidRequest("row stride \(rowStride) is shorter than a row of \(rowBytes) bytes")
    }
    let (spanBeforeLastRow, overflow) = (rowCount - 1).multipliedReportingOverflow(by: rowStride)
    guard !overflow, rows.baseAddress != nil, rows.count - rowBytes >= spanBeforeLastRow else {
      throw .invalidRequest(
        "\(rows.count) bytes given; \(rowCount) rows of \(width) RGBA\(bitDepth) pixels "
          + "\(rowStride) bytes apart need \(spanBeforeLastRow + rowBytes)"
      )
    }
  }
}

extension PNGError {
  init(encodingStatus status: inkwell_png_status, message: String) {
    switch status {
    case INKWELL_PNG_INVALID_ARGUMENT, INKWELL_PNG_INCOMPLETE, INKWELL_PNG_ENCODER_FAILED:
      self = .invalidRequest(message)
    default:
      self = .encodingFailed(message)
    }
  }
}
