// PNGBandEncoder: the fast path for 8-bit output.
//
// For a rendered page the encoder costs more than the rasterizer (a 1536 × 2048 page of notes:
// 249 ms in libpng at its defaults, level 6 with adaptive filters, against 172 ms of raster). Two
// changes make it cheaper. First, the image data is deflated in bands of 64 rows, each band by its
// own compressor on whichever thread is free (see CInkwellPNGBands.h for why the bands still form
// one valid zlib stream); band boundaries depend only on the image, so the file is the same for
// every thread count. Second, the default effort trades a little size for speed: the measurements
// behind `Effort` are in docs/performance.md.
//
// libpng still writes the container, so every chunk, length and CRC comes from it.

import CInkwellPNG
import Dispatch

/// Encodes 8-bit RGBA rows as PNG with band-parallel compression.
public struct PNGBandEncoder: Sendable {
  /// Rows per independently compressed band.
  public static let bandHeight = 64

  /// How hard to compress: 1 is fastest, 9 smallest. The default is `defaultEffort`.
  public var effort: Int
  /// Whether to write an `sRGB` chunk (rendering intent perceptual).
  public var writesSRGBChunk: Bool

  public static let defaultEffort = 1

  public init(effort: Int = PNGBandEncoder.defaultEffort, writesSRGBChunk: Bool = true) {
    self.effort = effort
    self.writesSRGBChunk = writesSRGBChunk
  }

  /// zlib level, zlib strategy and row filter for each effort.
  struct Settings {
    var level: Int32
    var strategy: Int32
    var filter: inkwell_png_band_filter
  }

  static func settings(for effort: Int) -> Settings {
    switch effort {
    case ...1: return Settings(level: 1, strategy: 0, filter: INKWELL_PNG_BAND_FILTER_NONE)
    case 2: return Settings(level: 1, strategy: 0, filter: INKWELL_PNG_BAND_FILTER_ADAPTIVE)
    case 3...5: return Settings(level: Int32(effort), strategy: 0, filter: INKWELL_PNG_BAND_FILTER_ADAPTIVE)
    default:
      return Settings(
        level: Int32(Swift.min(effort, 9)), strategy: 0, filter: INKWELL_PNG_BAND_FILTER_ADAPTIVE)
    }
  }

  /// Encodes RGBA8 rows `rowStride` bytes apart (by default `width * 4`) on `threads` threads.
  ///
  /// - Parameter hasAlpha: when false, the fourth byte of each pixel is dropped and RGB is written.
  public func encode(
    rgba8 pixels: UnsafeRawBufferPointer, width: Int, height: Int, hasAlpha: Bool, rowStride: Int? = nil,
    threads: Int = 1
  ) throws(PNGError) -> [UInt8] {
    let header = try PNGHeader(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha)
    let stride = rowStride ?? width * 4
    guard stride >= width * 4, pixels.count >= (height - 1) * stride + width * 4,
      let base = pixels.baseAddress
    else {
      throw .invalidRequest("pixel buffer too small for \(width)×\(height) rows \(stride) bytes apart")
    }
    let settings = Self.settings(for: effort)
    let bandCount = (height + Self.bandHeight - 1) / Self.bandHeight
    let bands = BandResults(count: bandCount)
    defer { bands.release() }
    let source = SendableRawPointer(base: base)
    let options = inkwell_png_band_options(
      width: UInt32(width), input_channels: 4, output_channels: hasAlpha ? 4 : 3, level: settings.level,
      strategy: settings.strategy, filter: settings.filter)
    let workers = Swift.max(1, Swift.min(threads, bandCount))
    let work: @Sendable (Int) -> Void = { worker in
      var band = worker
      while band < bandCount {
        let first = band * Self.bandHeight
        let rows = Swift.min(Self.bandHeight, height - first)
        let start = source.base.advanced(by: first * stride).assumingMemoryBound(to: UInt8.self)
        let above =
          first > 0 ? source.base.advanced(by: (first - 1) * stride).assumingMemoryBound(to: UInt8.self) : nil
        var result = BandResult()
        var options = options
        result.status = inkwell_png_deflate_band(
          &options, start, stride, above, UInt32(rows), band == bandCount - 1 ? 1 : 0, &result.bytes,
          &result.size,
          &result.adler, &result.length)
        bands.store(result, at: band)
        band += workers
      }
    }
    if workers == 1 {
      work(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: workers, execute: work)
    }

    var adler: UInt32 = 1
    for band in 0..<bandCount {
      let result = bands.result(at: band)
      guard result.status == INKWELL_PNG_OK else {
        throw .encodingFailed(
          "deflating rows \(band * Self.bandHeight)… failed (status \(result.status.rawValue))")
      }
      adler = inkwell_png_adler32_combine(adler, result.adler, result.length)
    }
    return try container(header: header, bands: bands, count: bandCount, adler: adler, level: settings.level)
  }

