// Color output: the render options that concern color, applied in order, and the encoders that
// carry the result.
//
//   1. Ink colors: recolor (`inkColor`), cap exposures (`maximumLinearExposure`), adapt to a dark
//      appearance — all on the model, before anything is built, so the builder sees plain colors.
//   2. The content peak E is the largest exposure any ink (or the background) then has.
//   3. Compositing: premultiplied linear float, sRGB primaries, values above 1 kept.
//   4. Resolve for the format: primaries, tone mapping to the headroom H, transfer, quantization.
//   5. Encode: PNG with `sRGB` or `cICP` (+ `mDCV`, `cLLI` for PQ and HLG), or OpenEXR.

import InkwellEXR

/// Light or dark interface style, like PaperKit's `darkUserInterfaceStyle`.
public enum Appearance: String, CaseIterable, Hashable, Sendable {
  case light
  /// Ink and background colors adapted by `Color.adaptedForDarkAppearance`.
  case dark
}

/// The file an image is written as.
public enum ImageFormat: Hashable, Sendable {
  /// 8-bit PNG, sRGB transfer (dithered unless turned off).
  case png8
  /// 16-bit PNG, sRGB transfer.
  case png16
  /// 16-bit PNG, BT.2100 PQ, `cICP` 9 16 0 1 (BT.2020) or 12 16 0 1 (Display P3).
  case pngPQ
  /// 16-bit PNG, BT.2100 HLG, `cICP` 9 18 0 1 (BT.2020) or 12 18 0 1 (Display P3).
  case pngHLG
  /// OpenEXR, linear light, premultiplied.
  case exr(EXRSampleType)

  /// The names `--format` accepts.
  public static let names = ["png8", "png16", "png-pq", "png-hlg", "exr", "exr-float"]

  public init?(name: String) {
    switch name.lowercased() {
    case "png8", "png": self = .png8
    case "png16": self = .png16
    case "png-pq", "pq": self = .pngPQ
    case "png-hlg", "hlg": self = .pngHLG
    case "exr", "exr-half": self = .exr(.half)
    case "exr-float", "exr32": self = .exr(.float)
    default: return nil
    }
  }

  /// The format a path's extension implies, if any (`.exr`).
  public init?(path: String) {
    if path.lowercased().hasSuffix(".exr") {
      self = .exr(.half)
    } else {
      return nil
    }
  }

  /// The output's peak as a multiple of SDR white when the options do not say.
  public var defaultHeadroom: Float {
    switch self {
    case .png8, .png16: return 1
    // A 1000-nit master (PQ) / HLG's nominal 1000-nit display, SDR white at 203 nits.
    case .pngPQ, .pngHLG: return 1000 / 203
    case .exr: return .infinity
    }
  }

  var transfer: TransferFunction {
    switch self {
    case .png8, .png16: return .sRGB
    case .pngPQ: return .pq
    case .pngHLG: return .hlg
    case .exr: return .linear
    }
  }

  func colorSpace(_ requested: ColorSpace) -> ColorSpace {
    switch self {
    case .pngPQ, .pngHLG: return requested == .displayP3 ? .displayP3 : .bt2020
    default: return requested
    }
  }
}

/// Why an image could not be rendered and encoded.
public enum ImageOutputError: Error, CustomStringConvertible {
  case render(RenderError)
  case png(PNGError)
  case exr(EXRError)

  public var description: String {
    switch self {
    case .render(let e): return e.description
    case .png(let e): return e.description
    case .exr(let e): return e.description
    }
  }
}

extension RenderOptions {
  /// `drawing` with this render's color options applied to every stroke's ink.
  public func adjustingColors(of drawing: Drawing) -> Drawing {
    var d = drawing
    for i in d.strokes.indices {
      d.strokes[i].ink.color = adjustingColor(d.strokes[i].ink.color)
    }
    return d
  }

  /// One ink color with this render's color options applied: recolor, exposure cap, appearance.
  public func adjustingColor(_ color: Color) -> Color {
    var c = inkColor ?? color
    if let cap = maximumLinearExposure { c = c.cappingExposure(at: cap) }
    if appearance == .dark { c = c.adaptedForDarkAppearance }
    return c
  }

