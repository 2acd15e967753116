// The polygon file (INKOUTL1): a scene's stroke outlines as plain polygons, so that any engine can
// fill exactly what Inkwell fills.
//
// Layout, little-endian: the 8 bytes "INKOUTL1"; u32 width, height, out_width, out_height,
// documents, polygons; u64 vertices; then per polygon f32 r, g, b, a (straight alpha, sRGB-encoded,
// 0…1), u32 document index, u32 vertex count, and that many f32 x, y pairs. The first vertex is not
// repeated: polygons close implicitly. Each polygon is filled non-zero, anti-aliased, source-over,
// onto opaque white; every document is scaled by out_width / width (both axes) onto an
// out_width × out_height image.
//
// One polygon per primitive. Peers fill each polygon as its own path, so a primitive with several
// contours (whose non-zero union must be composited once) cannot become several polygons. It is
// written as one polygon instead: after each contour the path goes back to its first vertex and
// then over to the next contour's first vertex; the last vertex is the first contour's start, and
// the implicit close returns there. Every bridge is crossed once each way, so it adds no winding
// anywhere: the non-zero area is exactly the union. Pen outlines are single contours, so this
// arises only for other brushes; `PolygonFile.Statistics` counts it. Clip and knockout paths cannot
// be expressed and are dropped (counted too); synthetic scenes have none.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A polygon of the file: color, document, vertices in document coordinates.
struct OutlinePolygon {
  /// Straight alpha, sRGB-encoded.
  var red: Float
  var green: Float
  var blue: Float
  var alpha: Float
  var document: UInt32
  /// x, y pairs, back to back.
  var coordinates: [Float]
}

/// What the file records: sizes, and per document the polygons.
struct PolygonScene {
  var width: Int
  var height: Int
  var outWidth: Int
  var outHeight: Int
  var documents: [[OutlinePolygon]]

  /// Document units → output pixels (uniform).
  var scale: Float { Float(outWidth) / Float(width) }

  var polygonCount: Int { documents.reduce(0) { $0 + $1.count } }

  /// Each document's polygons as Inkwell primitives in output pixels, in file order.
  func primitives(document index: Int) -> [Primitive] {
    let scale = self.scale
    return documents[index].map { polygon in
      var points: [Point] = []
      points.reserveCapacity(polygon.coordinates.count / 2)
      var i = 0
      while i + 1 < polygon.coordinates.count {
        points.append(Point(x: polygon.coordinates[i] * scale, y: polygon.coordinates[i + 1] * scale))
        i += 2
      }
      let color = Color(red: polygon.red, green: polygon.green, blue: polygon.blue, alpha: polygon.alpha)
      return Primitive(path: FlatPath(contours: [points]), rule: .nonZero, color: LinearColor(color))
    }
  }
}

/// Why a polygon file could not be read or written.
struct PolygonFileError: Error, CustomStringConvertible {
  let path: String
  let reason: String
  var description: String { "\(path): \(reason)" }
}

enum PolygonFile {
  static let magic: [UInt8] = Array("INKOUTL1".utf8)

  /// What writing a scene had to adapt.
  struct Statistics {
    var polygons = 0
    var vertices = 0
    /// Primitives of several contours written as one bridged polygon.
    var joinedContours = 0
    /// Primitives whose clip or knockout was dropped.
    var droppedMasks = 0
    /// Primitives filled even-odd in Inkwell, written for non-zero.
    var evenOdd = 0
  }

  /// One polygon for `primitive` (output pixels), in document units (divided by `scale`): straight
  /// sRGB color, contours bridged as the head comment describes. `nil` when it has no contour or
  /// no alpha.
  static func polygon(
    of primitive: Primitive, document: Int, scale: Float, statistics: inout Statistics
  ) -> OutlinePolygon? {
    let linear = primitive.color
    guard !primitive.path.isEmpty, linear.alpha > 0 else { return nil }
    func straight(_ premultiplied: Float) -> Float {
      SRGBTransfer.encoded(fromLinear: Swift.min(Swift.max(premultiplied / linear.alpha, 0), 1))
    }
    if primitive.clip != nil || primitive.knockout != nil { statistics.droppedMasks += 1 }
    if primitive.rule != .nonZero { statistics.evenOdd += 1 }
    if primitive.path.contourCount > 1 { statistics.joinedContours += 1 }

    var coordinates: [Float] = []
    coordinates.reserveCapacity(2 * primitive.path.points.count + 4 * primitive.path.contourCount)
    func add(_ point: Point) {
      coordinates.append(point.x / scale)
      coordinates.append(point.y / scale)
    }
    var first: Point?
    primitive.path.forEachContour { contour in
      guard let start = contour.first else { return }
      if first == nil {
        first = start
      } else {
        add(start)  // the bridge from the previous contour's start
      }
      for point in contour { add(point) }
      add(start)  // close this contour explicitly, back to its start
    }
    // The last vertex added closes the last contour; for one contour, drop that repeat (the file's
    // polygons close implicitly). For several, go back to the first contour's start.
    if primitive.path.contourCount == 1 {
      coordinates.removeLast(2)
    } else if let first {
      add(first)
    }
    statistics.polygons += 1
    statistics.vertices += coordinates.count / 2
    return OutlinePolygon(
      red: straight(linear.red), green: straight(linear.green), blue: straight(linear.blue),
      alpha: Swift.min(linear.alpha, 1), document: UInt32(document), coordinates: coordinates)
  }

