import CZlib

/// gzip through the system zlib, with the limits an importer needs: decompression stops with an
/// error once the output would pass a size limit (a gzip bomb costs at most that much memory), and
/// a stream that ends early is an error rather than a short result.
public enum Gzip {
  /// The decompressed size the importers accept by default: 256 MiB.
  public static let defaultSizeLimit = 256 << 20

  /// Whether `bytes` start with the gzip signature (1f 8b).
  public static func hasSignature(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Decompresses a gzip file (members concatenated one after another are joined).
  /// - Throws: `ImportFailure` `.notGzip`, `.corruptCompressedData`, `.truncatedCompressedData` or
  ///   `.decompressedSizeLimitExceeded`.
  public static func decompress(
    _ bytes: [UInt8], sizeLimit: Int = defaultSizeLimit
  ) throws(ImportFailure) -> [UInt8] {
    guard hasSignature(bytes) else { throw .notGzip }
    return try inflate(bytes, sizeLimit: sizeLimit, stopAtLimit: false)
  }

  /// Up to `count` bytes of the decompressed data, for sniffing a format; `nil` when the data is
  /// not gzip or is damaged before that.
  public static func decompressedPrefix(_ bytes: [UInt8], count: Int) -> [UInt8]? {
    guard hasSignature(bytes) else { return nil }
    return try? inflate(bytes, sizeLimit: count, stopAtLimit: true)
  }

  /// gzip-compresses `bytes` (zlib's default level).
  public static func compress(_ bytes: [UInt8]) -> [UInt8] {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      deflateEnd(stream)
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    guard
      deflateInit2_(
        stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return [] }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var input = bytes
    input.withUnsafeMutableBufferPointer { inputBuffer in
      stream.pointee.next_in = inputBuffer.baseAddress
      stream.pointee.avail_in = UInt32(inputBuffer.count)
      var status = Z_OK
      while status == Z_OK {
        chunk.withUnsafeMutableBufferPointer { chunkBuffer in
          stream.pointee.next_out = chunkBuffer.baseAddress
          stream.pointee.avail_out = UInt32(chunkBuffer.count)
          status = deflate(stream, Z_FINISH)
          output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - Int(stream.pointee.avail_out))])
        }
      }
    }
    return output
  }

  private static func inflate(
    _ bytes: [UInt8], sizeLimit: Int, stopAtLimit: Bool
  ) throws(ImportFailure) -> [UInt8] {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      inflateEnd(stream)
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    // 15 + 16: a 32 KiB window, gzip header and trailer.
    guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw .corruptCompressedData("zlib could not start")
    }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var input = bytes
    var failure: ImportFailure?
    input.withUnsafeMutableBufferPointer { inputBuffer in
      guard let base = inputBuffer.baseAddress else { return }
      stream.pointee.next_in = base
      stream.pointee.avail_in = UInt32(clamping: inputBuffer.count)
      var consumedBefore = 0
      while true {
        let room = Swift.min(chunk.count, sizeLimit - output.count + 1)
        var status = Z_OK
        var produced = 0
        chunk.withUnsafeMutableBufferPointer { chunkBuffer in
          stream.pointee.next_out = chunkBuffer.baseAddress
          stream.pointee.avail_out = UInt32(room)
          status = CZlib.inflate(stream, Z_NO_FLUSH)
          produced = room - Int(stream.pointee.avail_out)
        }
        if output.count + produced > sizeLimit {
          if stopAtLimit {
            output.append(contentsOf: chunk[0..<(sizeLimit - output.count)])
          } else {
            failure = .decompressedSizeLimitExceeded(limit: sizeLimit)
          }
          return
        }
        output.append(contentsOf: chunk[0..<produced])
        let consumed = inputBuffer.count - Int(stream.pointee.avail_in)
        switch status {
        case Z_OK:
          // Inputs past 4 GiB are fed in further slices of at most UInt32.max bytes.
          if stream.pointee.avail_in == 0, consumed < inputBuffer.count {
            stream.pointee.next_in = base + consumed
            stream.pointee.avail_in = UInt32(clamping: inputBuffer.count - consumed)
          }
          consumedBefore = consumed
        case Z_STREAM_END:
          let rest = inputBuffer.count - consumed
          if rest == 0 { return }
          guard rest >= 2, base[consumed] == 0x1F, base[consumed + 1] == 0x8B else {
            failure = .corruptCompressedData("data after the end of the gzip stream")
            return
          }
          inflateReset(stream)
        case Z_BUF_ERROR:
          // No progress possible: the input ran out before the end of the stream.
          if consumed == inputBuffer.count || consumed == consumedBefore, produced == 0 {
            failure = .truncatedCompressedData
            return
          }
          consumedBefore = consumed
        default:
          let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
          failure = .corruptCompressedData(detail)
          return
        }
      }
    }
    if let failure { throw failure }
    if input.isEmpty { throw .truncatedCompressedData }
    return output
  }
}
