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

  /// `scheduler` spreads tile rows over the `threads` threads (Dispatch unless given), and a
  /// render too small to give each thread `minimumWorkPerThread` uses fewer
  /// (`TileRasterizer.workers(for:threads:)`); the image depends on neither.
  public init(
    threads: Int = 1, kernels: RasterKernels = .native, paintKernels: PaintKernels = .native,
    scheduler: TileScheduler = .dispatch,
    minimumWorkPerThread: Int = TileRasterizer.defaultMinimumWorkPerThread
  ) {
    self.threads = Swift.max(1, threads)
    self.rasterizer = TileRasterizer(
      kernels: kernels, paintKernels: paintKernels, scheduler: scheduler,
      minimumWorkPerThread: minimumWorkPerThread)
  }

  /// `drawing` as seen through `viewport`, over `background` (sRGB; `.clear` for transparent),
  /// each stroke drawn by the brush `inks` picks for it.
  public func render(
    _ drawing: Drawing, viewport: Viewport, background: Color, inks: InkCatalog = .standard
  ) -> RGBA8Image {
    let primitives = SceneBuilder.primitives(
      for: drawing, view: viewport.transform, inks: inks, threads: threads)
    return render(primitives, width: viewport.width, height: viewport.height, background: background)
  }

  /// Fills `primitives` in order onto a `width` × `height` canvas over `background`.
  public func render(_ primitives: [Primitive], width: Int, height: Int, background: Color) -> RGBA8Image {
    rasterizer.render(
      Self.bin(primitives, width: width, height: height, threads: threads), primitives: primitives,
      background: LinearColor(background), threads: threads)
  }

  /// Fills `primitives` in order over `background` into `image` (its size is the canvas's),
  /// overwriting every pixel: reusing one image across renders of the same size spares the
  /// allocation and the first touch of a fresh buffer, which on a large page costs as much as
  /// filling it.
  /// With `storage`, the bin stage reuses the arrays of the renders before (see `BinStorage`).
  public func render(
    _ primitives: [Primitive], into image: inout RGBA8Image, background: Color, storage: BinStorage? = nil
  ) {
    let bins = Self.bin(
      primitives, width: image.width, height: image.height, threads: threads, storage: storage)
    rasterizer.render(
      bins, primitives: primitives, background: LinearColor(background), threads: threads, into: &image)
    storage?.recycle(bins)
  }

  /// Like `render(_:width:height:background:)`, to premultiplied linear float RGBA.
  public func renderLinear(_ primitives: [Primitive], width: Int, height: Int, background: LinearColor)
    -> [Float]
  {
    rasterizer.renderLinear(
      Self.bin(primitives, width: width, height: height, threads: threads), primitives: primitives,
      background: background,
      threads: threads)
  }

  /// The bin stage on its own: `primitives` sorted into tile lists for a `width` × `height` canvas
  /// (or a band of a taller one starting at tile row `rowOffset`), as `render` does before
  /// rasterizing. With several threads, contiguous runs of primitives are binned in parallel and
  /// joined in order, so the tile lists are the same for any thread count.
  /// `storage`, when given, lends the arrays (see `BinStorage`); hand it the bins back with
  /// `BinStorage.recycle` once they have been rendered.
  public static func bin(
    _ primitives: [Primitive], width: Int, height: Int, rowOffset: Int = 0, threads: Int = 1,
    storage: BinStorage? = nil
  ) -> TileBins {
    let grid = TileGrid(width: width, height: height)
    // Below this many primitives a run costs less than the hand-off.
    let runs = threads > 1 ? Swift.min(threads * 4, primitives.count / 64) : 1
    guard runs > 1 else {
      var binner =
        storage.map { TileBinner(grid: grid, rowOffset: rowOffset, arrays: $0.takeRun(0)) }
        ?? TileBinner(grid: grid, rowOffset: rowOffset)
      primitives.withUnsafeBufferPointer { primitives in
        binner.reserveCapacity(pieces: estimatedPieces(primitives))
        for index in primitives.indices {
          binner.add(primitiveAt: primitives.baseAddress! + index, index: index)
        }
      }
      return binner.finish(storage: storage)
    }
    let slots = BinnerSlots(count: runs)
    defer { slots.release() }
    if let storage {
      for run in 0..<runs { slots.lend(storage.takeRun(run), at: run) }
    }
    let workers = Swift.min(threads, runs)
    primitives.withUnsafeBufferPointer { buffer in
      let source = SharedPrimitives(base: buffer.baseAddress!, count: buffer.count)
      // Each worker takes the next run as it finishes one, so a thread slowed by the machine does
      // not hold the others up; every run lands in its own slot, joined in order below.
      TileScheduler.dispatch.forEachJob(runs, workers) { run, _ in
        let start = source.count * run / runs
        let end = source.count * (run + 1) / runs
        var binner = TileBinner(grid: grid, rowOffset: rowOffset, arrays: slots.borrowed(run))
        let slice = UnsafeBufferPointer(start: source.base + start, count: end - start)
        binner.reserveCapacity(pieces: estimatedPieces(slice))
        for index in start..<end { binner.add(primitiveAt: source.base + index, index: index) }
        slots.store(binner, at: run)
      }
    }
    return TileBinner.finish(joining: (0..<runs).map { slots.take($0) }, threads: threads, storage: storage)
  }
}

/// About as many pieces as binning `primitives` makes: one an edge, and an eighth more for edges
/// cut at tile borders (the sketch and big scenes make 1.03–1.06 an edge).
private func estimatedPieces(_ primitives: UnsafeBufferPointer<Primitive>) -> Int {
  var points = 0
  for index in primitives.indices {
    points +=
      primitives[index].path.points.count + (primitives[index].clip?.path.points.count ?? 0)
      + (primitives[index].knockout?.points.count ?? 0)
  }
  return points + points / 8
}

/// The primitives, read by every binning worker.
private struct SharedPrimitives: @unchecked Sendable {
  let base: UnsafePointer<Primitive>
  let count: Int
}

/// One binner per run, each written by the worker that binned it (disjoint slots, so no lock).
private final class BinnerSlots: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<TileBinner?>
  /// Arrays lent to each run by a `BinStorage` (empty when there is none).
  private let lent: UnsafeMutablePointer<BinStorage.RunArrays>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil, count: count)
    lent = .allocate(capacity: count)
    lent.initialize(repeating: BinStorage.RunArrays(), count: count)
  }

  func lend(_ arrays: BinStorage.RunArrays, at index: Int) { lent[index] = arrays }

  /// The arrays lent to run `index`, handed over once.
  func borrowed(_ index: Int) -> BinStorage.RunArrays {
    let arrays = lent[index]
    lent[index] = BinStorage.RunArrays()
    return arrays
  }

  func store(_ binner: TileBinner, at index: Int) { slots[index] = binner }

  /// The run's binner; every run is stored before any is taken.
  func take(_ index: Int) -> TileBinner {
    guard let binner = slots[index] else { preconditionFailure("run \(index) was not binned") }
    slots[index] = nil
    return binner
  }

  func release() {
    slots.deinitialize(count: count)
    slots.deallocate()
    lent.deinitialize(count: count)
    lent.deallocate()
  }
}
