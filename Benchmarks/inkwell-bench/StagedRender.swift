import Inkwell

/// The stages of one render, in pipeline order, and their sum.
enum Stage: String, CaseIterable {
  /// Parsing the document's bytes (already in memory: no file I/O).
  case load
  /// Strokes to primitives: `SceneBuilder.primitives`.
  case build
  /// Primitives to per-tile lists: `Renderer.bin` (`TileBinner`).
  case bin
  /// Tiles composited and resolved to 8-bit sRGB: `TileRasterizer.render`.
  case raster
  /// The image to PNG bytes: `RGBA8Image.pngData`.
  case encode
  /// From bytes in memory to PNG bytes in memory.
  case total
}

/// How big the output image is.
struct OutputSize {
  let name: String
  let sizing: RenderOptions.Sizing

  static let fullScale = OutputSize(name: "1x", sizing: .scale(1))
  static let thumbnail = OutputSize(name: "fit256", sizing: .fit(width: 256, height: 256))
  static let all = [fullScale, thumbnail]
}

/// The result of one timed pass.
struct StagedRenderResult {
  var milliseconds: [Stage: Double]
  var image: RGBA8Image
  var pngByteCount: Int
}

/// `Document.render` followed by `pngData`, taken apart so that each stage can be timed. It calls
/// the same functions, in the same order, as the public API does.
enum StagedRender {
  static func run(_ scene: BenchScene, options: RenderOptions) throws -> StagedRenderResult {
    let start = MonotonicClock.nanoseconds()
    let document = try scene.format.load(scene.bytes)
    let loaded = MonotonicClock.nanoseconds()
    let viewport = try document.viewport(for: options)
    let primitives = SceneBuilder.primitives(
      for: document.drawing, view: viewport.transform, threads: options.threads)
    let built = MonotonicClock.nanoseconds()
    let bins = Renderer.bin(
      primitives, width: viewport.width, height: viewport.height, threads: options.threads)
    let binned = MonotonicClock.nanoseconds()
    // The resolve `Document.render` uses for an SDR document: sRGB, no tone mapping, dithered
    // unless `options.dither` is off.
    let settings = ResolveSettings(
      colorSpace: .sRGB, transfer: .sRGB, toneMapping: ToneMapping(contentPeak: 1, headroom: 1))
    let image =
      options.dither
      ? Renderer(threads: options.threads).rasterizer.renderRGBA8(
        bins, primitives: primitives, background: LinearColor(options.background), threads: options.threads,
        settings: settings, dither: true)
      : Renderer(threads: options.threads).rasterizer.render(
        bins, primitives: primitives, background: LinearColor(options.background), threads: options.threads)
    let rasterized = MonotonicClock.nanoseconds()
    let png = try image.pngData(threads: options.threads)
    let encoded = MonotonicClock.nanoseconds()
    return StagedRenderResult(
      milliseconds: [
        .load: MonotonicClock.milliseconds(from: start, to: loaded),
        .build: MonotonicClock.milliseconds(from: loaded, to: built),
        .bin: MonotonicClock.milliseconds(from: built, to: binned),
        .raster: MonotonicClock.milliseconds(from: binned, to: rasterized),
        .encode: MonotonicClock.milliseconds(from: rasterized, to: encoded),
        .total: MonotonicClock.milliseconds(from: start, to: encoded),
      ], image: image, pngByteCount: png.count)
  }
}

/// One scene at one output size on one thread count, and what was measured for it.
struct BenchCase {
  let scene: BenchScene
  let size: OutputSize
  let threads: Int
  var samples: [Stage: [Double]] = [:]
  var imageWidth = 0
  var imageHeight = 0
  var pngByteCount = 0
  /// Resident size just before the warm-up run, KiB.
  var baselineRSSKiB = 0
  /// Peak resident size during the warm-up run (or, when the peak could not be reset, since the
  /// process started), KiB.
  var peakRSSKiB = 0

  init(scene: BenchScene, size: OutputSize, threads: Int) {
    self.scene = scene
    self.size = size
    self.threads = threads
  }

  var label: String { scene.name + "@" + size.name }

  var options: RenderOptions { RenderOptions(sizing: size.sizing, threads: threads) }

  /// Pixels of the output image; 0 when the viewport cannot be made.
  var expectedPixels: Int {
    guard let viewport = try? Document(bounds: scene.canvas, drawing: Drawing()).viewport(for: options) else {
      return 0
    }
    return viewport.width * viewport.height
  }

  mutating func record(_ result: StagedRenderResult) {
    for (stage, milliseconds) in result.milliseconds { samples[stage, default: []].append(milliseconds) }
  }

  func summary(_ stage: Stage) -> TimingSummary? {
    guard let values = samples[stage], !values.isEmpty else { return nil }
    return TimingSummary(values)
  }
}
