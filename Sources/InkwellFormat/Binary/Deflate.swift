import CZlib

/// zlib (RFC 1950) compression of whole buffers, through the system library.
enum Deflate {
  static func compress(_ input: [UInt8]) -> [UInt8] {
    var capacity = compressBound(uLong(input.count))
    var output = [UInt8](repeating: 0, count: Int(capacity))
    let status = input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        compress2(target.baseAddress, &capacity, source.baseAddress, uLong(source.count), Z_BEST_COMPRESSION)
      }
    }
    precondition(status == Z_OK, "compress2 failed with a buffer of compressBound bytes")
    output.removeSubrange(Int(capacity)...)
    return output
  }

  /// Inflates `input`, which must hold exactly one zlib stream of exactly `expectedSize` bytes.
  /// Returns a description of the problem on failure.
  static func decompress(_ input: ArraySlice<UInt8>, expectedSize: Int) -> Result<[UInt8], DeflateFailure> {
    // One spare byte: a valid destination even for an empty output.
    var output = [UInt8](repeating: 0, count: expectedSize + 1)
    var produced = uLong(expectedSize)
    var consumed = uLong(input.count)
    let status = input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        uncompress2(target.baseAddress, &produced, source.baseAddress, &consumed)
      }
    }
    output.removeLast()
    switch status {
    case Z_OK:
      guard Int(produced) == expectedSize else {
        return .failure(DeflateFailure(message: "inflates to \(produced) bytes, expected \(expectedSize)"))
      }
      guard Int(consumed) == input.count else {
        return .failure(DeflateFailure(message: "\(input.count - Int(consumed)) bytes after the stream"))
      }
      return .success(output)
    case Z_BUF_ERROR where Int(produced) == expectedSize:
      return .failure(DeflateFailure(message: "inflates to more than \(expectedSize) bytes"))
    case Z_BUF_ERROR: return .failure(DeflateFailure(message: "stream ends early"))
    case Z_MEM_ERROR: return .failure(DeflateFailure(message: "out of memory"))
    default: return .failure(DeflateFailure(message: "corrupt stream"))
    }
  }
}

struct DeflateFailure: Error {
  var message: String
}