  /// The background with the appearance applied (exposure capped as for inks).
  public var effectiveBackground: Color {
    var c = background
    if let cap = maximumLinearExposure { c = c.cappingExposure(at: cap) }
    if appearance == .dark { c = c.adaptedForDarkAppearance }
    return c
  }
}

/// One render's prepared state: colors adjusted, primitives built and binned.
struct RenderScene {
  let options: RenderOptions
  let renderer: Renderer
  let primitives: [Primitive]
  let bins: TileBins
  let background: LinearColor
  /// E: the largest exposure of any ink or the background, at least 1.
  let contentPeak: Float
  let width: Int
  let height: Int

  init(document: Document, options: RenderOptions, viewport: Viewport, inks: InkCatalog = .standard) {
    let options = document.cappingExposure(options)
    self.options = options
    let drawing = options.adjustingColors(of: document.drawing)
    let backgroundColor = options.effectiveBackground
    renderer = Renderer(threads: options.threads)
    primitives = SceneBuilder.primitives(
      for: drawing, view: viewport.transform, inks: inks, threads: options.threads)
    bins = Renderer.bin(primitives, width: viewport.width, height: viewport.height, threads: options.threads)
    background = LinearColor(backgroundColor)
    contentPeak = Self.contentPeak(of: drawing, background: backgroundColor)
    width = viewport.width
    height = viewport.height
  }

  /// E: the largest exposure of any ink or the background, at least 1.
  static func contentPeak(of drawing: Drawing, background: Color) -> Float {
    var peak: Float = background.alpha > 0 ? background.effectiveExposure : 1
    for stroke in drawing.strokes { peak = Swift.max(peak, stroke.ink.color.effectiveExposure) }
    return peak
  }

  func settings(for format: ImageFormat) -> ResolveSettings {
    Self.settings(for: format, options: options, contentPeak: contentPeak)
  }

  static func settings(for format: ImageFormat, options: RenderOptions, contentPeak: Float) -> ResolveSettings
  {
    let headroom = options.headroom ?? format.defaultHeadroom
    return ResolveSettings(
      colorSpace: format.colorSpace(options.colorSpace), transfer: format.transfer,
      toneMapping: ToneMapping(mapper: options.toneMapper, contentPeak: contentPeak, headroom: headroom))
  }
}

/// A rendered image in the form its format needs.
public enum RenderedImage: Sendable {
  case rgba8(RGBA8Image, ResolveSettings)
  case rgba16(RGBA16Image, LightLevels, ResolveSettings)
  case linear(LinearImage, LightLevels, ResolveSettings)
}

extension Document {
  /// The document rendered for `format` with `options`.
  public func render(_ options: RenderOptions, for format: ImageFormat, inks: InkCatalog = .standard)
    throws(RenderError) -> RenderedImage
  {
    guard options.threads >= 1 else { throw .invalidThreadCount(options.threads) }
    let viewport = try viewport(for: options)
    let scene = RenderScene(document: self, options: options, viewport: viewport, inks: inks)
    let settings = scene.settings(for: format)
    let raster = scene.renderer.rasterizer
    switch format {
    case .png8:
      return .rgba8(try render(options, inks: inks), settings)
    case .png16, .pngPQ, .pngHLG:
      let (image, levels) = raster.renderRGBA16(
        scene.bins, primitives: scene.primitives, background: scene.background, threads: options.threads,
        settings: settings)
      return .rgba16(image, levels, settings)
    case .exr:
      let (image, levels) = raster.renderResolvedLinear(
        scene.bins, primitives: scene.primitives, background: scene.background, threads: options.threads,
        settings: settings, premultiplied: true)
      return .linear(image, levels, settings)
    }
  }

