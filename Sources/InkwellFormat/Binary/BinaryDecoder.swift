import InkwellModel

/// Reads the binary layout of `BinaryFormat`, validating as it goes.
struct BinaryDecoder {
  let bytes: [UInt8]

  /// The largest element section this reader inflates, in bytes.
  static let maximumInflatedSize = 1 << 30

  private struct Section {
    var tag: String
    var tagBytes: [UInt8]
    var range: Range<Int>
  }

  func decode() throws(DocumentError) -> Document {
    guard BinaryFormat.isBinary(bytes) else {
      throw DocumentError(
        .invalidBinary("not an Inkwell binary document (no magic bytes)"), path: "", byteOffset: 0,
        category: .incorrectFormat)
    }
    var reader = ByteReader(bytes, path: "")
    _ = try reader.skip(BinaryFormat.magic.count)
    let version = try reader.u16()
    let flags = try reader.u16()
    let sections = try self.sections(&reader)
    let thumbnail = sections.first { $0.tag == "THMB" }.map { Array(bytes[$0.range]) }
    guard version >= 1 else {
      throw DocumentError(.invalidVersion("\(version)"), path: "version", byteOffset: 8)
    }
    guard version <= BinaryFormat.version else {
      throw DocumentError(
        .unsupportedVersion(found: Int(version), supported: Int(BinaryFormat.version)), path: "version",
        byteOffset: 8, thumbnailPNG: thumbnail)
    }
    guard flags == 0 else {
      throw DocumentError(.invalidBinary("reserved flags \(flags) are not 0"), path: "flags", byteOffset: 10)
    }
    guard let head = sections.first, head.tag == "HEAD" else {
      throw DocumentError(.invalidBinary("the first section is not HEAD"), path: "", byteOffset: 12)
    }
    guard let last = sections.last, last.tag == "IEND", last.range.isEmpty else {
      throw DocumentError(
        .invalidBinary("the last section is not an empty IEND"), path: "", byteOffset: bytes.count)
    }
    var seen: Set<String> = []
    var preserved: [UnknownFields.Field] = []
    var elementSection: Section?
    for (i, section) in sections.enumerated() {
      let known = ["HEAD", "THMB", "ELEM", "IEND"].contains(section.tag)
      if known {
        guard seen.insert(section.tag).inserted else {
          throw DocumentError(
            .invalidBinary("section \(section.tag) appears twice"), path: section.tag,
            byteOffset: section.range.lowerBound - 8)
        }
        if section.tag == "IEND", i != sections.count - 1 {
          throw DocumentError(
            .invalidBinary("IEND is not the last section"), path: "IEND",
            byteOffset: section.range.lowerBound - 8)
        }
        if section.tag == "ELEM" { elementSection = section }
      } else if BinarySections.isAncillaryTag(section.tagBytes) {
        preserved.append(BinarySections.field(tag: section.tag, bytes: Array(bytes[section.range])))
      } else {
        throw DocumentError(
          .invalidBinary("unknown critical section \"\(section.tag)\""), path: section.tag,
          byteOffset: section.range.lowerBound - 8)
      }
    }
    guard let elementSection else {
      throw DocumentError(.invalidBinary("no ELEM section"), path: "", byteOffset: bytes.count)
    }
    var headReader = ByteReader(bytes, range: head.range, path: "HEAD")
    var document = try self.head(&headReader, thumbnail: thumbnail)
    document.thumbnailPNG = thumbnail
    document.unknownFields.fields += preserved
    document.markup.elements = try elements(elementSection)
    return document
  }

