import CInkwellPNG

/// A decoded image with 8-bit RGBA samples, as stored in the file (no gamma conversion).
public struct PNGImage: Sendable, Equatable {
  public var width: Int
  public var height: Int
  /// Row-major RGBA, tightly packed, straight (not premultiplied) alpha.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Decodes any PNG into RGBA8: palette and gray are expanded, missing alpha becomes 255, and
  /// 16-bit samples are scaled to 8 bits with rounding.
  ///
  /// - Parameter maxPixels: images with more pixels are refused before their pixels are allocated.
  public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(PNGError) -> PNGImage {
    let decoded = try decodeRGBA(bytes, bitDepth: 8, maxPixels: maxPixels)
    defer { inkwell_png_free(decoded.pixels) }
    let samples = decoded.pixels.assumingMemoryBound(to: UInt8.self)
    return PNGImage(
      width: Int(decoded.width), height: Int(decoded.height),
      pixels: Array(UnsafeBufferPointer(start: samples, count: decoded.byte_count))
    )
  }
}

/// A decoded image with 16-bit RGBA samples, as stored in the file (no gamma conversion).
public struct PNGImage16: Sendable, Equatable {
  public var width: Int
  public var height: Int
  /// Row-major RGBA, tightly packed, straight alpha, native-endian.
  public var pixels: [UInt16]

  public init(width: Int, height: Int, pixels: [UInt16]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Decodes any PNG into RGBA16: palette and gray are expanded, missing alpha becomes 65535, and
  /// 8-bit samples are scaled exactly (`v * 257`).
  ///
  /// - Parameter maxPixels: images with more pixels are refused before their pixels are allocated.
  public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(PNGError) -> PNGImage16 {
    let decoded = try decodeRGBA(bytes, bitDepth: 16, maxPixels: maxPixels)
    defer { inkwell_png_free(decoded.pixels) }
    let sampleCount = decoded.byte_count / 2
    let samples = decoded.pixels.bindMemory(to: UInt16.self, capacity: sampleCount)
    return PNGImage16(
      width: Int(decoded.width), height: Int(decoded.height),
      pixels: Array(UnsafeBufferPointer(start: samples, count: sampleCount))
    )
  }
}

/// Decodes through the shim; on success the caller owns and frees `pixels`, which is never nil.
private func decodeRGBA(_ bytes: [UInt8], bitDepth: Int32, maxPixels: Int) throws(PNGError) -> (
  width: UInt32, height: UInt32, pixels: UnsafeMutableRawPointer, byte_count: Int
) {
  guard maxPixels >= 0 else {
    throw .invalidRequest("the pixel limit \(maxPixels) is negative")
  }
  var image = inkwell_png_decoded_image()
  let (status, message) = bytes.withUnsafeBufferPointer { bytes in
    callShim { message, capacity in
      inkwell_png_decode(
        bytes.baseAddress, bytes.count, bitDepth, nativeByteOrder, UInt64(maxPixels), &image, message,
        capacity)
    }
  }
  switch status {
  case INKWELL_PNG_OK:
    return (image.width, image.height, image.pixels!, image.byte_count)
  case INKWELL_PNG_TOO_LARGE:
    throw .imageTooLarge(width: Int(image.width), height: Int(image.height), maxPixels: maxPixels)
  case INKWELL_PNG_INVALID_ARGUMENT:
    throw .invalidRequest(message)
  default:
    throw .decodingFailed(message)
  }
}