  static func write(_ scene: PolygonScene, to path: String) throws(PolygonFileError) {
    guard let file = fopen(path, "wb") else {
      throw PolygonFileError(path: path, reason: String(cString: strerror(errno)))
    }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    var ok = true
    func flush() {
      if !buffer.isEmpty {
        ok = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == buffer.count && ok
        buffer.removeAll(keepingCapacity: true)
      }
    }
    func u32(_ value: Int) {
      withUnsafeBytes(of: UInt32(value).littleEndian) { buffer.append(contentsOf: $0) }
    }
    func f32(_ value: Float) {
      withUnsafeBytes(of: value.bitPattern.littleEndian) { buffer.append(contentsOf: $0) }
    }

    let vertices = scene.documents.reduce(0) { $0 + $1.reduce(0) { $0 + $1.coordinates.count / 2 } }
    buffer.append(contentsOf: magic)
    for value in [scene.width, scene.height, scene.outWidth, scene.outHeight, scene.documents.count] {
      u32(value)
    }
    u32(scene.polygonCount)
    withUnsafeBytes(of: UInt64(vertices).littleEndian) { buffer.append(contentsOf: $0) }
    for polygons in scene.documents {
      for polygon in polygons {
        for channel in [polygon.red, polygon.green, polygon.blue, polygon.alpha] { f32(channel) }
        u32(Int(polygon.document))
        u32(polygon.coordinates.count / 2)
        for coordinate in polygon.coordinates { f32(coordinate) }
        if buffer.count > 1 << 20 { flush() }
      }
    }
    flush()
    let closed = fclose(file) == 0
    guard ok, closed else { throw PolygonFileError(path: path, reason: "short write") }
  }

  /// `read(path)`, or nil after printing why not (for the commands that render one file).
  @MainActor
  static func readReportingErrors(_ path: String) -> PolygonScene? {
    do {
      return try read(path)
    } catch {
      print("inkwell-bench: \(error)", to: &standardError)
      return nil
    }
  }

  static func read(_ path: String) throws(PolygonFileError) -> PolygonScene {
    guard let file = fopen(path, "rb") else {
      throw PolygonFileError(path: path, reason: String(cString: strerror(errno)))
    }
    defer { fclose(file) }
    var offset = 0
    func bytes(_ count: Int) throws(PolygonFileError) -> [UInt8] {
      var chunk = [UInt8](repeating: 0, count: count)
      let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
      guard got == count else {
        throw PolygonFileError(path: path, reason: "truncated at byte \(offset + got) (wanted \(count) more)")
      }
      offset += count
      return chunk
    }
    func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
      UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    let header = try bytes(8 + 6 * 4 + 8)
    guard Array(header[0..<8]) == magic else {
      throw PolygonFileError(path: path, reason: "not an INKOUTL1 file")
    }
    let fields = (0..<6).map { Int(u32(header, 8 + 4 * $0)) }
    let (width, height, outWidth, outHeight, documentCount, polygonCount) = (
      fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]
    )
    guard width > 0, height > 0, outWidth > 0, outHeight > 0 else {
      throw PolygonFileError(path: path, reason: "zero size in header")
    }
    var scene = PolygonScene(
      width: width, height: height, outWidth: outWidth, outHeight: outHeight,
      documents: Array(repeating: [], count: documentCount))
    for index in 0..<polygonCount {
      let start = offset
      let head = try bytes(24)
      let channels = (0..<4).map { Float(bitPattern: u32(head, 4 * $0)) }
      let document = Int(u32(head, 16))
      let count = Int(u32(head, 20))
      guard document < documentCount else {
        throw PolygonFileError(
          path: path,
          reason: "polygon \(index) at byte \(start) names document \(document) of \(documentCount)")
      }
      let raw = try bytes(8 * count)
      var coordinates = [Float](repeating: 0, count: 2 * count)
      for i in 0..<(2 * count) { coordinates[i] = Float(bitPattern: u32(raw, 4 * i)) }
      scene.documents[document].append(
        OutlinePolygon(
          red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3],
          document: UInt32(document), coordinates: coordinates))
    }
    return scene
  }
}