  /// The PNG file: libpng writes the signature, header and chunks; the image data is the zlib
  /// header, the bands' deflate data in order, and the Adler-32 trailer, one IDAT per band.
  private func container(header: PNGHeader, bands: BandResults, count: Int, adler: UInt32, level: Int32)
    throws(PNGError)
    -> [UInt8]
  {
    var options = inkwell_png_encode_options(
      width: UInt32(header.width), height: UInt32(header.height), bit_depth: 8,
      layout: header.hasAlpha ? INKWELL_PNG_LAYOUT_RGBA : INKWELL_PNG_LAYOUT_RGBX,
      byte_order: INKWELL_PNG_BIG_ENDIAN,
      compression_level: level, filter: INKWELL_PNG_FILTER_NONE, write_srgb_chunk: writesSRGBChunk ? 1 : 0)
    var encoder: OpaquePointer?
    let begun = callShim { inkwell_png_encoder_begin_memory(&options, &encoder, $0, $1) }
    guard begun.status == INKWELL_PNG_OK, let encoder else { throw .encodingFailed(begun.message) }
    var finished = false
    defer { if !finished { inkwell_png_encoder_abort(encoder) } }

    // zlib header: deflate with a 32 KiB window, the level class, and the check bits.
    let levelClass: UInt8 = level <= 1 ? 0 : (level <= 5 ? 1 : (level == 6 ? 2 : 3))
    let cmf: UInt8 = 0x78
    var flg: UInt8 = levelClass << 6
    flg += UInt8(31 - (Int(cmf) * 256 + Int(flg)) % 31) % 31
    let trailer: [UInt8] = [
      UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF),
    ]

    for band in 0..<count {
      let result = bands.result(at: band)
      var chunk: [UInt8] = []
      chunk.reserveCapacity(result.size + 6)
      if band == 0 { chunk.append(contentsOf: [cmf, flg]) }
      if let bytes = result.bytes, result.size > 0 {
        chunk.append(contentsOf: UnsafeBufferPointer(start: bytes, count: result.size))
      }
      if band == count - 1 { chunk.append(contentsOf: trailer) }
      let written = chunk.withUnsafeBufferPointer { buffer in
        callShim { inkwell_png_encoder_write_idat(encoder, buffer.baseAddress, buffer.count, $0, $1) }
      }
      guard written.status == INKWELL_PNG_OK else { throw .encodingFailed(written.message) }
    }
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    finished = true
    let end = callShim { inkwell_png_encoder_finish_idat(encoder, &bytes, &size, $0, $1) }
    guard end.status == INKWELL_PNG_OK, let bytes else { throw .encodingFailed(end.message) }
    defer { inkwell_png_free(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: size))
  }
}

private struct SendableRawPointer: @unchecked Sendable {
  let base: UnsafeRawPointer
}

struct BandResult {
  var status = INKWELL_PNG_ENCODER_FAILED
  var bytes: UnsafeMutablePointer<UInt8>?
  var size = 0
  var adler: UInt32 = 0
  var length: UInt64 = 0
}

/// Per-band results, written by the worker that compressed each band (disjoint slots).
private final class BandResults: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<BandResult>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: Swift.max(count, 1))
    slots.initialize(repeating: BandResult(), count: Swift.max(count, 1))
  }

  func store(_ result: BandResult, at index: Int) { slots[index] = result }
  func result(at index: Int) -> BandResult { slots[index] }

  func release() {
    for i in 0..<count { inkwell_png_free(slots[i].bytes) }
    slots.deallocate()
  }
}
