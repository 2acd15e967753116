// InkwellRender: from a drawing to pixels, in four stages whose folders name them:
//   Build/   strokes → primitives (flattened outlines in pixel space, premultiplied linear color)
//   Bin/     primitives → per-tile lists of line pieces and backdrop windings, in paint order
//   Raster/  tiles in parallel: exact-area coverage, compositing in linear float
//   Resolve/ finished tiles → output samples: tone mapping to the output's headroom, transfer
//            function (sRGB, PQ, HLG, linear), dithered quantization (kernels in shaders-cpu)
// It knows nothing of file formats.

import InkwellModel

/// Renders drawings.
public struct Renderer: Sendable {
  /// Threads that render tiles; 1 renders on the calling thread.
  public var threads: Int
  public var rasterizer: TileRasterizer

  /// `scheduler` spreads tile rows over the `threads` threads (Dispatch unless given); the image
  /// does not depend on it.
  public init(
    threads: Int = 1, kernels: RasterKernels = .native, paintKernels: PaintKernels = .native,
    scheduler: TileScheduler = .dispatch
  ) {
    self.threads = Swift.max(1, threads)
    self.rasterizer = TileRasterizer(kernels: kernels, paintKernels: paintKernels, scheduler: scheduler)
  }

  /// `drawing` as seen through `viewport`, over `background` (sRGB; `.clear` for transparent),
  /// each stroke drawn by the brush `inks` picks for it.
  public func render(
    _ drawing: Drawing, viewport: Viewport, background: Color, inks: InkCatalog = .standard
  ) -> RGBA8Image {
    let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform, inks: inks)
    return render(primitives, width: viewport.width, height: viewport.height, background: background)
  }

  /// Fills `primitives` in order onto a `width` × `height` canvas over `background`.
  public func render(_ primitives: [Primitive], width: Int, height: Int, background: Color) -> RGBA8Image {
    rasterizer.render(
      Self.bin(primitives, width: width, height: height), primitives: primitives,
      background: LinearColor(background), threads: threads)
  }

  /// Like `render(_:width:height:background:)`, to premultiplied linear float RGBA.
  public func renderLinear(_ primitives: [Primitive], width: Int, height: Int, background: LinearColor)
    -> [Float]
  {
    rasterizer.renderLinear(
      Self.bin(primitives, width: width, height: height), primitives: primitives, background: background,
      threads: threads)
  }

  /// The bin stage on its own: `primitives` sorted into tile lists for a `width` × `height` canvas,
  /// as `render` does before rasterizing. Public so that benchmarks can time the stage.
  public static func bin(_ primitives: [Primitive], width: Int, height: Int) -> TileBins {
    var binner = TileBinner(grid: TileGrid(width: width, height: height))
    for (index, primitive) in primitives.enumerated() {
      binner.add(primitive, index: index)
    }
    return binner.finish()
  }
}
