// Band rendering: the canvas in horizontal bands of whole tile rows, each finished band handed to
// the caller before the next begins, so memory follows the band, not the canvas.
//
// A render of the whole canvas holds every primitive's outline and every tile's pieces at once:
// for a 16384 × 16384 page of 40 000 strokes that is hundreds of megabytes before a pixel is
// written, plus a gigabyte of 8-bit pixels. Here strokes are sorted by the top of their bounds;
// a band builds outlines only for the strokes that reach it, keeps them while later bands still
// need them, bins only them, renders its tiles in parallel, and passes its rows on. Pieces are cut
// in the canvas's own coordinates (see `TileBinner.rowOffset`), so each band's pixels are bit for
// bit those of a whole-canvas render.

import InkwellModel

extension Renderer {
  /// Rows per band: a whole number of tiles and of the PNG encoder's 64-row bands.
  public static let bandHeight = 256

  /// Renders `drawing` through `viewport` band by band, top to bottom: `body` receives each band's
  /// pixels (`viewport.width` × up to `bandHeight` rows) and the canvas row it starts at.
  public func renderBands(
    _ drawing: Drawing, viewport: Viewport, background: Color,
    body: (_ band: RGBA8Image, _ firstRow: Int) throws -> Void
  ) rethrows {
    let view = viewport.transform
    // Each stroke's vertical reach in pixels, widened by a pixel for hairlines drawn at the
    // minimum radius, in the order bands will first need them.
    var reach: [(index: Int, top: Float, bottom: Float)] = []
    reach.reserveCapacity(drawing.strokes.count)
    for (index, stroke) in drawing.strokes.enumerated() {
      guard let bounds = stroke.renderBounds else { continue }
      let pixels = view.apply(bounds)
      guard pixels.minY.isFinite, pixels.maxY.isFinite else { continue }
      reach.append((index, pixels.minY - 1, pixels.maxY + 1))
    }
    reach.sort { ($0.top, $0.index) < ($1.top, $1.index) }

    var live: [(index: Int, bottom: Float, primitive: Primitive)] = []
    var next = 0
    let background = LinearColor(background)
    var firstRow = 0
    while firstRow < viewport.height {
      let rows = Swift.min(Self.bandHeight, viewport.height - firstRow)
      let top = Float(firstRow)
      let bottom = Float(firstRow + rows)
      live.removeAll { $0.bottom <= top }
      var added = false
      while next < reach.count, reach[next].top < bottom {
        let item = reach[next]
        next += 1
        guard item.bottom > top,
          let primitive = SceneBuilder.primitive(for: drawing.strokes[item.index], view: view)
        else { continue }
        live.append((item.index, item.bottom, primitive))
        added = true
      }
      if added { live.sort { $0.index < $1.index } }

      var binner = TileBinner(
        grid: TileGrid(width: viewport.width, height: rows), rowOffset: firstRow / TileGrid.tileSize)
      for (order, item) in live.enumerated() { binner.add(item.primitive, index: order) }
      let band = rasterizer.render(
        binner.finish(), primitives: live.map(\.primitive), background: background, threads: threads)
      try body(band, firstRow)
      firstRow += rows
    }
  }
}
