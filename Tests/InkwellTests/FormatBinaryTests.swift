import Foundation
import InkwellModel
import Testing

@testable import InkwellFormat

/// The binary format against the JSON form, and both loaders against bad input.
@Suite struct FormatBinaryTests {
  /// A random document using every part of the model: all point columns, masks, feature sets,
  /// unknown fields at each level, unknown elements, thumbnails and preserved binary sections.
  static func richDocument(seed: UInt64) -> Document {
    var document = FormatNativeTests.randomDocument(seed: seed)
    var random = SplitMix64(seed: seed &* 31 &+ 7)
    func chance() -> Bool { random.next() % 2 == 0 }
    func json(_ text: String) -> [UInt8] { Array(text.utf8) }
    var drawing = document.drawing
    for i in drawing.strokes.indices {
      if chance() {
        for j in drawing.strokes[i].path.controlPoints.indices {
          drawing.strokes[i].path.controlPoints[j].secondaryScale = random.float(in: 0...3)
          drawing.strokes[i].path.controlPoints[j].threshold = Float(random.next() % 100) / 100
          drawing.strokes[i].path.controlPoints[j].lateralJitter = random.float(in: 0...2)
        }
      }
      if chance() {
        let clip: [[Point]]? =
          chance()
          ? [(0..<Int(random.next() % 6)).map { _ in Point(x: random.float(in: -50...50), y: 3) }] : nil
        let sweep = EraserSweep(
          centers: [Point(x: 1, y: 2), Point(x: random.float(in: 0...9), y: 4)],
          radii: [1, random.float(in: 0...5)])
        drawing.strokes[i].mask = StrokeMask(
          clip: clip, fillRule: chance() ? .evenOdd : .nonZero, erasures: chance() ? [sweep] : [],
          unknownFields: chance()
            ? UnknownFields([.init(name: "feather", json: json("0.5"))]) : UnknownFields())
      }
      if chance() {
        drawing.strokes[i].unknownFields = UnknownFields([.init(name: "id", json: json(#""s\#(i)""#))])
      }
      if chance() {
        drawing.strokes[i].ink.unknownFields = UnknownFields([.init(name: "grain", json: json("[1,2]"))])
      }
    }
    if chance() { drawing.unknownFields = UnknownFields([.init(name: "layer", json: json(#"{"n":1}"#))]) }
    document.drawing = drawing
    if chance() {
      document.markup.elements.append(
        .unknown(
          UnknownElement(kind: "textBox", fields: UnknownFields([.init(name: "text", json: json(#""hi""#))])))
      )
    }
    if chance() {
      var set = FeatureSet.version1
      set.remove(.loupes)
      set.shapes.remove(.star)
      set.lineMarkerPositions = .end
      set.colorMaximumLinearExposure = Float.random(in: 1...16, using: &random)
      if chance() { set.unknownFields = UnknownFields([.init(name: "maps", json: json("true"))]) }
      document.markup.featureSet = set
    }
    if chance() {
      document.thumbnailPNG = (0..<Int(random.next() % 40)).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
    }
    if chance() { document.unknownFields.fields.append(.init(name: "author", json: json(#""A. N. Other""#))) }
    if chance() {
      document.unknownFields.fields.append(
        .init(name: "section:ztxt", json: json(#""\#(Base64Probe.encode([1, 2, 3]))""#)))
    }
    return document
  }

  @Test(arguments: 0..<150)
  func randomDocumentsSurviveJSONToBinaryToJSON(seed: Int) throws {
    let document = Self.richDocument(seed: UInt64(seed))
    let json = try NativeFormat.encode(document)
    let fromJSON = try NativeFormat.decode(json)
    #expect(fromJSON == document)
    let binary = try BinaryFormat.encode(fromJSON)
    let fromBinary = try NativeFormat.decode(binary)
    #expect(fromBinary == document)
    #expect(try NativeFormat.encode(fromBinary) == json)
    #expect(try BinaryFormat.encode(fromBinary) == binary)
  }

  /// Every example, golden document and corpus recording the importers read.
  static var convertedSources: [String] {
    var paths = [
      "examples/mypaint-painting.inkwell.json", "examples/bdalab-handwriting.inkwell.json",
      "golden/pen/curve.inkwell.json", "golden/pen/straight.inkwell.json",
      "golden/pen/pressure-ramp.inkwell.json", "golden/pen/translucent-self-crossing-loop.inkwell.json",
      "golden/handwriting/bdalab-cursive.inkwell.json",
    ].map { FormatFixtures.packageRoot.appendingPathComponent($0).path }
    if FormatFixtures.corpusAvailable,
      let files = FileManager.default.enumerator(atPath: FormatFixtures.corpus.path)
    {
      for case let file as String in files where !file.hasSuffix(".md") {
        var isDirectory: ObjCBool = false
        let path = FormatFixtures.corpus.appendingPathComponent(file).path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
          paths.append(path)
        }
      }
    }
    return paths
  }

  @Test func convertedCorpusSurvivesJSONToBinaryToJSON() throws {
    if !FormatFixtures.corpusAvailable {
      print("../shared/corpus is absent: only examples and goldens are checked")
    }
    var converted = 0
    for path in Self.convertedSources {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      guard let format = DocumentFormat.detect(path: path, bytes: bytes),
        let document = try? format.load(bytes)
      else { continue }  // a recording no importer of this branch reads
      let json = try NativeFormat.encode(document)
      let binary = try BinaryFormat.encode(try NativeFormat.decode(json))
      #expect(try NativeFormat.encode(try NativeFormat.decode(binary)) == json, "\(path)")
      #expect(try NativeFormat.decode(binary) == document, "\(path)")
      converted += 1
    }
    #expect(converted >= 7)
  }

  @Test func binaryIsFiveTimesSmallerThanCompactJSON() throws {
    let bytes = try FormatFixtures.exampleBytes("mypaint-painting.inkwell.json")
    let document = try NativeFormat.decode(bytes)
    let compact = try NativeFormat.encode(document, style: .compact)
    #expect(compact.count >= 5 * (try BinaryFormat.encode(document)).count)
  }

  @Test func columnsDecodeAtTheEndOfTheirBytesAndRefuseBadVarints() throws {
    // Columns end where the reader's bytes end, so their last varints take the checked path;
    // values of every size make one- to ten-byte varints.
    var random = SplitMix64(seed: 77)
    for trial in 0..<200 {
      let count = 1 + Int(random.next() % 40)
      let values: [Float] = (0..<count).map { _ in
        switch random.next() % 3 {
        case 0: Float(Int(random.next() % 20_000)) / 100
        case 1: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF)
        default: -Float(random.next() % 1000) * 1e-3
        }
      }
      var writer = ByteWriter()
      ColumnCodec.encode(values, into: &writer)
      var reader = ByteReader(writer.bytes, path: "")
      let decoded = try ColumnCodec.decode(count: count, from: &reader, what: "x")
      #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern), "trial \(trial)")
      #expect(reader.index == writer.bytes.count)
      // One byte short: the last varint runs out.
      var short = ByteReader(Array(writer.bytes.dropLast()), path: "")
      #expect(throws: DocumentError.self) {
        _ = try ColumnCodec.decode(count: count, from: &short, what: "x")
      }
    }
    // A varint of eleven bytes overflows 64 bits, with room after it or without.
    for padding in [0, 12] {
      let bytes =
        [UInt8(0)] + [UInt8](repeating: 0xFF, count: 10) + [0x01] + [UInt8](repeating: 0, count: padding)
      var reader = ByteReader(bytes, path: "")
      #expect {
        _ = try ColumnCodec.decode(count: 1, from: &reader, what: "x")
      } throws: { error in
        guard let error = error as? DocumentError, case .invalidBinary(let reason) = error.kind else {
          return false
        }
        return reason == "varint overflows 64 bits"
      }
    }
  }

  // MARK: Bad input
  // MARK: Bad input

  struct MalformedCase: CustomTestStringConvertible, Sendable {
    var file: String
    var category: String
    var kind: String
    var thumbnail: Bool
    var testDescription: String { file }
  }

  static let malformedDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Malformed")

  static let malformedCases: [MalformedCase] = {
    guard
      let text = try? String(
        contentsOf: malformedDirectory.appendingPathComponent("expected.txt"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let parts = line.split(separator: " ").map(String.init)
      return MalformedCase(file: parts[0], category: parts[1], kind: parts[2], thumbnail: parts.count > 3)
    }
  }()

  @Test func malformedCorpusIsListed() { #expect(Self.malformedCases.count >= 15) }

  @Test(arguments: malformedCases)
  func malformedFilesGiveTheirTypedError(_ c: MalformedCase) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.malformedDirectory.appendingPathComponent(c.file)))
    #expect {
      _ = try NativeFormat.decode(bytes)
    } throws: { error in
      guard let error = error as? DocumentError else { return false }
      #expect(error.category.rawValue == c.category, "\(error)")
      #expect("\(error.kind)".hasPrefix(c.kind), "\(error)")
      #expect((error.thumbnailPNG != nil) == c.thumbnail)
      #expect(error.byteOffset != nil || error.location != nil || error.path != nil)
      return true
    }
  }

  @Test func tooNewContentHandsBackTheThumbnail() throws {
    let thumbnail: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
    var document = Document(drawing: Drawing())
    document.thumbnailPNG = thumbnail
    var binary = try BinaryFormat.encode(document)
    binary[8] = 2  // a newer layout version
    #expect {
      _ = try NativeFormat.decode(binary)
    } throws: { error in
      let error = error as? DocumentError
      return error?.category == .incompatibleFormatTooNew && error?.thumbnailPNG == thumbnail
    }
  }

  /// Seeded mutations (truncation, byte flips, splices) of every example in both encodings: each
  /// load either succeeds or throws a `DocumentError`; none traps.
  @Test(arguments: ["mypaint-painting.inkwell.json", "bdalab-handwriting.inkwell.json"])
  func mutatedFilesNeverTrap(name: String) throws {
    let json = try FormatFixtures.exampleBytes(name)
    let binary = try BinaryFormat.encode(try NativeFormat.decode(json))
    var random = SplitMix64(seed: 2024)
    for original in [binary, json] {
      let rounds = original == binary ? 600 : 60
      for _ in 0..<rounds {
        var bytes = original
        switch random.next() % 3 {
        case 0: bytes.removeSubrange(Int(random.next() % UInt64(bytes.count))...)
        case 1:
          for _ in 0..<(1 + random.next() % 4) {
            bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
          }
        default:
          let from = Int(random.next() % UInt64(bytes.count))
          let length = Int(random.next() % 64)
          let to = Int(random.next() % UInt64(bytes.count))
          bytes.insert(contentsOf: original[from..<min(from + length, original.count)], at: to)
        }
        do {
          _ = try NativeFormat.decode(bytes)
        } catch {
          #expect(!error.description.isEmpty)
        }
      }
    }
  }

  @Test func tinyFileClaimingHugeCountsFailsAtOnce() {
    var bytes = BinaryFormat.magic + [1, 0, 0, 0] + Array("HEAD".utf8) + [0xFF, 0xFF, 0xFF, 0x7F]
    bytes += [0, 0]
    #expect {
      _ = try BinaryFormat.decode(bytes)
    } throws: { error in
      guard let error = error as? DocumentError, case .countTooLarge = error.kind else { return false }
      return error.byteOffset == 16
    }
  }
}

/// Base64 for the tests, written independently of the format's.
enum Base64Probe {
  static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
