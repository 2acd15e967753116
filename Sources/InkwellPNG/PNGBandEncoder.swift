// PNGBandEncoder: the fast path for 8-bit output.
//
// For a rendered page the encoder costs more than the rasterizer (a 1536 × 2048 page of notes:
// 249 ms in libpng at its defaults, level 6 with adaptive filters, against 172 ms of raster). Two
// changes make it cheaper. First, the image data is deflated in bands of 64 rows, each band by its
// own compressor on whichever thread is free (see CInkwellPNGBands.h for why the bands still form
// one valid zlib stream); band boundaries depend only on the image, so the file is the same for
// every thread count. Second, the default effort trades a little size for speed, on colorful pages
// only: on pages of strokes it is also smaller than libpng's defaults (docs/performance.md, "PNG
// encoding", has the measurements behind each effort). A third makes a thumbnail smaller too: an
// image of at most 256 colors (and at most `palettePixelLimit` pixels) is written with a palette,
// one byte a pixel deflated with zlib's run-length strategy (a thumbnail of handwriting: 0.6× the
// bytes, 0.8× the encode time); one pass over the pixels decides, stopping at the 257th color.
//
// libpng still writes the container, so every chunk, length and CRC comes from it.

import CInkwellPNG
import CInkwellThreads
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

  /// Effort 1 deflates unfiltered rows at zlib level 1. From effort 2 each band is deflated at
  /// zlib level `effort` (at most 9) both unfiltered and with adaptive row filters, and keeps the
  /// smaller: adaptive filters alone made pages of handwriting larger than effort 1 did (notes
  /// at effort 9: 978 against 861 KB), while colorful pages need them (sketch: 5.9 against 7.2 MB).
  /// A palette image at effort 1 takes zlib's run-length strategy (`Z_RLE`): a pixel is one
  /// byte there, so runs of paper and of solid ink are runs of one byte.
  static func settings(for effort: Int, indexed: Bool = false) -> Settings {
    switch effort {
    case ...1:
      return Settings(level: 1, strategy: indexed ? 3 : 0, filter: INKWELL_PNG_BAND_FILTER_NONE)
    default:
      return Settings(
        level: Int32(Swift.min(effort, 9)), strategy: 0, filter: INKWELL_PNG_BAND_FILTER_SMALLER)
    }
  }

  /// Encodes RGBA8 rows `rowStride` bytes apart (by default `width * 4`) on `threads` threads.
  ///
  /// - Parameter hasAlpha: when false, the fourth byte of each pixel is dropped and RGB is written.
  public func encode(
    rgba8 pixels: UnsafeRawBufferPointer, width: Int, height: Int, hasAlpha: Bool, rowStride: Int? = nil,
    threads: Int = 1
  ) throws(PNGError) -> [UInt8] {
    let stride = rowStride ?? width * 4
    guard width > 0, height > 0, stride >= width * 4, pixels.count >= (height - 1) * stride + width * 4 else {
      throw .invalidRequest("pixel buffer too small for \(width)×\(height) rows \(stride) bytes apart")
    }
    var file: [UInt8] = []
    let sink: ([UInt8]) throws -> Void = { file.append(contentsOf: $0) }
    if let indexed = Self.indexedColors(
      pixels, width: width, height: height, rowStride: stride, hasAlpha: hasAlpha)
    {
      let stream = try PNGBandStream(
        width: width, height: height, palette: indexed.palette, encoder: self, threads: threads, sink: sink)
      let written: Result<Void, PNGError> = indexed.indices.withUnsafeBytes { rows in
        Result { () throws(PNGError) in try stream.write(rows: rows, count: height, rowStride: width) }
      }
      try written.get()
      try stream.finish()
      return file
    }
    let stream = try PNGBandStream(
      width: width, height: height, hasAlpha: hasAlpha, encoder: self, threads: threads, sink: sink)
    try stream.write(rows: pixels, count: height, rowStride: stride)
    try stream.finish()
    return file
  }

  /// Images of at most this many pixels (1024 × 1024) are written with a palette when they have
  /// at most 256 colors; `Document.writePNG` holds such an image whole, where it streams larger
  /// ones band by band. Thumbnails and screen-size pages are where palettes fit: a dithered page
  /// at full size nearly always has more colors (notes at 1536 × 2048 has its 257th on row 88),
  /// and holding it whole raised `inkwell render`'s peak by 10–26 MiB on the 3–4 MP scenes.
  public static let palettePixelLimit = 1 << 20

  /// Whether `encode` looks for a palette in a `width` × `height` image.
  public static func triesPalette(width: Int, height: Int) -> Bool {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    return !overflow && pixels <= palettePixelLimit
  }

  /// The image's palette (four bytes an entry, in order of first appearance) and each pixel's
  /// index, `width` a row; `nil` when it has more than 256 colors or is too large to try.
  static func indexedColors(
    _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int, hasAlpha: Bool
  ) -> (palette: [UInt8], indices: [UInt8])? {
    guard triesPalette(width: width, height: height), let base = pixels.baseAddress else { return nil }
    var palette = [UInt8](repeating: 0, count: 256 * 4)
    var entries: Int32 = 0
    let indices = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, initialized in
      entries = palette.withUnsafeMutableBufferPointer { palette in
        inkwell_png_index_colors(
          base.assumingMemoryBound(to: UInt8.self), rowStride, UInt32(width), UInt32(height),
          hasAlpha ? 1 : 0,
          buffer.baseAddress, palette.baseAddress)
      }
      initialized = entries > 0 ? width * height : 0
    }
    guard entries > 0 else { return nil }
    return (Array(palette[0..<(Int(entries) * 4)]), indices)
  }
}

