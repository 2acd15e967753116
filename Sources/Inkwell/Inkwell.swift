// Inkwell: PencilKit-style drawings rendered to pixels, anywhere Swift runs.
//
// This module is the public surface. It re-exports the model (`Drawing`, `Stroke`, `StrokePath`,
// `StrokePoint`, `Ink`, …) and the renderer's value types, and adds what an application calls:
// render a document with `RenderOptions`, encode PNG, write output atomically. Everything below it
// has one direction of dependency: model ← render; model ← format; png stands alone.

@_exported import InkwellFormat
@_exported import InkwellModel
@_exported import InkwellPNG
@_exported import InkwellRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How to render a document.
public struct RenderOptions: Hashable, Sendable {
  /// How big the image is.
  public enum Sizing: Hashable, Sendable {
    /// Pixels per document unit.
    case scale(Double)
    /// Fit inside a box of this many pixels, keeping the aspect ratio.
    case fit(width: Int, height: Int)
  }

  /// Default limit on the pixels of one image: 256 megapixels (1 GiB of 8-bit RGBA).
  public static let defaultMaxPixels = 256_000_000

  public var sizing: Sizing
  /// The part of the document to show, in document units; `nil` shows the document's canvas.
  public var region: Rect?
  /// Painted under the drawing; `.clear` leaves the image transparent.
  public var background: Color
  /// Threads that build and render tiles, at most: a render too small to give each thread a
  /// worthwhile share (a thumbnail) runs on fewer. The output is the same for any count.
  public var threads: Int
  /// Images with more pixels are refused before anything is allocated.
  public var maxPixels: Int
  /// The output's primaries: sRGB, or Display P3 (tagged with `cICP` 12 13 0 1 in PNG). HDR PNG
  /// (PQ, HLG) uses BT.2020 unless this is Display P3.
  public var colorSpace: ColorSpace = .sRGB
  /// The output's peak as a multiple of SDR white; `nil` takes the format's own (1 for SDR PNG,
  /// 1000/203 for PQ and HLG, unbounded for OpenEXR).
  public var headroom: Float? = nil
  /// The curve that fits content brighter than the headroom.
  public var toneMapper: ToneMapper = .default
  /// The most linear exposure any ink may use in this render (a document's
  /// `colorMaximumLinearExposure`); `nil` leaves exposures as stored.
  public var maximumLinearExposure: Float? = nil
  /// Ordered dithering of 8-bit output, so smooth ramps do not band. Deterministic: a function of
  /// pixel position only.
  public var dither: Bool = true
  /// Light (as stored) or dark: ink and background colors adapted to a dark page.
  public var appearance: Appearance = .light
  /// Recolors every stroke with this color (its exposure included); `nil` keeps each ink's color.
  public var inkColor: Color? = nil

  public init(
    sizing: Sizing = .scale(1), region: Rect? = nil, background: Color = .white,
    threads: Int = RenderOptions.availableProcessors, maxPixels: Int = RenderOptions.defaultMaxPixels
  ) {
    self.sizing = sizing
    self.region = region
    self.background = background
    self.threads = threads
    self.maxPixels = maxPixels
  }

  /// Processors available to this process.
  public static var availableProcessors: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// Why a render was refused. Nothing has been allocated or written when one is thrown.
public enum RenderError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The image would exceed the pixel limit.
  case imageTooLarge(width: Double, height: Double, limit: Int)
  /// The region (or the document's canvas) has no area.
  case emptyRegion(Rect)
  /// The scale or box is zero, negative or not finite.
  case invalidSize(String)
  /// Threads must be at least 1.
  case invalidThreadCount(Int)

  public var description: String {
    switch self {
    case .imageTooLarge(let w, let h, let limit):
      return "image of \(Self.format(w))×\(Self.format(h)) pixels exceeds the limit of \(limit) pixels"
    case .emptyRegion(let r):
      return "region \(r.minX),\(r.minY),\(r.width),\(r.height) has no area"
    case .invalidSize(let what):
      return "invalid size: \(what)"
    case .invalidThreadCount(let n):
      return "thread count must be at least 1 (got \(n))"
    }
  }

