import InkwellModel

/// Turns a drawing into primitives for one view.
public enum SceneBuilder {
  /// The drawing's strokes as primitives, in paint order, for the map `view` from drawing
  /// coordinates to pixels, each stroke drawn by the brush `inks` picks for it and clipped by its
  /// mask. Strokes that draw nothing are left out.
  public static func primitives(
    for drawing: Drawing, view: AffineTransform, inks: InkCatalog = .standard
  ) -> [Primitive] {
    var result: [Primitive] = []
    result.reserveCapacity(drawing.strokes.count)
    for stroke in drawing.strokes {
      appendPrimitives(for: stroke, view: view, inks: inks, to: &result)
    }
    return result
  }

  /// Appends `primitives(for: stroke, view: view, inks: inks)` to `result`. An unmasked stroke's
  /// brush appends straight to `result` (`Brush.appendPrimitives`), and what it appended that
  /// draws nothing is taken out again (the built-in pen appends nothing such).
  @inline(__always)
  static func appendPrimitives(
    for stroke: Stroke, view: AffineTransform, inks: InkCatalog, to result: inout [Primitive]
  ) {
    guard stroke.mask.map({ $0.isEmpty }) ?? true else {
      result.append(contentsOf: primitives(for: stroke, view: view, inks: inks))
      return
    }
    if inks.chooser == nil && inks.builtInPen && stroke.ink.type == .pen {
      // The pen appends only primitives that draw something (a color of positive alpha, an
      // outline of at least two points), so nothing is taken out again.
      PenInk().appendPrimitives(for: stroke, view: view, to: &result)
      return
    }
    let start = result.count
    inks.brush(for: stroke).appendPrimitives(for: stroke, view: view, to: &result)
    var kept = start
    for index in start..<result.count where result[index].color.alpha > 0 && !result[index].path.isEmpty {
      if kept != index { result.swapAt(kept, index) }
      kept += 1
    }
    if kept < result.count { result.removeLast(result.count - kept) }
  }

  /// Like `primitives(for:view:inks:)`, with contiguous runs of strokes built on up to `threads`
  /// threads and joined in stroke order: the primitives, and so the image, are the same for any
  /// thread count. Outlines are built independently, stroke by stroke, so the stage scales with
  /// the threads where the single-threaded build would otherwise hold up a parallel raster. A
  /// thread is only handed work when the build's `estimatedWork` gives it at least
  /// `minimumWorkPerThread` (0: every thread offered, up to a run of four strokes each).
  public static func primitives(
    for drawing: Drawing, view: AffineTransform, inks: InkCatalog = .standard, threads: Int,
    minimumWorkPerThread: Int = SceneBuilder.minimumWorkPerThread
  ) -> [Primitive] {
    let strokes = drawing.strokes
    // Several runs a thread, so a run of long strokes does not hold the others up; below a few
    // strokes a run costs less than the hand-off.
    var workers = Swift.min(threads, strokes.count / 4)
    if workers > 1 && minimumWorkPerThread > 0 {
      workers = Swift.min(workers, estimatedWork(of: strokes, view: view) / minimumWorkPerThread)
    }
    guard workers > 1 else { return primitives(for: drawing, view: view, inks: inks) }
    let runs = Swift.min(workers * 8, strokes.count / 4)
    let slots = PrimitiveRuns(count: runs)
    defer { slots.release() }
    TileScheduler.dispatch.forEachJob(runs, workers) { run, _ in
      let start = strokes.count * run / runs
      let end = strokes.count * (run + 1) / runs
      var result: [Primitive] = []
      result.reserveCapacity(end - start)
      for stroke in strokes[start..<end] {
        appendPrimitives(for: stroke, view: view, inks: inks, to: &result)
      }
      slots.store(result, at: run)
    }
    var result: [Primitive] = []
    result.reserveCapacity((0..<runs).reduce(0) { $0 + slots.count(at: $1) })
    for run in 0..<runs { result.append(contentsOf: slots.take(run)) }
    return result
  }