/// A PNG written band by band as the rows arrive, for images too large to hold whole: each call
/// compresses its rows in 64-row bands (in parallel) and passes the finished chunks to the sink.
/// The bytes are the same as `PNGBandEncoder.encode` writes for the whole image.
public final class PNGBandStream {
  public let width: Int
  public let height: Int
  public let hasAlpha: Bool
  /// Whether the rows are palette indices, one byte a pixel, rather than RGBA8.
  let isIndexed: Bool
  private var bytesPerPixel: Int { isIndexed ? 1 : 4 }
  public private(set) var rowsWritten = 0
  private let settings: PNGBandEncoder.Settings
  private let threads: Int
  private let sink: ([UInt8]) throws -> Void
  private var encoder: OpaquePointer?
  private var pending: [UInt8] = []
  private var sinkError: (any Error)?
  private var adler: UInt32 = 1
  private var lastRow: [UInt8] = []
  private var wroteZlibHeader = false

  /// Starts the file: signature, header and ancillary chunks go to `sink` at once.
  public convenience init(
    width: Int, height: Int, hasAlpha: Bool, encoder options: PNGBandEncoder = PNGBandEncoder(),
    threads: Int = 1,
    sink: @escaping ([UInt8]) throws -> Void
  ) throws(PNGError) {
    try self.init(
      width: width, height: height, hasAlpha: hasAlpha, palette: nil, encoder: options, threads: threads,
      sink: sink)
  }

  /// A palette image: each row holds `width` indices into `palette` (four bytes an entry, R, G,
  /// B, A; 1 ... 256 entries).
  convenience init(
    width: Int, height: Int, palette: [UInt8], encoder options: PNGBandEncoder = PNGBandEncoder(),
    threads: Int = 1, sink: @escaping ([UInt8]) throws -> Void
  ) throws(PNGError) {
    guard palette.count % 4 == 0, (1...256).contains(palette.count / 4) else {
      throw .invalidRequest("a palette holds 1...256 entries of four bytes")
    }
    let translucent = stride(from: 3, to: palette.count, by: 4).contains { palette[$0] != 255 }
    try self.init(
      width: width, height: height, hasAlpha: translucent, palette: palette, encoder: options,
      threads: threads, sink: sink)
  }

