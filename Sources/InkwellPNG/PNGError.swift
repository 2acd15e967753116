import CInkwellPNG

/// Why a PNG could not be encoded or decoded. Descriptions are one line.
public enum PNGError: Error, CustomStringConvertible {
  /// The request itself was wrong: bad dimensions, buffer sizes, options or call order.
  case invalidRequest(String)
  /// libpng (or memory) failed while writing; the message is libpng's.
  case encodingFailed(String)
  /// The bytes are not a valid PNG, or are truncated; the message is libpng's.
  case decodingFailed(String)
  /// The image has more pixels than the caller allowed; nothing was allocated for it.
  case imageTooLarge(width: Int, height: Int, maxPixels: Int)
  /// The sink of a streaming encoder threw; the encoder stopped.
  case sinkFailed(underlying: any Error)

  public var description: String {
    switch self {
    case .invalidRequest(let reason):
      return "invalid PNG request: \(reason)"
    case .encodingFailed(let message):
      return "PNG encoding failed: \(message)"
    case .decodingFailed(let message):
      return "PNG decoding failed: \(message)"
    case .imageTooLarge(let width, let height, let maxPixels):
      return "PNG image is \(width)x\(height), over the limit of \(maxPixels) pixels"
    case .sinkFailed(let underlying):
      return "PNG output failed: \(underlying)"
    }
  }
}