  /// The document rendered with `options` and encoded as `format`.
  public func encode(_ options: RenderOptions, as format: ImageFormat, inks: InkCatalog = .standard)
    throws(ImageOutputError) -> [UInt8]
  {
    let rendered: RenderedImage
    do {
      rendered = try render(options, for: format, inks: inks)
    } catch {
      throw .render(error)
    }
    do {
      switch rendered {
      case .rgba8(let image, let settings):
        var encoder = PNGEncoder()
        if settings.colorSpace != .sRGB {
          encoder.sRGBChunk = .never
          encoder.chunks = [Self.cicp(settings)]
        }
        return try encoder.encode(
          rgba8: image.pixels, width: image.width, height: image.height, hasAlpha: !image.isOpaque)
      case .rgba16(let image, let levels, let settings):
        var encoder = PNGEncoder()
        if settings.transfer == .sRGB && settings.colorSpace == .sRGB {
          encoder.sRGBChunk = .always
        } else {
          encoder.sRGBChunk = .never
          encoder.chunks = [Self.cicp(settings)]
          if settings.transfer == .pq || settings.transfer == .hlg {
            encoder.chunks += Self.hdrMetadata(levels, settings)
          }
        }
        let opaque = stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 65535 }
        return try encoder.encode(
          rgba16: image.pixels, width: image.width, height: image.height, hasAlpha: !opaque)
      case .linear(let image, _, let settings):
        guard case .exr(let type) = format else { return [] }
        return try Self.encodeEXR(image, type: type, colorSpace: settings.colorSpace)
      }
    } catch let error as PNGError {
      throw .png(error)
    } catch let error as EXRError {
      throw .exr(error)
    } catch {
      throw .png(.encodingFailed("\(error)"))
    }
  }

  static func encodeEXR(_ image: LinearImage, type: EXRSampleType, colorSpace: ColorSpace) throws(EXRError)
    -> [UInt8]
  {
    var chroma: EXRChromaticities? = nil
    if colorSpace != .sRGB {
      let p = ColorSpaceConversion.chromaticities(colorSpace)
      chroma = EXRChromaticities(xy: p.flatMap { [Float($0.x), Float($0.y)] } + [0.3127, 0.3290])
    }
    return try EXRCodec.encode(
      rgba: image.pixels, width: image.width, height: image.height, sampleType: type, chromaticities: chroma)
  }

  /// `cICP` for the settings: H.273 primaries (1 BT.709, 9 BT.2020, 12 P3-D65) and transfer
  /// (13 sRGB, 16 PQ, 18 HLG), matrix 0 (RGB), full range.
  static func cicp(_ settings: ResolveSettings) -> PNGChunk {
    let primaries: UInt8
    switch settings.colorSpace {
    case .sRGB: primaries = 1
    case .displayP3: primaries = 12
    case .bt2020: primaries = 9
    }
    let transfer: UInt8
    switch settings.transfer {
    case .sRGB: transfer = 13
    case .pq: transfer = 16
    case .hlg: transfer = 18
    case .linear: transfer = 8
    }
    return .codingIndependentCodePoints(primaries: primaries, transfer: transfer)
  }

  /// `mDCV` and `cLLI` from the rendered light levels, SDR white at 203 nits. The mastering
  /// display is taken to be the output itself: its primaries, its peak (the headroom; 1000 nits for
  /// HLG), never below the content's brightest pixel, and a black of 0.005 nits.
  static func hdrMetadata(_ levels: LightLevels, _ settings: ResolveSettings) -> [PNGChunk] {
    let white = Double(settings.toneMapping.sdrWhiteNits)
    let maxCLL = Double(levels.maximum) * white
    let maxFALL = Double(levels.frameAverage) * white
    let peak: Double =
      settings.transfer == .hlg
      ? Double(settings.hlgPeakNits) : Double(settings.toneMapping.effectiveHeadroomForMetadata) * white
    let primaries = ColorSpaceConversion.chromaticities(settings.colorSpace)
    return [
      .masteringDisplayColorVolume(
        primaries: primaries, whitePoint: (0.3127, 0.3290), maxLuminance: Swift.max(peak, maxCLL),
        minLuminance: 0.005),
      .contentLightLevel(maxCLL: maxCLL, maxFALL: maxFALL),
    ]
  }
}

extension ToneMapping {
  /// The headroom, or 10 000 nits' worth when unbounded.
  var effectiveHeadroomForMetadata: Float {
    headroom.isFinite && headroom >= 1 ? Swift.min(headroom, 10000 / sdrWhiteNits) : 10000 / sdrWhiteNits
  }
}

extension Document {
  /// `options` with the document's own exposure limit applied: its feature set's
  /// `colorMaximumLinearExposure` caps what its inks may use, together with any cap the options
  /// already set (the lower wins). The stored value is unchanged.
  public func cappingExposure(_ options: RenderOptions) -> RenderOptions {
    var options = options
    let documentCap = markup.featureSet.colorMaximumLinearExposure
    options.maximumLinearExposure = Swift.min(options.maximumLinearExposure ?? documentCap, documentCap)
    return options
  }
}
