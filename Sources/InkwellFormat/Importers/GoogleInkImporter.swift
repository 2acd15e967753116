import InkwellModel

/// Reads Google Ink's recorded stroke inputs (`ink.proto.IncrementalStrokeInputs`, `.binarypb`), as
/// the Stylus Showcase app records them: one stroke, in stroke-space px with y down.
///
/// The message is a list of incremental inputs, each with a `real` batch (the new measured inputs)
/// and a `predicted` one (the app's motion prediction, not a measurement, ignored). The real
/// batches, concatenated, are the stroke. A batch stores each channel as a `CodedNumericRun`
/// (`offset + scale × running sum of zigzag deltas`); x, y and time are required, pressure, tilt
/// and orientation optional. Time is seconds from the stroke's start; pressure (0…1) is `force`;
/// tilt (0 = upright) becomes altitude = π/2 − tilt; orientation (the tip-to-end direction,
/// clockwise from +x with y down) is the azimuth as Inkwell defines it.
public enum GoogleInkImporter {
  /// A 3 px pen.
  public static let defaultInk = ImportedDocument.pen(width: 3)

  // Field numbers, from ink/storage/proto/*.proto.
  private static let inputsField = 1
  private static let realField = 1
  private enum Channel: Int, CaseIterable {
    case x = 1
    case y, time, pressure, tilt, orientation
  }
  private static let deltasField = 1
  private static let scaleField = 2
  private static let offsetField = 3

  /// - Throws: `DocumentError` with the byte offset of the malformed field.
  public static func load(_ bytes: [UInt8], ink: Ink = defaultInk) throws(DocumentError) -> Document {
    var points: [StrokePoint] = []
    var reader = ProtobufReader(bytes)
    while let field = try next(&reader, bytes) {
      guard field.number == inputsField else { continue }
      let input = try lengthDelimited(field, bytes)
      var inputReader = ProtobufReader(bytes, range: input)
      while let inputField = try next(&inputReader, bytes) {
        guard inputField.number == realField else { continue }
        try appendBatch(try lengthDelimited(inputField, bytes), of: bytes, ink: ink, to: &points)
      }
    }
    if let start = points.first?.timeOffset {
      for i in points.indices { points[i].timeOffset = Swift.max(0, points[i].timeOffset - start) }
    }
    return ImportedDocument.make(strokes: points.isEmpty ? [] : [points], ink: ink)
  }

  private static func appendBatch(
    _ range: Range<Int>, of bytes: [UInt8], ink: Ink, to points: inout [StrokePoint]
  ) throws(DocumentError) {
    var channels: [Channel: [Float]] = [:]
    var channelOffsets: [Channel: Int] = [:]
    var reader = ProtobufReader(bytes, range: range)
    while let field = try next(&reader, bytes) {
      guard let channel = Channel(rawValue: field.number) else { continue }
      channels[channel] = try numericRun(try lengthDelimited(field, bytes), of: bytes, field: field.number)
      channelOffsets[channel] = field.offset
    }
    guard let xs = channels[.x], let ys = channels[.y], let times = channels[.time] else {
      if channels.isEmpty { return }
      let missing = [Channel.x, .y, .time].first { channels[$0] == nil } ?? .x
      throw DocumentError.importFailure(
        .unsupportedContent("a stroke input batch without \(missing) values"), at: range.lowerBound, in: bytes
      )
    }
    for (channel, values) in channels where values.count != xs.count {
      throw DocumentError.importFailure(
        .unsupportedContent("channel \(channel) has \(values.count) values, x has \(xs.count)"),
        at: channelOffsets[channel], in: bytes)
    }
    for i in xs.indices {
      var point = StrokePoint(
        location: Point(x: xs[i], y: ys[i]), timeOffset: times[i],
        size: Size(width: ink.width, height: ink.width))
      if let pressure = channels[.pressure]?[i], pressure >= 0 { point.force = Swift.min(pressure, 1) }
      if let tilt = channels[.tilt]?[i], tilt >= 0 {
        point.altitude = Swift.max(0, .pi / 2 - Swift.min(tilt, .pi / 2))
      }
      if let orientation = channels[.orientation]?[i], orientation >= 0 {
        var azimuth = orientation.truncatingRemainder(dividingBy: 2 * .pi)
        if azimuth < 0 || azimuth >= 2 * .pi { azimuth = 0 }
        point.azimuth = azimuth
      }
      points.append(point)
    }
  }

  /// Decodes a `CodedNumericRun`: `offset + scale × running sum of deltas`, each value a finite
  /// `Float`.
  private static func numericRun(
    _ range: Range<Int>, of bytes: [UInt8], field: Int
  ) throws(DocumentError) -> [Float] {
    var deltas: [Int64] = []
    var scale: Float = 1
    var offset: Float = 0
    var reader = ProtobufReader(bytes, range: range)
    while let runField = try next(&reader, bytes) {
      switch (runField.number, runField.value) {
      case (deltasField, .lengthDelimited(let packed)):
        do {
          deltas += try ProtobufReader.packedVarints(bytes, range: packed).map(ProtobufReader.zigzag)
        } catch {
          throw DocumentError.importFailure(.invalidProtobuf(error), at: runField.offset, in: bytes)
        }
      case (deltasField, .varint(let single)):
        deltas.append(ProtobufReader.zigzag(single))
      case (scaleField, .fixed32(let bits)):
        scale = Float(bitPattern: bits)
      case (offsetField, .fixed32(let bits)):
        offset = Float(bitPattern: bits)
      case (deltasField, _), (scaleField, _), (offsetField, _):
        throw wireTypeFailure(runField, bytes)
      default: continue
      }
    }
    var values: [Float] = []
    values.reserveCapacity(deltas.count)
    var sum: Int64 = 0
    for delta in deltas {
      // sint32 deltas: anything wider is out of range, so the sum cannot overflow 64 bits.
      guard delta >= Int64(Int32.min), delta <= Int64(Int32.max) else {
        throw DocumentError.importFailure(
          .invalidProtobuf(.valueOutOfRange(field: field)), at: range.lowerBound, in: bytes)
      }
      sum += delta
      let value = offset + scale * Float(sum)
      guard value.isFinite else {
        throw DocumentError.importFailure(
          .invalidProtobuf(.valueOutOfRange(field: field)), at: range.lowerBound, in: bytes)
      }
      values.append(value)
    }
    return values
  }

  private static func next(
    _ reader: inout ProtobufReader, _ bytes: [UInt8]
  ) throws(DocumentError) -> ProtobufReader.Field? {
    let offset = reader.offset
    do {
      return try reader.next()
    } catch {
      throw DocumentError.importFailure(.invalidProtobuf(error), at: offset, in: bytes)
    }
  }

  private static func lengthDelimited(
    _ field: ProtobufReader.Field, _ bytes: [UInt8]
  ) throws(DocumentError) -> Range<Int> {
    guard case .lengthDelimited(let range) = field.value else { throw wireTypeFailure(field, bytes) }
    return range
  }

  private static func wireTypeFailure(_ field: ProtobufReader.Field, _ bytes: [UInt8]) -> DocumentError {
    let wireType: UInt8
    switch field.value {
    case .varint: wireType = 0
    case .fixed64: wireType = 1
    case .lengthDelimited: wireType = 2
    case .fixed32: wireType = 5
    }
    return DocumentError.importFailure(
      .invalidProtobuf(.wrongWireType(field: field.number, found: wireType)), at: field.offset, in: bytes)
  }
}
