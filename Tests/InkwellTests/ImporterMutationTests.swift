import Foundation
import InkwellFormat
import Testing

/// Seeded mutations (truncation, flipped bytes, two files spliced) of every corpus and example file,
/// run through every loader: each must return a document or throw a `DocumentError`, never trap.
@Suite struct ImporterMutationTests {
  /// Every corpus and example file, by path relative to its folder's parent.
  static func inputs() throws -> [(name: String, bytes: [UInt8])] {
    var inputs: [(String, [UInt8])] = []
    let manager = FileManager.default
    var roots = [FormatFixtures.packageRoot.appendingPathComponent("examples")]
    if FormatFixtures.corpusAvailable { roots.append(FormatFixtures.corpus) }
    for root in roots {
      let files = manager.enumerator(atPath: root.path)?.compactMap { $0 as? String }.sorted() ?? []
      for file in files where !file.hasSuffix(".md") && !file.hasSuffix(".png") {
        let url = root.appendingPathComponent(file)
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
          continue
        }
        inputs.append((file, [UInt8](try Data(contentsOf: url))))
      }
    }
    return inputs
  }

  /// A mutated copy of `bytes`; compressed inputs are mutated inside the compression too, so the
  /// parsers behind the inflater see damage as well as the inflater itself.
  static func mutate(_ bytes: [UInt8], other: [UInt8], using random: inout SplitMix64) -> [UInt8] {
    guard !bytes.isEmpty else { return bytes }
    switch random.next() % 4 {
    case 0:
      return Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
    case 1:
      var copy = bytes
      for _ in 0..<(1 + random.next() % 8) {
        let index = Int(random.next() % UInt64(copy.count))
        copy[index] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
      }
      return copy
    case 2:
      let cut = Int(random.next() % UInt64(bytes.count))
      let otherCut = other.isEmpty ? 0 : Int(random.next() % UInt64(other.count))
      return Array(bytes[..<cut]) + Array(other[otherCut...])
    default:
      guard bytes.count < 100_000, Gzip.hasSignature(bytes), let inner = try? Gzip.decompress(bytes) else {
        var copy = bytes
        let index = Int(random.next() % UInt64(copy.count))
        copy[index] = UInt8(truncatingIfNeeded: random.next())
        return copy
      }
      var copy = inner
      for _ in 0..<(1 + random.next() % 4) {
        let index = Int(random.next() % UInt64(Swift.max(copy.count, 1)))
        if index < copy.count { copy[index] = UInt8(truncatingIfNeeded: random.next()) }
      }
      return Gzip.compress(copy)
    }
  }

  @Test func everyLoaderSurvivesMutatedInputs() throws {
    let inputs = try Self.inputs()
    #expect(!inputs.isEmpty)
    var random = SplitMix64(seed: 0x1A4E_2024)
    let clock = ContinuousClock()
    let start = clock.now
    var runs = 0
    for (index, input) in inputs.enumerated() {
      let other = inputs[(index + 1) % inputs.count].bytes
      // Large files cost more per parse; give them fewer mutations.
      let mutations = input.bytes.count > 200_000 ? 1 : 3
      for _ in 0..<mutations {
        let mutated = Self.mutate(input.bytes, other: other, using: &random)
        _ = DocumentFormat.detect(path: input.name, bytes: mutated)
        for format in DocumentFormat.allCases {
          // The text-table loaders tokenize a whole file before they look at it, about 5 µs a byte
          // in a debug build; on large non-text inputs they get a 64 KiB prefix.
          let isTextTable = format == .libmypaintEvents || format == .bdalabSVC
          let mutated =
            isTextTable && !(input.name.hasSuffix(".dat") || input.name.hasSuffix(".svc"))
            ? Array(mutated.prefix(1 << 16)) : mutated
          do {
            _ = try format.load(mutated)
          } catch {
            // A typed error is the expected outcome of most mutations.
            _ = error.description
          }
          runs += 1
        }
      }
    }
    #expect(runs > 0)
    // About 20 s on a busy 2-core machine in a debug build; the bound only catches a runaway parser.
    #expect(clock.now - start < .seconds(90))
  }
}
