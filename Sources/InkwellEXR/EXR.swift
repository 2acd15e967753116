// InkwellEXR: linear-light OpenEXR files through the system OpenEXR library's core C API.
//
// An Inkwell EXR is one scanline part with R, G, B and A channels, premultiplied (the OpenEXR
// convention), linear light with 1.0 = SDR white, ZIP-compressed, in half or 32-bit float. Display
// P3 and BT.2020 images carry a `chromaticities` attribute; sRGB ones leave it out, which OpenEXR
// reads as BT.709 primaries. Half conversion is done here, rounding to nearest even (Swift's
// `Float16`), so the bytes do not depend on the library's build.
//
// The module does not use Foundation.

import CInkwellEXR

/// The sample type of an EXR's channels.
public enum EXRSampleType: String, CaseIterable, Hashable, Sendable {
  /// 16-bit float: 11 significant bits, up to 65504; half the size.
  case half
  /// 32-bit float.
  case float
}

/// Why an EXR could not be written or read. Descriptions are one line.
public enum EXRError: Error, CustomStringConvertible, Hashable, Sendable {
  case invalidRequest(String)
  /// OpenEXR failed; its result code and message.
  case library(code: Int, message: String)
  case imageTooLarge(width: Int, height: Int, maxPixels: Int)

  public var description: String {
    switch self {
    case .invalidRequest(let reason): return "invalid EXR request: \(reason)"
    case .library(let code, let message): return "OpenEXR error \(code): \(message)"
    case .imageTooLarge(let w, let h, let limit):
      return "EXR image is \(w)x\(h), over the limit of \(limit) pixels"
    }
  }
}

/// CIE xy chromaticities of an image's red, green, blue and white.
public struct EXRChromaticities: Hashable, Sendable {
  public var xy: [Float]

  public init(xy: [Float]) {
    self.xy = xy
  }
}

/// A float RGBA image as read from an EXR.
public struct EXRImage: Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// Premultiplied RGBA, 4 floats a pixel.
  public var pixels: [Float]
  public var chromaticities: EXRChromaticities?

  public init(width: Int, height: Int, pixels: [Float], chromaticities: EXRChromaticities? = nil) {
    self.width = width
    self.height = height
    self.pixels = pixels
    self.chromaticities = chromaticities
  }
}

/// Encodes and decodes EXR files in memory.
public enum EXRCodec {
  /// Encodes premultiplied RGBA floats (`width * height * 4`).
  public static func encode(
    rgba pixels: [Float], width: Int, height: Int, sampleType: EXRSampleType,
    chromaticities: EXRChromaticities? = nil
  ) throws(EXRError) -> [UInt8] {
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw .invalidRequest("image size \(width)x\(height) is outside 1...\(Int32.max) per side")
    }
    guard pixels.count == width * height * 4 else {
      throw .invalidRequest(
        "\(pixels.count) samples given; \(width)x\(height) RGBA needs \(width * height * 4)")
    }
    if let c = chromaticities, c.xy.count != 8 {
      throw .invalidRequest("chromaticities need 8 values, got \(c.xy.count)")
    }
    var chroma = inkwell_exr_chromaticities()
    if let c = chromaticities {
      chroma.xy = (c.xy[0], c.xy[1], c.xy[2], c.xy[3], c.xy[4], c.xy[5], c.xy[6], c.xy[7])
    }
    let result: Result<[UInt8], EXRError>
    switch sampleType {
    case .half:
      let halves = pixels.map { Float16($0).bitPattern }
      result = halves.withUnsafeBytes {
        call(
          $0.baseAddress!, width, height, width * 8, INKWELL_EXR_HALF, chromaticities == nil ? nil : chroma)
      }
    case .float:
      result = pixels.withUnsafeBytes {
        call(
          $0.baseAddress!, width, height, width * 16, INKWELL_EXR_FLOAT, chromaticities == nil ? nil : chroma)
      }
    }
    return try result.get()
  }

  private static func call(
    _ base: UnsafeRawPointer, _ width: Int, _ height: Int, _ stride: Int, _ type: inkwell_exr_sample_type,
    _ chroma: inkwell_exr_chromaticities?
  ) -> Result<[UInt8], EXRError> {
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { m in
      if var c = chroma {
        return inkwell_exr_encode(
          base, Int32(width), Int32(height), stride, type, &c, &out, &size, m.baseAddress, m.count)
      }
      return inkwell_exr_encode(
        base, Int32(width), Int32(height), stride, type, nil, &out, &size, m.baseAddress, m.count)
    }
    defer { inkwell_exr_free(out) }
    guard status == 0, let out else {
      return .failure(.library(code: Int(status), message: string(message)))
    }
    return .success(Array(UnsafeBufferPointer(start: out, count: size)))
  }

  private static func string(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes an EXR (single part, scanline) into float RGBA.
  public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(EXRError) -> EXRImage {
    guard maxPixels >= 0 else { throw .invalidRequest("the pixel limit \(maxPixels) is negative") }
    var image = inkwell_exr_image()
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer { b in
      message.withUnsafeMutableBufferPointer { m in
        inkwell_exr_decode(b.baseAddress, b.count, UInt64(maxPixels), &image, m.baseAddress, m.count)
      }
    }
    defer { inkwell_exr_free(image.pixels) }
    guard status == 0, let pixels = image.pixels else {
      if image.width > 0, image.height > 0, image.width * image.height > maxPixels {
        throw .imageTooLarge(width: Int(image.width), height: Int(image.height), maxPixels: maxPixels)
      }
      throw .library(code: Int(status), message: string(message))
    }
    let count = Int(image.width) * Int(image.height) * 4
    var chromaticities: EXRChromaticities? = nil
    if image.has_chromaticities != 0 {
      let c = image.chromaticities.xy
      chromaticities = EXRChromaticities(xy: [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7])
    }
    return EXRImage(
      width: Int(image.width), height: Int(image.height),
      pixels: Array(UnsafeBufferPointer(start: pixels, count: count)), chromaticities: chromaticities)
  }
}