  private init(
    width: Int, height: Int, hasAlpha: Bool, palette: [UInt8]?, encoder options: PNGBandEncoder,
    threads: Int, sink: @escaping ([UInt8]) throws -> Void
  ) throws(PNGError) {
    let header = try PNGHeader(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha)
    self.width = width
    self.height = height
    self.hasAlpha = hasAlpha
    self.isIndexed = palette != nil
    self.settings = PNGBandEncoder.settings(for: options.effort, indexed: palette != nil)
    self.threads = Swift.max(1, threads)
    self.sink = sink
    let layout =
      palette != nil
      ? INKWELL_PNG_LAYOUT_INDEXED : (hasAlpha ? INKWELL_PNG_LAYOUT_RGBA : INKWELL_PNG_LAYOUT_RGBX)
    let context = Unmanaged.passUnretained(self).toOpaque()
    var created: OpaquePointer?
    let begun = (palette ?? []).withUnsafeBufferPointer { entries in
      var c = inkwell_png_encode_options(
        width: UInt32(header.width), height: UInt32(header.height), bit_depth: 8, layout: layout,
        byte_order: INKWELL_PNG_BIG_ENDIAN,
        compression_level: settings.level, filter: INKWELL_PNG_FILTER_NONE,
        write_srgb_chunk: options.writesSRGBChunk ? 1 : 0, extra_chunks: nil, extra_chunks_size: 0,
        palette: palette == nil ? nil : entries.baseAddress, palette_entries: Int32(entries.count / 4))
      return callShim { inkwell_png_encoder_begin_stream(&c, pngStreamWrite, context, &created, $0, $1) }
    }
    guard begun.status == INKWELL_PNG_OK, let created else { throw .encodingFailed(begun.message) }
    encoder = created
    try flush()
  }

  deinit {
    if let encoder { inkwell_png_encoder_abort(encoder) }
  }

  fileprivate func receive(_ bytes: UnsafeBufferPointer<UInt8>) {
    pending.append(contentsOf: bytes)
  }

  private func flush() throws(PNGError) {
    guard !pending.isEmpty else { return }
    let bytes = pending
    pending.removeAll(keepingCapacity: true)
    do {
      try sink(bytes)
    } catch {
      abandon()
      throw .sinkFailed(underlying: error)
    }
  }

  private func abandon() {
    if let encoder { inkwell_png_encoder_abort(encoder) }
    encoder = nil
  }

