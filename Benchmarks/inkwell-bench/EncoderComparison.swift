// The PNG encoder on its own: libpng at its defaults against Inkwell's band encoder at a few
// efforts and thread counts, on the same rendered pages. Runs interleave across encoders.

import Inkwell

struct EncoderVariant {
  let name: String
  let encode: (RGBA8Image) throws -> [UInt8]
}

enum EncoderComparison {
  static func variants(cores: Int) -> [EncoderVariant] {
    var list: [EncoderVariant] = [
      EncoderVariant(name: "libpng defaults (level 6, adaptive)") { image in
        try PNGEncoder().encode(
          rgba8: image.pixels, width: image.width, height: image.height, hasAlpha: !image.isOpaque)
      }
    ]
    for (effort, threads) in [(1, 1), (1, cores), (4, cores), (9, cores)] {
      list.append(
        EncoderVariant(name: "bands, effort \(effort), \(threads) thread\(threads == 1 ? "" : "s")") {
          image in
          try image.pngData(effort: effort, threads: threads)
        })
    }
    return list
  }

  /// Renders each scene at scale 1 and fitted in 256 × 256 (a thumbnail) and prints one row per
  /// encoder: median ms, bytes, both as ratios to libpng's defaults, and the PNG's color type.
  static func run(scenes: [BenchScene], runs: Int, cores: Int) {
    let variants = variants(cores: cores)
    print("\nPNG encoding alone, median of \(runs) interleaved runs (after one warm-up):\n")
    print(
      pad("image", 48) + pad("encoder", 38) + lpad("ms", 9) + lpad("bytes", 11) + lpad("time ×", 9)
        + lpad("size ×", 9) + "  color")
    let sizings: [RenderOptions.Sizing] = [.scale(1), .fit(width: 256, height: 256)]
    for scene in scenes {
      guard let document = try? scene.format.load(scene.bytes) else { continue }
      for sizing in sizings {
        guard let image = try? document.render(RenderOptions(sizing: sizing, threads: cores)) else {
          continue
        }
        compare(scene.name, image, variants: variants, runs: runs)
      }
    }
  }

  /// The PNG color type of `png`'s header, in words.
  private static func colorType(_ png: [UInt8]) -> String {
    guard png.count > 25 else { return "?" }
    switch png[25] {
    case 2: return "RGB"
    case 3: return "palette"
    case 6: return "RGBA"
    default: return "type \(png[25])"
    }
  }

  private static func compare(_ name: String, _ image: RGBA8Image, variants: [EncoderVariant], runs: Int) {
    var samples = Array(repeating: [Double](), count: variants.count)
    var sizes = Array(repeating: 0, count: variants.count)
    var types = Array(repeating: "", count: variants.count)
    for run in 0...runs {
      for (index, variant) in variants.enumerated() {
        let start = MonotonicClock.nanoseconds()
        guard let bytes = try? variant.encode(image) else { continue }
        let elapsed = MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
        sizes[index] = bytes.count
        types[index] = colorType(bytes)
        if run > 0 { samples[index].append(elapsed) }
      }
    }
    let medians = samples.map { $0.isEmpty ? 0 : TimingSummary($0).median }
    for (index, variant) in variants.enumerated() {
      let label = index == 0 ? "\(name) \(image.width)×\(image.height)" : ""
      print(
        pad(label, 48) + pad(variant.name, 38) + lpad(fixed(medians[index], medians[0] < 1 ? 2 : 1), 9)
          + lpad(String(sizes[index]), 11)
          + lpad(fixed(medians[index] / medians[0], 2), 9)
          + lpad(fixed(Double(sizes[index]) / Double(max(sizes[0], 1)), 3), 9) + "  " + types[index])
    }
  }

  private static func pad(_ s: String, _ n: Int) -> String {
    s + String(repeating: " ", count: max(0, n - s.count))
  }
  private static func lpad(_ s: String, _ n: Int) -> String {
    String(repeating: " ", count: max(0, n - s.count)) + s
  }
}