  private static func format(_ v: Double) -> String {
    v < 1e15 ? String(Int64(v)) : String(v)
  }
}

extension Document {
  /// The viewport a render with `options` uses.
  public func viewport(for options: RenderOptions) throws(RenderError) -> Viewport {
    let region = options.region ?? canvas
    do {
      switch options.sizing {
      case .scale(let s):
        return try Viewport.scaled(region, by: s, maxPixels: options.maxPixels)
      case .fit(let w, let h):
        return try Viewport.fitting(region, inWidth: w, height: h, maxPixels: options.maxPixels)
      }
    } catch {
      switch error {
      case .emptyRegion: throw .emptyRegion(region)
      case .invalidScale: throw .invalidSize("scale and box must be positive and finite")
      case .tooLarge(let w, let h, let limit): throw .imageTooLarge(width: w, height: h, limit: limit)
      }
    }
  }

  /// The document rendered with `options` to 8-bit RGBA (sRGB-encoded, in `options.colorSpace`),
  /// tone mapped to `options.headroom` (default 1) and dithered when `options.dither` is on, each
  /// stroke drawn by the brush `inks` picks for it (the built-in inks unless an app registers its
  /// own).
  public func render(_ options: RenderOptions = RenderOptions(), inks: InkCatalog = .standard)
    throws(RenderError) -> RGBA8Image
  {
    guard options.threads >= 1 else { throw .invalidThreadCount(options.threads) }
    let viewport = try viewport(for: options)
    let scene = RenderScene(document: self, options: options, viewport: viewport, inks: inks)
    let settings = scene.settings(for: .png8)
    if !options.dither && settings.colorSpace == .sRGB && settings.toneMapping.isIdentity {
      // The exact threshold-table resolve: SDR content in sRGB needs nothing else.
      return scene.renderer.rasterizer.render(
        scene.bins, primitives: scene.primitives, background: scene.background, threads: options.threads)
    }
    return scene.renderer.rasterizer.renderRGBA8(
      scene.bins, primitives: scene.primitives, background: scene.background, threads: options.threads,
      settings: settings, dither: options.dither)
  }
}

extension RGBA8Image {
  /// Whether every pixel's alpha is 255.
  public var isOpaque: Bool {
    pixels.withUnsafeBytes { bytes in
      // Sixteen bytes at a time, ANDed over a block before the alpha bytes are looked at: a byte
      // at a time, the scan cost a thumbnail's encode a tenth of its time.
      let count = bytes.count
      var offset = 0
      while offset + 16 <= count {
        let end = Swift.min(offset + 1024, count - count % 16)
        var all = SIMD16<UInt8>(repeating: 255)
        while offset < end {
          all &= bytes.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
          offset += 16
        }
        if all[3] & all[7] & all[11] & all[15] != 255 { return false }
      }
      while offset + 3 < count {
        if bytes[offset + 3] != 255 { return false }
        offset += 4
      }
      return true
    }
  }

  /// The image as PNG bytes: with a palette when it has at most 256 colors (and at most
  /// `PNGBandEncoder.palettePixelLimit` pixels), else RGB when every pixel is opaque and RGBA
  /// otherwise; 8-bit sRGB with the `sRGB` chunk. Compressed in bands on `threads` threads; the
  /// bytes do not depend on `threads`. `effort` runs from 1 (fastest, the default) to 9
  /// (smallest).
  public func pngData(effort: Int = PNGBandEncoder.defaultEffort, threads: Int = 1) throws(PNGError)
    -> [UInt8]
  {
    let opaque = isOpaque
    return try withUnsafeBytesOfPixels { (bytes) throws(PNGError) -> [UInt8] in
      try PNGBandEncoder(effort: effort).encode(
        rgba8: bytes, width: width, height: height, hasAlpha: !opaque, threads: threads)
    }
  }