  /// Compresses and writes the next `count` rows (RGBA8, `rowStride` bytes apart). Every call but
  /// the last must pass a multiple of `PNGBandEncoder.bandHeight` rows, so band boundaries depend
  /// on the image alone.
  public func write(rows pixels: UnsafeRawBufferPointer, count: Int, rowStride: Int) throws(PNGError) {
    guard let encoder else { throw .invalidRequest("the stream has already failed or finished") }
    let bandHeight = PNGBandEncoder.bandHeight
    let rowBytes = width * bytesPerPixel
    guard count > 0, rowsWritten + count <= height, rowStride >= rowBytes,
      pixels.count >= (count - 1) * rowStride + rowBytes, let base = pixels.baseAddress
    else { throw .invalidRequest("rows do not fit the image or the buffer") }
    guard count % bandHeight == 0 || rowsWritten + count == height else {
      throw .invalidRequest("only the last rows may be fewer than a multiple of \(bandHeight)")
    }
    let bandCount = (count + bandHeight - 1) / bandHeight
    let bands = BandResults(count: bandCount)
    defer { bands.release() }
    let source = SendableRawPointer(base: base)
    let previous = lastRow
    let finalRows = rowsWritten + count == height
    let options = inkwell_png_band_options(
      width: UInt32(width), input_channels: Int32(bytesPerPixel),
      output_channels: isIndexed ? 1 : (hasAlpha ? 4 : 3), level: settings.level,
      strategy: settings.strategy, filter: settings.filter)
    let workers = Swift.max(1, Swift.min(threads, bandCount))
    previous.withUnsafeBufferPointer { previousRow in
      let above = SendableRawPointer(
        base: UnsafeRawPointer(previousRow.baseAddress ?? UnsafePointer(bitPattern: 1)!))
      let hasAbove = !previousRow.isEmpty
      // Workers that share a processor move apart as they start, and the first makes way for any
      // not yet started (see CInkwellThreads).
      let spread = workers > 1 ? inkwell_spread_create(Int32(workers)) : nil
      defer { inkwell_spread_destroy(spread) }
      let record = spread.map { SendableRawPointer(base: UnsafeRawPointer($0)) }
      let work: @Sendable (Int) -> Void = { worker in
        if let record { _ = inkwell_spread_join(OpaquePointer(record.base)) }
        var band = worker
        while band < bandCount {
          let first = band * bandHeight
          let rows = Swift.min(bandHeight, count - first)
          let start = source.base.advanced(by: first * rowStride).assumingMemoryBound(to: UInt8.self)
          let up: UnsafePointer<UInt8>? =
            first > 0
            ? source.base.advanced(by: (first - 1) * rowStride).assumingMemoryBound(to: UInt8.self)
            : (hasAbove ? above.base.assumingMemoryBound(to: UInt8.self) : nil)
          var result = BandResult()
          var options = options
          result.status = inkwell_png_deflate_band(
            &options, start, rowStride, up, UInt32(rows), finalRows && band == bandCount - 1 ? 1 : 0,
            &result.bytes, &result.size, &result.adler, &result.length)
          bands.store(result, at: band)
          band += workers
        }
      }
      if workers == 1 {
        work(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: workers, execute: work)
      }
    }

    for band in 0..<bandCount {
      let result = bands.result(at: band)
      guard result.status == INKWELL_PNG_OK else {
        abandon()
        throw .encodingFailed(
          "deflating rows \(rowsWritten + band * bandHeight)… failed (status \(result.status.rawValue))")
      }
      adler = inkwell_png_adler32_combine(adler, result.adler, result.length)
      var chunk: [UInt8] = []
      chunk.reserveCapacity(result.size + 6)
      if !wroteZlibHeader {
        // zlib header: deflate with a 32 KiB window, the level class, and the check bits.
        let level = settings.level
        let levelClass: UInt8 = level <= 1 ? 0 : (level <= 5 ? 1 : (level == 6 ? 2 : 3))
        let cmf: UInt8 = 0x78
        var flg: UInt8 = levelClass << 6
        flg += UInt8(31 - (Int(cmf) * 256 + Int(flg)) % 31) % 31
        chunk.append(contentsOf: [cmf, flg])
        wroteZlibHeader = true
      }
      if let bytes = result.bytes, result.size > 0 {
        chunk.append(contentsOf: UnsafeBufferPointer(start: bytes, count: result.size))
      }
      if finalRows && band == bandCount - 1 {
        chunk.append(contentsOf: [
          UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF),
        ])
      }
      let written = chunk.withUnsafeBufferPointer { buffer in
        callShim { inkwell_png_encoder_write_idat(encoder, buffer.baseAddress, buffer.count, $0, $1) }
      }
      guard written.status == INKWELL_PNG_OK else {
        abandon()
        throw .encodingFailed(written.message)
      }
      try flush()
    }
    lastRow = Array(UnsafeRawBufferPointer(start: base + (count - 1) * rowStride, count: rowBytes))
    rowsWritten += count
  }

  /// Ends the file (IEND) once every row has been written.
  public func finish() throws(PNGError) {
    guard let encoder else { throw .invalidRequest("the stream has already failed or finished") }
    guard rowsWritten == height else {
      abandon()
      throw .invalidRequest("only \(rowsWritten) of \(height) rows were written")
    }
    self.encoder = nil
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    let end = callShim { inkwell_png_encoder_finish_idat(encoder, &bytes, &size, $0, $1) }
    guard end.status == INKWELL_PNG_OK else { throw .encodingFailed(end.message) }
    try flush()
  }
}

/// The shim's write callback: collects bytes for the stream to hand to its sink.
private let pngStreamWrite: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32 = {
  context, bytes, count in
  guard let context, let bytes else { return count == 0 ? 0 : 1 }
  Unmanaged<PNGBandStream>.fromOpaque(context).takeUnretainedValue().receive(
    UnsafeBufferPointer(start: bytes, count: count))
  return 0
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
