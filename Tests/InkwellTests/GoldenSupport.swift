// Golden images: each case is a scene under golden/<suite>/ with its reference PNG beside it.
//
// golden/manifest.json lists the cases with their expected size, per-channel tolerance (8-bit
// levels) and the reason the case exists. A scene is either a document (`<case>.inkwell.json`,
// rendered at scale 1 on its canvas) or a fill scene (`<case>.fill.json`: polygons, fill rules and
// colors, rendered straight through the rasterizer).
//
// Setting INKWELL_RECORD_GOLDEN=1 writes the rendered image as the new reference and still fails
// the case, so a person looks at it before it is committed. On a mismatch the test writes a
// three-panel image, expected | difference | actual, to .build/golden-diffs/<suite>/<case>.png
// (difference: red beyond the tolerance, grey within it, black where equal).

import Inkwell

#if canImport(Glibc)
  import Glibc
#endif

enum Golden {
  /// The repository root, found from this file's path.
  static let root: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }()

  static var goldenDirectory: String { root + "/golden" }
  static var diffDirectory: String { root + "/.build/golden-diffs" }
  static var recording: Bool { getenv("INKWELL_RECORD_GOLDEN").map { String(cString: $0) == "1" } ?? false }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var width: Int
    var height: Int
    var tolerance: Int
    var reason: String
    var description: String { name }
  }

  static func read(_ path: String) throws -> [UInt8] { try readInput(path, maxBytes: 64 << 20) }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  static func makeDirectories(for file: String) {
    var path = ""
    for part in file.split(separator: "/").dropLast() {
      path += "/" + part
      mkdir(path, 0o755)
    }
  }

  /// The cases listed in golden/manifest.json; empty when it cannot be read (a test reports that).
  static let cases: [Case] = (try? loadManifest()) ?? []

  static func loadManifest() throws -> [Case] {
    let root = try JSONReader.parse(read(goldenDirectory + "/manifest.json"))
    guard let list = root["cases"]?.arrayValue else { throw GoldenError("manifest has no 'cases' array") }
    return try list.map { item in
      guard let name = item["name"]?.stringValue,
        let size = item["size"]?.arrayValue, size.count == 2,
        let w = size[0].intValue, let h = size[1].intValue,
        let tolerance = item["tolerance"]?.intValue,
        let reason = item["reason"]?.stringValue
      else { throw GoldenError("malformed manifest entry at byte \(item.offset)") }
      return Case(name: name, width: w, height: h, tolerance: tolerance, reason: reason)
    }
  }

  /// Renders a case's scene on `threads` threads.
  static func render(_ c: Case, threads: Int = 1) throws -> RGBA8Image {
    let base = goldenDirectory + "/" + c.name
    if exists(base + ".inkwell.json") {
      let document = try NativeFormat.decode(read(base + ".inkwell.json"))
      return try document.render(RenderOptions(threads: threads), inks: inks(for: c))
    }
    if exists(base + ".fill.json") {
      return try FillScene(json: JSONReader.parse(read(base + ".fill.json"))).render(threads: threads)
    }
    throw GoldenError("no scene for \(c.name) (.inkwell.json or .fill.json)")
  }

  /// The ink catalog a case renders with: the built-in inks, except in `ink-stamp/`, where the
  /// example custom ink (StampInk) draws the monoline strokes, as an app registering it would.
  static func inks(for c: Case) -> InkCatalog {
    var catalog = InkCatalog()
    if c.name.hasPrefix("ink-stamp/") { catalog.register(StampInk(), for: .monoline) }
    return catalog
  }

  /// Compares `actual` with the case's reference; returns a failure message or `nil`.
  static func check(_ c: Case, _ actual: RGBA8Image) throws -> String? {
    let referencePath = goldenDirectory + "/" + c.name + ".png"
    if recording {
      try writeOutput(actual.pngData(), to: referencePath)
      return "recorded \(referencePath): look at it, then rerun without INKWELL_RECORD_GOLDEN"
    }
    guard exists(referencePath) else {
      return "no reference \(referencePath); record one with INKWELL_RECORD_GOLDEN=1 and review it"
    }
    let expected = try PNGImage.decode(read(referencePath), maxPixels: 1 << 26)
    guard expected.width == actual.width, expected.height == actual.height else {
      return
        "size \(actual.width)×\(actual.height) differs from the reference's \(expected.width)×\(expected.height)"
    }
    var worst = 0
    var over = 0
    var mask = [UInt8](repeating: 0, count: actual.pixels.count)
    for p in stride(from: 0, to: actual.pixels.count, by: 4) {
      var d = 0
      for k in 0..<4 { d = max(d, abs(Int(actual.pixels[p + k]) - Int(expected.pixels[p + k]))) }
      worst = max(worst, d)
      let shade: (UInt8, UInt8, UInt8) = d > c.tolerance ? (255, 0, 0) : (d > 0 ? (96, 96, 96) : (0, 0, 0))
      if d > c.tolerance { over += 1 }
      (mask[p], mask[p + 1], mask[p + 2], mask[p + 3]) = (shade.0, shade.1, shade.2, 255)
    }
    guard over > 0 else { return nil }
    let diffPath = diffDirectory + "/" + c.name + ".png"
    makeDirectories(for: diffPath)
    try writeOutput(
      threePanel(expected.pixels, mask, actual.pixels, width: actual.width, height: actual.height).pngData(),
      to: diffPath)
    return "\(over) pixels differ by more than \(c.tolerance) (worst \(worst)); see \(diffPath)"
  }

  static func threePanel(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8], width: Int, height: Int) -> RGBA8Image {
    let gap = 4
    let total = width * 3 + gap * 2
    var pixels = [UInt8](repeating: 255, count: total * height * 4)
    for (index, panel) in [a, b, c].enumerated() {
      let x0 = index * (width + gap)
      for y in 0..<height {
        for x in 0..<width {
          let s = (y * width + x) * 4
          let d = (y * total + x0 + x) * 4
          for k in 0..<4 { pixels[d + k] = panel[s + k] }
        }
      }
    }
    return RGBA8Image(width: total, height: height, pixels: pixels)
  }
}