  /// The default `minimumWorkPerThread`, the rasterizer's: about 60 µs of one thread's work.
  /// Handing a thread less cost more than it saved: on two threads the build of 16 thumbnail
  /// strokes took 1.6 times as long as on one, and within a whole thumbnail render the build of
  /// 60 (about 100 µs) saved no time and cost a tenth more CPU (docs/performance.md, "Threads for
  /// small renders").
  public static let minimumWorkPerThread = TileRasterizer.defaultMinimumWorkPerThread

  /// The build's work on one thread, in units of about a nanosecond on the machine of
  /// docs/performance.md: the pen takes about 24 ns a recorded point at a sixth of the page's
  /// size and 82 at full size (the thumbnail pages' strokes), so a point counts 20 + 60 times the
  /// view's scale, the scale taken as at most 2.
  public static func estimatedWork(of strokes: [Stroke], view: AffineTransform) -> Int {
    var points = 0
    for stroke in strokes { points += stroke.path.count }
    let scale = view.meanScale
    let perPoint = 20 + 60 * Double(scale.isFinite ? Swift.min(Swift.max(scale, 0), 2) : 2)
    return Int(Double(points) * perPoint)
  }

  /// One stroke's primitives, drawn by the brush `inks` picks for it and clipped by its mask;
  /// empty when the stroke draws nothing.
  public static func primitives(
    for stroke: Stroke, view: AffineTransform, inks: InkCatalog = .standard
  ) -> [Primitive] {
    let primitives = inks.brush(for: stroke).primitives(for: stroke, view: view)
    guard !primitives.isEmpty else { return [] }
    let unmasked = stroke.mask.map { $0.isEmpty } ?? true
    // The usual stroke: no mask, every primitive drawing something; the brush's array is the result.
    if unmasked, primitives.allSatisfy({ $0.color.alpha > 0 && !$0.path.isEmpty }) { return primitives }
    var clip: ClipPath?
    var erased: FlatPath?
    if !unmasked, let mask = stroke.mask {
      let toPixels = stroke.transform.concatenating(view)
      clip = mask.clip.map { contours in
        ClipPath(path: FlatPath(contours: contours.map { $0.map(toPixels.apply) }), rule: mask.fillRule)
      }
      erased = knockout(of: mask.erasures, toPixels: toPixels)
    }
    var result: [Primitive] = []
    for var primitive in primitives where primitive.color.alpha > 0 && !primitive.path.isEmpty {
      if let clip { primitive.clip = clip }
      if let erased {
        if var knockout = primitive.knockout {
          erased.forEachContour { knockout.append(contour: Array($0)) }
          primitive.knockout = knockout
        } else {
          primitive.knockout = erased
        }
      }
      result.append(primitive)
    }
    return result
  }

  /// The union of eraser sweeps as one non-zero path in pixel space: each sweep's outline is the
  /// boundary of its discs and the capsules between them, and all outlines wind the same way, so
  /// where sweeps overlap the winding only grows.
  static func knockout(of sweeps: [EraserSweep], toPixels: AffineTransform) -> FlatPath? {
    let scale = toPixels.meanScale
    var path = FlatPath()
    for sweep in sweeps {
      let samples = zip(sweep.centers, sweep.radii).compactMap { center, radius -> PenSample? in
        let c = toPixels.apply(center)
        let r = radius * scale
        guard c.x.isFinite, c.y.isFinite, r.isFinite, r > 0 else { return nil }
        return PenSample(center: c, radius: r)
      }
      path.append(contour: PenBrush.outline(of: samples))
    }
    return path.isEmpty ? nil : path
  }
}

/// The primitives of each run of strokes, each slot written by the one worker that built the run.
private final class PrimitiveRuns: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<[Primitive]>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: count)
    slots.initialize(repeating: [], count: count)
  }

  func store(_ primitives: [Primitive], at index: Int) { slots[index] = primitives }

  func count(at index: Int) -> Int { slots[index].count }

  func take(_ index: Int) -> [Primitive] {
    let primitives = slots[index]
    slots[index] = []
    return primitives
  }

  func release() {
    slots.deinitialize(count: count)
    slots.deallocate()
  }
}
