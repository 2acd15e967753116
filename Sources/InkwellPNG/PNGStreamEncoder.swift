import CInkwellPNG

/// Encodes a PNG band by band: rows go in as they are produced, and the file comes out either in
/// memory (returned by `finish`) or through a sink as libpng produces it.
///
/// Rows are RGBA in memory, 8-bit or native-endian 16-bit samples. Once a call has failed the
/// encoder is spent: later calls throw the same error. Dropping an unfinished encoder frees it.
public final class PNGStreamEncoder {
  /// The layout of the rows given to `writeRows`.
  public enum RowFormat: Sendable {
    /// Four `UInt8` samples per pixel.
    case rgba8
    /// Four native-endian `UInt16` samples per pixel.
    case rgba16
  }

  public let width: Int
  public let height: Int
  public let rowFormat: RowFormat
  /// When false, the fourth sample of each pixel is dropped and RGB is written.
  public let hasAlpha: Bool
  /// Rows accepted so far.
  public private(set) var rowsWritten = 0

  private let header: PNGHeader
  private var encoder: OpaquePointer?
  private let sink: Sink?
  private var failure: PNGError?

  /// Starts an encoder that collects the file in memory.
  public convenience init(
    width: Int, height: Int, rowFormat: RowFormat, hasAlpha: Bool, options: PNGEncoder = PNGEncoder()
  ) throws(PNGError) {
    try self.init(
      width: width, height: height, rowFormat: rowFormat, hasAlpha: hasAlpha, options: options, sink: nil)
  }

  /// Starts an encoder that hands the file to `sink` piece by piece, in order; the signature and
  /// header are written before this returns. If `sink` throws, the encoder stops and the call that
  /// was writing throws `PNGError.sinkFailed` with the sink's error.
  public convenience init(
    width: Int, height: Int, rowFormat: RowFormat, hasAlpha: Bool, options: PNGEncoder = PNGEncoder(),
    sink: @escaping (UnsafeRawBufferPointer) throws -> Void
  ) throws(PNGError) {
    try self.init(
      width: width, height: height, rowFormat: rowFormat, hasAlpha: hasAlpha, options: options,
      sink: Sink(write: sink)
    )
  }

  private init(
    width: Int, height: Int, rowFormat: RowFormat, hasAlpha: Bool, options: PNGEncoder, sink: Sink?
  ) throws(PNGError) {
    let bitDepth = rowFormat == .rgba8 ? 8 : 16
    header = try PNGHeader(width: width, height: height, bitDepth: bitDepth, hasAlpha: hasAlpha)
    self.width = width
    self.height = height
    self.rowFormat = rowFormat
    self.hasAlpha = hasAlpha
    self.sink = sink
    var shimOptions = try options.shimOptions(for: header)
    var started: OpaquePointer? = nil
    let extra = options.serializedChunks
    let (status, message) = extra.withUnsafeBufferPointer { extra in
      shimOptions.extra_chunks = extra.baseAddress
      shimOptions.extra_chunks_size = extra.count
      return callShim { message, capacity in
        if let sink {
          return inkwell_png_encoder_begin_stream(
            &shimOptions, Sink.write, Unmanaged.passUnretained(sink).toOpaque(), &started, message, capacity)
        }
        return inkwell_png_encoder_begin_memory(&shimOptions, &started, message, capacity)
      }
    }
    guard status == INKWELL_PNG_OK else {
      throw error(status: status, message: message)
    }
    encoder = started
  }

  deinit {
    inkwell_png_encoder_abort(encoder)
  }

  /// Encodes `rowCount` rows that start `rowStride` bytes apart.
  public func writeRows(_ rows: UnsafeRawBufferPointer, count rowCount: Int, stride rowStride: Int)
    throws(PNGError)
  {
    let encoder = try usableEncoder()
    guard rowCount >= 0, rowCount <= height - rowsWritten else {
      throw .invalidRequest("\(rowCount) rows given but \(height - rowsWritten) of \(height) remain")
    }
    try header.checkRows(rows, count: rowCount, stride: rowStride)
    guard rowCount > 0 else { return }
    let (status, message) = callShim { message, capacity in
      inkwell_png_encoder_write_rows(encoder, rows.baseAddress, rowCount, rowStride, message, capacity)
    }
    guard status == INKWELL_PNG_OK else {
      let failure = error(status: status, message: message)
      self.failure = failure
      throw failure
    }
    rowsWritten += rowCount
  }

  /// Encodes tightly packed RGBA8 rows; the count must be a whole number of rows.
  public func writeRows(rgba8 rows: [UInt8]) throws(PNGError) {
    guard rowFormat == .rgba8 else {
      throw .invalidRequest("8-bit rows given to a 16-bit encoder")
    }
    try writePackedRows(rows)
  }

  /// Encodes tightly packed RGBA16 rows (native-endian); the count must be a whole number of rows.
  public func writeRows(rgba16 rows: [UInt16]) throws(PNGError) {
    guard rowFormat == .rgba16 else {
      throw .invalidRequest("16-bit rows given to an 8-bit encoder")
    }
    try writePackedRows(rows)
  }

  private func writePackedRows<Sample>(_ rows: [Sample]) throws(PNGError) {
    try withRawBytes(of: rows) { (bytes) throws(PNGError) in
      guard bytes.count % header.rowBytes == 0 else {
        throw .invalidRequest("\(rows.count) samples are not a whole number of \(width)-pixel RGBA rows")
      }
      try writeRows(bytes, count: bytes.count / header.rowBytes, stride: header.rowBytes)
    }
  }

  /// Ends the file once every row has been written. Returns the file for an in-memory encoder, and
  /// an empty array when a sink received it.
  public func finish() throws(PNGError) -> [UInt8] {
    let encoder = try usableEncoder()
    guard rowsWritten == height else {
      throw .invalidRequest("only \(rowsWritten) of \(height) rows were written")
    }
    self.encoder = nil
    var encoded: UnsafeMutablePointer<UInt8>? = nil
    var encodedSize = 0
    let (status, message) = callShim { message, capacity in
      inkwell_png_encoder_finish(encoder, &encoded, &encodedSize, message, capacity)
    }
    defer { inkwell_png_free(encoded) }
    guard status == INKWELL_PNG_OK else {
      let failure = error(status: status, message: message)
      self.failure = failure
      throw failure
    }
    guard let encoded else { return [] }
    return Array(UnsafeBufferPointer(start: encoded, count: encodedSize))
  }

  private func usableEncoder() throws(PNGError) -> OpaquePointer {
    if let failure { throw failure }
    guard let encoder else { throw .invalidRequest("the encoder has already finished") }
    return encoder
  }

  private func error(status: inkwell_png_status, message: String) -> PNGError {
    if status == INKWELL_PNG_SINK_FAILED, let underlying = sink?.error {
      return .sinkFailed(underlying: underlying)
    }
    return PNGError(encodingStatus: status, message: message)
  }

  /// Carries the caller's sink through the C callback's context pointer.
  private final class Sink {
    let write: (UnsafeRawBufferPointer) throws -> Void
    var error: (any Error)?

    init(write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
      self.write = write
    }

    static let write: inkwell_png_write_fn = { context, bytes, count in
      let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
      do {
        try sink.write(UnsafeRawBufferPointer(start: bytes, count: count))
        return 0
      } catch {
        sink.error = error
        return 1
      }
    }
  }
}
