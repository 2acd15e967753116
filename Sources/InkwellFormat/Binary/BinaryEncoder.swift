import InkwellModel

/// Writes the binary layout of `BinaryFormat`.
enum BinaryEncoder {
  static func encode(_ document: Document) -> [UInt8] {
    var out = ByteWriter()
    out.bytes = BinaryFormat.magic
    out.u16(BinaryFormat.version)
    out.u16(0)
    let (plain, sections) = BinarySections.split(document.unknownFields)
    section("HEAD", head(document, unknownFields: plain), into: &out)
    if let thumbnail = document.thumbnailPNG { section("THMB", thumbnail, into: &out) }
    let elements = self.elements(document.markup.elements)
    var payload = ByteWriter()
    payload.varint(elements.count)
    payload.bytes += Deflate.compress(elements)
    section("ELEM", payload.bytes, into: &out)
    for (tag, bytes) in sections { section(tag, bytes, into: &out) }
    section("IEND", [], into: &out)
    return out.bytes
  }

  private static func section(_ tag: String, _ payload: [UInt8], into out: inout ByteWriter) {
    out.bytes += Array(tag.utf8)
    out.u32(UInt32(payload.count))
    out.bytes += payload
  }

  private static func head(_ document: Document, unknownFields: UnknownFields) -> [UInt8] {
    let markup = document.markup
    var w = ByteWriter()
    w.varint(markup.requiredContentVersion)
    if let b = markup.bounds {
      w.u8(1)
      for v in [b.minX, b.minY, b.width, b.height] { w.f32(v) }
    } else {
      w.u8(0)
    }
    let set = markup.featureSet
    if set == .latest {
      w.u8(0)
    } else {
      w.u8(1)
      w.varint(set.contentVersion)
      w.varint(mask(FeatureSet.Feature.allCases, set.features.contains))
      w.varint(mask(InkType.allCases, set.inks.contains))
      w.varint(mask(ShapeType.allCases, set.shapes.contains))
      w.u8(set.lineMarkerPositions.rawValue)
      w.f32(set.colorMaximumLinearExposure)
      fields(set.unknownFields, into: &w)
    }
    fields(unknownFields, into: &w)
    return w.bytes
  }

  private static func mask<T>(_ all: [T], _ contains: (T) -> Bool) -> UInt64 {
    var bits: UInt64 = 0
    for (i, item) in all.enumerated() where contains(item) { bits |= 1 << UInt64(i) }
    return bits
  }

  private static func elements(_ elements: [MarkupElement]) -> [UInt8] {
    var w = ByteWriter()
    w.varint(elements.count)
    for element in elements {
      w.string(element.kind)
      switch element {
      case .drawing(let drawing):
        fields(drawing.unknownFields, into: &w)
        w.varint(drawing.strokes.count)
        for stroke in drawing.strokes { self.stroke(stroke, into: &w) }
      case .unknown(let unknown):
        fields(unknown.fields, into: &w)
      }
    }
    return w.bytes
  }

  private static func stroke(_ stroke: Stroke, into w: inout ByteWriter) {
    let ink = stroke.ink
    w.string(ink.type.rawValue)
    for c in [ink.color.red, ink.color.green, ink.color.blue, ink.color.alpha, ink.width] { w.f32(c) }
    fields(ink.unknownFields, into: &w)
    var flags: UInt8 = 0
    if !stroke.transform.isIdentity { flags |= 1 }
    if stroke.randomSeed != 0 { flags |= 2 }
    if stroke.path.creationDate != nil { flags |= 4 }
    if stroke.mask != nil { flags |= 8 }
    let hdr = ink.color.colorSpace != .sRGB || ink.color.linearExposure != 1
    if hdr { flags |= 16 }
    w.u8(flags)
    if hdr {
      w.u8(UInt8(ColorSpace.allCases.firstIndex(of: ink.color.colorSpace) ?? 0))
      w.f32(ink.color.linearExposure)
    }
    let t = stroke.transform
    if flags & 1 != 0 { for v in [t.a, t.b, t.c, t.d, t.tx, t.ty] { w.f32(v) } }
    if flags & 2 != 0 { w.u32(stroke.randomSeed) }
    if let date = stroke.path.creationDate { w.u64(date.bitPattern) }
    if let mask = stroke.mask { self.mask(mask, into: &w) }
    fields(stroke.unknownFields, into: &w)
    let points = stroke.path.controlPoints
    let present = PointField.allCases.filter { field in
      if field.isRequired { return true }
      let fallback = field.defaultValue(for: ink)
      return points.contains { field.value(in: $0) != fallback }
    }
    w.varint(mask(PointField.allCases, present.contains))
    w.varint(points.count)
    for field in present { ColumnCodec.encode(points.map { field.value(in: $0) }, into: &w) }
  }

  private static func mask(_ mask: StrokeMask, into w: inout ByteWriter) {
    if let clip = mask.clip {
      w.u8(1)
      w.varint(clip.count)
      for polygon in clip {
        w.varint(polygon.count)
        for p in polygon {
          w.f32(p.x)
          w.f32(p.y)
        }
      }
    } else {
      w.u8(0)
    }
    w.u8(mask.fillRule == .nonZero ? 0 : 1)
    w.varint(mask.erasures.count)
    for sweep in mask.erasures {
      let count = Swift.min(sweep.centers.count, sweep.radii.count)
      w.varint(count)
      for i in 0..<count {
        w.f32(sweep.centers[i].x)
        w.f32(sweep.centers[i].y)
        w.f32(sweep.radii[i])
      }
    }
    fields(mask.unknownFields, into: &w)
  }

  static func fields(_ fields: UnknownFields, into w: inout ByteWriter) {
    w.varint(fields.fields.count)
    for field in fields.fields {
      w.string(field.name)
      w.data(field.json)
    }
  }
}

/// Top-level unknown fields that stand for ancillary binary sections: `section:<tag>` with a base64
/// string, where `tag` is four ASCII letters or digits starting with a lowercase letter.
enum BinarySections {
  static let prefix = "section:"

  /// Splits off the trailing run of section fields (only a trailing run, so that reading the
  /// sections back, after the other fields, restores the order).
  static func split(_ fields: UnknownFields) -> (UnknownFields, [(String, [UInt8])]) {
    var plain = fields.fields
    var sections: [(String, [UInt8])] = []
    while let last = plain.last, let section = section(last) {
      sections.insert(section, at: 0)
      plain.removeLast()
    }
    return (UnknownFields(plain), sections)
  }

  private static func section(_ field: UnknownFields.Field) -> (String, [UInt8])? {
    guard field.name.hasPrefix(prefix) else { return nil }
    let tag = String(field.name.dropFirst(prefix.count))
    guard isAncillaryTag(Array(tag.utf8)),
      case .string(let text)? = (try? JSONReader.parse(field.json))?.content,
      let bytes = Base64.decode(text), bytes.count <= Int(UInt32.max),
      JSONWriter.write(JSONValue(.string(text)), style: .compact) == field.json
    else { return nil }
    return (tag, bytes)
  }

  static func isAncillaryTag(_ tag: [UInt8]) -> Bool {
    guard tag.count == 4, let first = tag.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
    else {
      return false
    }
    return tag.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
    }
  }

  static func field(tag: String, bytes: [UInt8]) -> UnknownFields.Field {
    UnknownFields.Field(
      name: prefix + tag, json: JSONWriter.write(JSONValue(.string(Base64.encode(bytes))), style: .compact))
  }
}