struct GoldenError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Polygons to fill, straight through the rasterizer: `{"width", "height", "background",
/// "fills": [{"rule": "nonzero"|"evenodd", "color": "#rrggbb[aa]", "contours": [[x, y, x, y, …], …]}]}`.
struct FillScene {
  var width: Int
  var height: Int
  var background: Color
  var primitives: [Primitive]

  init(json: JSONValue) throws {
    guard let w = json["width"]?.intValue, let h = json["height"]?.intValue else {
      throw GoldenError("fill scene needs width and height")
    }
    width = w
    height = h
    background = json["background"]?.stringValue.flatMap { Color(parsing: $0) } ?? .white
    primitives = try (json["fills"]?.arrayValue ?? []).map { fill in
      guard let ruleName = fill["rule"]?.stringValue, let colorText = fill["color"]?.stringValue,
        let color = Color(parsing: colorText), let contours = fill["contours"]?.arrayValue
      else { throw GoldenError("malformed fill at byte \(fill.offset)") }
      let rule: FillRule = ruleName == "evenodd" ? .evenOdd : .nonZero
      let polygons = try contours.map { contour -> [Point] in
        let numbers = try (contour.arrayValue ?? []).map { v -> Float in
          guard let f = v.floatValue else { throw GoldenError("non-number at byte \(v.offset)") }
          return f
        }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) }
      }
      return Primitive(path: FlatPath(contours: polygons), rule: rule, color: LinearColor(color))
    }
  }

  func render(threads: Int) -> RGBA8Image {
    Renderer(threads: threads).render(primitives, width: width, height: height, background: background)
  }
}

extension JSONValue {
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = content else { return nil }
    return members.last { $0.key == key }?.value
  }
  var arrayValue: [JSONValue]? {
    if case .array(let items) = content { return items }
    return nil
  }
  var stringValue: String? {
    if case .string(let s) = content { return s }
    return nil
  }
  var intValue: Int? {
    if case .number(let n) = content { return n.integerValue(as: Int.self) }
    return nil
  }
  var floatValue: Float? {
    if case .number(let n) = content { return n.floatValue }
    return nil
  }
}
