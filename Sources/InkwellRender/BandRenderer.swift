// Band rendering: the canvas in horizontal bands of whole tile rows, each finished band handed to
// the caller before the next begins, so memory follows the band, not the canvas.
//
// A render of the whole canvas holds every primitive's outline and every tile's pieces at once:
// for a 16384 × 16384 page of 40 000 strokes that is hundreds of megabytes before a pixel is
// written, plus a gigabyte of 8-bit pixels. Here a first pass builds each stroke's primitives to
// learn their exact vertical extent (every ink's geometry, whatever its tip does), keeping them
// while they fit a budget of outline points and letting the rest be rebuilt when needed. Strokes
// are sorted by the top of that extent; a band takes the strokes that reach it, keeps them while
// later bands still need them, bins only them, renders its tiles in parallel, and passes its rows
// on. Pieces are cut
// in the canvas's own coordinates (see `TileBinner.rowOffset`), so each band's pixels are bit for
// bit those of a whole-canvas render.

import InkwellModel

extension Renderer {
  /// Rows per band: a whole number of tiles and of the PNG encoder's 64-row bands.
  public static let bandHeight = 256

  /// Outline points kept from the first pass (8 bytes each: 8 MiB); beyond it, strokes are
  /// rebuilt when their band comes. The 16384² memory scene streamed to PNG peaked at 249 MiB with
  /// 4 Mi points kept and 224 MiB with 1 Mi, in the same time within noise (two threads).
  public static let keptOutlinePoints = 1 << 20

  /// Renders `drawing` through `viewport` band by band, top to bottom: `body` receives each band's
  /// pixels (`viewport.width` × up to `bandHeight` rows) and the canvas row it starts at. `resolve`
  /// turns a band's bins into pixels when the default exact sRGB resolve is not wanted (dithering,
  /// tone mapping, another color space); its bins carry the band's `rowOffset`.
  public func renderBands(
    _ drawing: Drawing, viewport: Viewport, background: Color, inks: InkCatalog = .standard,
    resolve: ((TileBins, [Primitive], LinearColor) -> RGBA8Image)? = nil,
    body: (_ band: RGBA8Image, _ firstRow: Int) throws -> Void
  ) rethrows {
    let view = viewport.transform
    // Each stroke's vertical reach in pixels, in the order bands will first need them, with its
    // primitives while the budget lasts.
    var reach: [(index: Int, top: Float, bottom: Float, primitives: [Primitive]?)] = []
    reach.reserveCapacity(drawing.strokes.count)
    var keptPoints = 0
    for (index, stroke) in drawing.strokes.enumerated() {
      let primitives = SceneBuilder.primitives(for: stroke, view: view, inks: inks)
      var top = Float.infinity
      var bottom = -Float.infinity
      var points = 0
      for primitive in primitives {
        guard let bounds = primitive.path.bounds else { continue }
        top = Swift.min(top, bounds.minY)
        bottom = Swift.max(bottom, bounds.maxY)
        points +=
          primitive.path.points.count + (primitive.knockout?.points.count ?? 0)
          + (primitive.clip?.path.points.count ?? 0)
      }
      guard top <= bottom, top.isFinite, bottom.isFinite else { continue }
      let keep = keptPoints + points <= Self.keptOutlinePoints
      if keep { keptPoints += points }
      reach.append((index, top, bottom, keep ? primitives : nil))
    }
    reach.sort { ($0.top, $0.index) < ($1.top, $1.index) }

    var live: [(index: Int, bottom: Float, primitives: [Primitive])] = []
    var next = 0
    let background = LinearColor(background)
    var firstRow = 0
    // Every band bins into the arrays the band above used (the finished lists only: see
    // `BinStorage.init(keepsRunArrays:)`).
    let storage = BinStorage(keepsRunArrays: false)
    while firstRow < viewport.height {
      let rows = Swift.min(Self.bandHeight, viewport.height - firstRow)
      let top = Float(firstRow)
      let bottom = Float(firstRow + rows)
      live.removeAll { $0.bottom < top }
      var added = false
      while next < reach.count, reach[next].top < bottom {
        let item = reach[next]
        next += 1
        guard item.bottom >= top else { continue }
        let primitives =
          item.primitives ?? SceneBuilder.primitives(for: drawing.strokes[item.index], view: view, inks: inks)
        reach[next - 1].primitives = nil
        live.append((item.index, item.bottom, primitives))
        added = true
      }
      if added { live.sort { $0.index < $1.index } }

      let primitives = live.flatMap(\.primitives)
      let bins = Self.bin(
        primitives, width: viewport.width, height: rows, rowOffset: firstRow / TileGrid.tileSize,
        threads: threads, storage: storage)
      let band =
        resolve?(bins, primitives, background)
        ?? rasterizer.render(bins, primitives: primitives, background: background, threads: threads)
      storage.recycle(bins)
      try body(band, firstRow)
      firstRow += rows
    }
  }
}