  private func sections(_ reader: inout ByteReader) throws(DocumentError) -> [Section] {
    var sections: [Section] = []
    while !reader.isAtEnd {
      let tagStart = try reader.skip(4)
      let tagBytes = Array(bytes[tagStart..<(tagStart + 4)])
      guard tagBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
        throw DocumentError(.invalidBinary("section tag is not ASCII text"), path: "", byteOffset: tagStart)
      }
      let tag = String(decoding: tagBytes, as: UTF8.self)
      let lengthOffset = reader.index
      let length = try reader.u32()
      guard Int(length) <= reader.remaining else {
        throw DocumentError(
          .countTooLarge(count: UInt64(length), what: "section \(tag) byte", limit: reader.remaining),
          path: tag, byteOffset: lengthOffset)
      }
      let start = try reader.skip(Int(length))
      sections.append(Section(tag: tag, tagBytes: tagBytes, range: start..<(start + Int(length))))
    }
    return sections
  }

  private func head(_ r: inout ByteReader, thumbnail: [UInt8]?) throws(DocumentError) -> Document {
    let versionOffset = r.index
    let contentVersion = try r.varint()
    guard contentVersion >= 1 else {
      throw r.error(.valueOutOfRange(value: "0", allowed: ">= 1"), at: versionOffset, path: ".contentVersion")
    }
    guard contentVersion <= UInt64(FeatureSet.newestContentVersion) else {
      var error = r.error(
        .contentTooNew(
          found: Int(clamping: contentVersion), supported: FeatureSet.newestContentVersion),
        at: versionOffset, path: ".contentVersion")
      error.thumbnailPNG = thumbnail
      throw error
    }
    var bounds: Rect?
    switch try r.u8() {
    case 0: break
    case 1:
      let x = try r.f32("bounds x")
      let y = try r.f32("bounds y")
      let w = try r.f32("bounds width", atLeast: 0)
      let h = try r.f32("bounds height", atLeast: 0)
      bounds = Rect(x: x, y: y, width: w, height: h)
    case let flag: throw r.error(.invalidBinary("bounds flag \(flag) is not 0 or 1"), path: ".bounds")
    }
    var featureSet = FeatureSet.latest
    switch try r.u8() {
    case 0: break
    case 1: featureSet = try self.featureSet(&r, thumbnail: thumbnail)
    case let flag:
      throw r.error(.invalidBinary("feature set flag \(flag) is not 0 or 1"), path: ".featureSet")
    }
    let unknown = try fields(&r, reserved: NativeKeys.document, what: ".unknownFields")
    guard r.isAtEnd else { throw r.error(.invalidBinary("\(r.remaining) unread bytes at the end of HEAD")) }
    return Document(markup: Markup(bounds: bounds, featureSet: featureSet), unknownFields: unknown)
  }

  private func featureSet(_ r: inout ByteReader, thumbnail: [UInt8]?) throws(DocumentError) -> FeatureSet {
    let at = r.index
    let contentVersion = try r.varint()
    guard contentVersion >= 1 else {
      throw r.error(.valueOutOfRange(value: "0", allowed: ">= 1"), at: at, path: ".featureSet.contentVersion")
    }
    guard contentVersion <= UInt64(FeatureSet.newestContentVersion) else {
      var error = r.error(
        .contentTooNew(found: Int(clamping: contentVersion), supported: FeatureSet.newestContentVersion),
        at: at, path: ".featureSet.contentVersion")
      error.thumbnailPNG = thumbnail
      throw error
    }
    func set<T>(_ all: [T], _ what: String) throws(DocumentError) -> [T] {
      let at = r.index
      let bits = try r.varint()
      guard bits >> UInt64(all.count) == 0 else {
        throw r.error(.invalidBinary("unknown \(what) bits in \(bits)"), at: at, path: ".featureSet")
      }
      return all.enumerated().filter { bits & (1 << UInt64($0.offset)) != 0 }.map(\.element)
    }
    let features = try set(FeatureSet.Feature.allCases, "feature")
    let inks = try set(InkType.allCases, "ink")
    let shapes = try set(ShapeType.allCases, "shape")
    let markers = try r.u8()
    guard markers & ~LineMarkerPositions.both.rawValue == 0 else {
      throw r.error(.invalidBinary("unknown line marker bits in \(markers)"), path: ".featureSet")
    }
    let exposure = try r.f32("colorMaximumLinearExposure", atLeast: 1)
    let unknown = try fields(&r, reserved: NativeKeys.featureSet, what: ".featureSet")
    return FeatureSet(
      features: Set(features), inks: Set(inks), shapes: Set(shapes),
      lineMarkerPositions: LineMarkerPositions(rawValue: markers), colorMaximumLinearExposure: exposure,
      contentVersion: Int(contentVersion), unknownFields: unknown)
  }

  private func elements(_ section: Section) throws(DocumentError) -> [MarkupElement] {
    var outer = ByteReader(bytes, range: section.range, path: "ELEM", reportedBase: 0)
    let sizeOffset = outer.index
    let size = try outer.varint()
    let limit = Swift.min(Self.maximumInflatedSize, outer.remaining * 1032 + 64)
    guard size <= UInt64(limit) else {
      throw outer.error(.countTooLarge(count: size, what: "inflated byte", limit: limit), at: sizeOffset)
    }
    let inflated: [UInt8]
    switch Deflate.decompress(bytes[outer.index..<outer.end], expectedSize: Int(size)) {
    case .success(let output): inflated = output
    case .failure(let failure):
      throw outer.error(.decompressionFailed(failure.message))
    }
    var r = ByteReader(inflated, path: "elements")
    let count = try r.count("element", minimumSize: 2)
    var elements: [MarkupElement] = []
    elements.reserveCapacity(count)
    for index in 0..<count {
      let path = "[\(index)]"
      let kind = try r.string("kind")
      if kind == "drawing" {
        let unknown = try fields(&r, reserved: NativeKeys.drawingElement, what: path)
        let strokeCount = try r.count("stroke", minimumSize: 29)
        var strokes: [Stroke] = []
        strokes.reserveCapacity(strokeCount)
        for s in 0..<strokeCount { strokes.append(try stroke(&r, path: "\(path).strokes[\(s)]")) }
        elements.append(.drawing(Drawing(strokes: strokes, unknownFields: unknown)))
      } else {
        elements.append(
          .unknown(UnknownElement(kind: kind, fields: try fields(&r, reserved: ["kind"], what: path))))
      }
    }
    guard r.isAtEnd else { throw r.error(.invalidBinary("\(r.remaining) unread bytes after the elements")) }
    return elements
  }

  private func stroke(_ r: inout ByteReader, path: @autoclosure () -> String) throws(DocumentError) -> Stroke
  {
    let typeOffset = r.index
    let typeName = try r.string("ink type")
    guard let type = InkType(rawValue: typeName) else {
      throw r.error(.unknownInkType(typeName), at: typeOffset, path: path() + ".ink.type")
    }
    var components: [Float] = []
    for name in ["red", "green", "blue", "alpha"] {
      let at = r.index
      let c = try r.f32("color")
      guard c >= 0, c <= 1 else {
        throw r.error(.invalidColor("\(c)"), at: at, path: path() + ".ink.color." + name)
      }
      components.append(c)
    }
    let width = try r.f32("ink width", atLeast: 0)
    let inkFields = try fields(&r, reserved: NativeKeys.ink, what: path() + ".ink")
    var ink = Ink(
      type: type,
      color: Color(red: components[0], green: components[1], blue: components[2], alpha: components[3]),
      width: width, unknownFields: inkFields)
    let flagsOffset = r.index
    let flags = try r.u8()
    guard flags & ~0x1F == 0 else {
      throw r.error(.invalidBinary("unknown stroke flags \(flags)"), at: flagsOffset, path: path())
    }
    if flags & 16 != 0 {
      let spaceOffset = r.index
      let space = Int(try r.u8())
      guard space < ColorSpace.allCases.count else {
        throw r.error(
          .invalidBinary("unknown color space \(space)"), at: spaceOffset, path: path() + ".ink.colorSpace")
      }
      ink.color.colorSpace = ColorSpace.allCases[space]
      ink.color.linearExposure = try r.f32("ink exposure", atLeast: 1)
    }
    var transform = AffineTransform.identity
    if flags & 1 != 0 {
      var n: [Float] = []
      for _ in 0..<6 { n.append(try r.f32("transform")) }
      transform = AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
    }
    let seed = flags & 2 != 0 ? try r.u32() : 0
    var creationDate: Double?
    if flags & 4 != 0 {
      let at = r.index
      let date = Double(bitPattern: try r.u64())
      guard date.isFinite else {
        throw r.error(.numberOutOfRange("\(date)"), at: at, path: path() + ".creationDate")
      }
      creationDate = date
    }
    let mask = flags & 8 != 0 ? try self.mask(&r, path: path() + ".mask") : nil
    let strokeFields = try fields(&r, reserved: NativeKeys.stroke, what: path())
    let fieldsOffset = r.index
    let fieldBits = try r.varint()
    let all = PointField.allCases
    guard fieldBits >> UInt64(all.count) == 0, fieldBits & 3 == 3 else {
      throw r.error(
        .invalidBinary("invalid point field set \(fieldBits)"), at: fieldsOffset, path: path() + ".fields")
    }
    var present: [PointField] = []
    for (k, field) in all.enumerated() where fieldBits & (1 << UInt64(k)) != 0 { present.append(field) }
    let pointCount = try r.count("point", minimumSize: present.count)
    var template = StrokePoint(location: .zero, size: Size(width: width, height: width))
    for field in all { field.set(field.defaultValue(for: ink), in: &template) }
    var points = [StrokePoint](repeating: template, count: pointCount)
    for field in present {
      let columnOffset = r.index
      let column = try ColumnCodec.decode(
        count: pointCount, from: &r, what: path() + ".points." + field.rawValue)
      if field.isNonNegative, let i = column.firstIndex(where: { $0 < 0 }) {
        throw r.error(
          .valueOutOfRange(value: "\(column[i])", allowed: ">= 0 for \(field.rawValue)"), at: columnOffset,
          path: path() + ".points[\(i)]." + field.rawValue)
      }
      points.withUnsafeMutableBufferPointer { points in
        column.withUnsafeBufferPointer { column in
          for i in 0..<pointCount { field.set(column[i], in: &points[i]) }
        }
      }
    }
    return Stroke(
      ink: ink, path: StrokePath(controlPoints: points, creationDate: creationDate), transform: transform,
      randomSeed: seed, mask: mask, unknownFields: strokeFields)
  }

  private func mask(_ r: inout ByteReader, path: @autoclosure () -> String) throws(DocumentError)
    -> StrokeMask
  {
    var clip: [[Point]]?
    switch try r.u8() {
    case 0: break
    case 1:
      let polygonCount = try r.count("clip polygon")
      var polygons: [[Point]] = []
      polygons.reserveCapacity(polygonCount)
      for _ in 0..<polygonCount {
        let n = try r.count("clip point", minimumSize: 8)
        var polygon: [Point] = []
        polygon.reserveCapacity(n)
        for _ in 0..<n { polygon.append(Point(x: try r.f32("clip x"), y: try r.f32("clip y"))) }
        polygons.append(polygon)
      }
      clip = polygons
    case let flag: throw r.error(.invalidBinary("clip flag \(flag) is not 0 or 1"), path: path())
    }
    let ruleCode = try r.u8()
    guard ruleCode < 2 else {
      throw r.error(.invalidBinary("fill rule \(ruleCode) is not 0 or 1"), path: path())
    }
    let sweepCount = try r.count("erasure")
    var erasures: [EraserSweep] = []
    erasures.reserveCapacity(sweepCount)
    for _ in 0..<sweepCount {
      let n = try r.count("erasure point", minimumSize: 12)
      var centers: [Point] = []
      var radii: [Float] = []
      centers.reserveCapacity(n)
      radii.reserveCapacity(n)
      for _ in 0..<n {
        centers.append(Point(x: try r.f32("erasure x"), y: try r.f32("erasure y")))
        radii.append(try r.f32("erasure radius", atLeast: 0))
      }
      erasures.append(EraserSweep(centers: centers, radii: radii))
    }
    let unknown = try fields(&r, reserved: NativeKeys.mask, what: path())
    return StrokeMask(
      clip: clip, fillRule: ruleCode == 0 ? .nonZero : .evenOdd, erasures: erasures, unknownFields: unknown)
  }

  /// Preserved fields: each must be JSON text under a name the format does not use at its level.
  private func fields(
    _ r: inout ByteReader, reserved: [String], what: @autoclosure () -> String
  ) throws(DocumentError) -> UnknownFields {
    let count = try r.count("unknown field", minimumSize: 2)
    guard count > 0 else { return UnknownFields() }
    var fields: [UnknownFields.Field] = []
    var names: Set<String> = []
    for _ in 0..<count {
      let at = r.index
      let name = try r.string("field name")
      let json = try r.data("field value")
      guard !reserved.contains(name), names.insert(name).inserted else {
        throw r.error(.reservedFieldName(name), at: at, path: what())
      }
      guard (try? JSONReader.parse(json)) != nil else {
        throw r.error(.invalidPreservedField(name), at: at, path: what())
      }
      fields.append(UnknownFields.Field(name: name, json: json))
    }
    return UnknownFields(fields)
  }
}