  fileprivate func withUnsafeBytesOfPixels(
    _ body: (UnsafeRawBufferPointer) throws(PNGError) -> [UInt8]
  ) throws(PNGError) -> [UInt8] {
    let result: Result<[UInt8], PNGError> = pixels.withUnsafeBytes { bytes in
      do throws(PNGError) {
        return .success(try body(bytes))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

extension Document {
  /// Renders the document into an 8-bit PNG at `output`. An image of up to
  /// `PNGBandEncoder.palettePixelLimit` pixels (a thumbnail, a page at screen size) is rendered
  /// whole and written with a palette when it has at most 256 colors; a larger one goes band by
  /// band, so memory stays proportional to the image's width (and to the strokes one band
  /// reaches), not its area. The pixels equal `render(options, inks:)`'s; the file has alpha
  /// (RGBA, or a palette with `tRNS`) only where the background is not opaque, and carries the
  /// `sRGB` chunk (for Display P3, use `encode(_:as:)`). On failure the output is discarded.
  public func writePNG(
    to output: OutputFileWriter, options: RenderOptions = RenderOptions(),
    effort: Int = PNGBandEncoder.defaultEffort, inks: InkCatalog = .standard
  ) throws {
    try writePNG(
      to: output, options: options, effort: effort, inks: inks, wholeUpTo: PNGBandEncoder.palettePixelLimit)
  }

  /// `writePNG(to:options:effort:inks:)`, rendering whole only up to `wholeUpTo` pixels.
  func writePNG(
    to output: OutputFileWriter, options: RenderOptions, effort: Int, inks: InkCatalog, wholeUpTo: Int
  ) throws {
    do {
      guard options.threads >= 1 else { throw RenderError.invalidThreadCount(options.threads) }
      let viewport = try viewport(for: options)
      if viewport.width <= wholeUpTo / Swift.max(viewport.height, 1) {
        let image = try render(options, inks: inks)
        let file = try image.withUnsafeBytesOfPixels { (bytes) throws(PNGError) -> [UInt8] in
          try PNGBandEncoder(effort: effort).encode(
            rgba8: bytes, width: image.width, height: image.height,
            hasAlpha: options.effectiveBackground.alpha < 1, threads: options.threads)
        }
        try output.write(file)
        return
      }
      let options = cappingExposure(options)
      let drawing = options.adjustingColors(of: self.drawing)
      let backgroundColor = options.effectiveBackground
      let settings = RenderScene.settings(
        for: .png8, options: options,
        contentPeak: RenderScene.contentPeak(of: drawing, background: backgroundColor))
      let exact = !options.dither && settings.colorSpace == .sRGB && settings.toneMapping.isIdentity
      let renderer = Renderer(threads: options.threads)
      let stream = try PNGBandStream(
        width: viewport.width, height: viewport.height, hasAlpha: backgroundColor.alpha < 1,
        encoder: PNGBandEncoder(effort: effort), threads: options.threads
      ) { bytes in try output.write(bytes) }
      let resolve: (TileBins, [Primitive], LinearColor) -> RGBA8Image = { bins, primitives, background in
        exact
          ? renderer.rasterizer.render(
            bins, primitives: primitives, background: background, threads: options.threads)
          : renderer.rasterizer.renderRGBA8(
            bins, primitives: primitives, background: background, threads: options.threads,
            settings: settings,
            dither: options.dither)
      }
      let write: (RGBA8Image, Int) throws -> Void = { band, _ in
        try band.pixels.withUnsafeBytes { raw in
          try stream.write(rows: raw, count: band.height, rowStride: band.width * 4)
        }
      }
      try renderer.renderBands(
        drawing, viewport: viewport, background: backgroundColor, inks: inks, resolve: resolve, body: write)
      try stream.finish()
    } catch let error as PNGError {
      output.discard()
      if case .sinkFailed(let underlying) = error { throw underlying }
      throw error
    } catch {
      output.discard()
      throw error
    }
  }
}
