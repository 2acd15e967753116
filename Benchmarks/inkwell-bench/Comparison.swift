// The side-by-side comparison: Inkwell against Blend2D, Skia and Cairo on the same polygons, and
// Inkwell's own strokes → pixels path against its polygon fill.
//
// Per scene: the strokes become primitives (SceneBuilder, at the output scale) and are written as
// an INKOUTL1 polygon file; Inkwell's `fill` reads that file back (untimed) and times binning,
// raster and resolve to 8-bit pixels; each peer's worker reads the same file and builds its paths
// before any clock starts. `ink` times SceneBuilder + bin + raster + resolve from the drawing in
// memory (parsing and PNG encoding are the staged table's business); thumbs also times ink with
// PNG encoding (stage `png`), and huge times its document file written to PNG band by band in a
// child process, as the command line writes it (stage `stream`, with that process's peak memory). All variants of a scene run once to warm up (the run whose
// peak memory is kept), then round-robin for the timed runs (A B C … A B C …).

import Dispatch
import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scene of the comparison: one or more documents, and the output size they are drawn at.
struct ComparisonScene {
  let name: String
  let summary: String
  /// Document size in units, and the output size (uniform scale outWidth / width).
  let width: Int
  let height: Int
  let outWidth: Int
  let outHeight: Int
  /// Where the region starts in document units (the corpus' canvases need not start at 0).
  var originX: Float = 0
  var originY: Float = 0
  /// Builds the drawings; empty for scenes that are primitives only (fill-rate).
  let drawings: () -> [Drawing]
  /// Primitives that stand for the scene when it has no drawing.
  var fixedPrimitives: [Primitive] = []
  /// Also time ink with PNG encoding.
  var encodesPNG = false
  /// Also time writing a float RGBA buffer of the output's size once (fill-rate's yardstick).
  var measuresFloatWrite = false
  /// Also render the document file to PNG band by band in a child process (stage `stream`), for
  /// that process's peak memory (the memory scene).
  var streamsPNG = false

  var scale: Float { Float(outWidth) / Float(width) }

  var view: AffineTransform {
    AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: -originX * scale, ty: -originY * scale)
  }

  static func synthetic(_ scene: SyntheticScene) -> ComparisonScene {
    ComparisonScene(
      name: scene.name, summary: scene.summary, width: scene.width, height: scene.height,
      outWidth: scene.width, outHeight: scene.height, drawings: { [scene.document().drawing] })
  }

  static var huge: ComparisonScene {
    var scene = synthetic(.huge)
    scene.streamsPNG = true
    return scene
  }

  static let thumbnailCount = 200

  static var thumbs: ComparisonScene {
    let page = SyntheticScene.thumbnailPage(0)
    let outWidth = 256
    let outHeight = Int((Double(page.height) * Double(outWidth) / Double(page.width)).rounded(.down))
    var scene = ComparisonScene(
      name: "thumbs",
      summary: "\(thumbnailCount) pages of 60 strokes on 1536×2048, each drawn at \(outWidth)×\(outHeight)",
      width: page.width, height: page.height, outWidth: outWidth, outHeight: outHeight,
      drawings: { (0..<thumbnailCount).map { SyntheticScene.thumbnailPage($0).document().drawing } })
    scene.encodesPNG = true
    return scene
  }

  static var fillRate: ComparisonScene {
    let side = 4096
    let rectangle = FlatPath(contours: [
      [
        Point(x: 0, y: 0), Point(x: Float(side), y: 0), Point(x: Float(side), y: Float(side)),
        Point(x: 0, y: Float(side)),
      ]
    ])
    var scene = ComparisonScene(
      name: "fill-rate", summary: "4096×4096 cleared and covered by one opaque rectangle",
      width: side, height: side, outWidth: side, outHeight: side, drawings: { [] })
    scene.fixedPrimitives = [
      Primitive(path: rectangle, color: LinearColor(Color(red: 0.2, green: 0.4, blue: 0.8)))
    ]
    scene.measuresFloatWrite = true
    return scene
  }

  /// A loaded document (the corpus) at scale 1.
  static func document(_ bench: BenchScene) -> ComparisonScene? {
    guard let document = try? bench.format.load(bench.bytes) else { return nil }
    let canvas = document.canvas
    let width = Swift.max(1, Int(canvas.width.rounded(.up)))
    let height = Swift.max(1, Int(canvas.height.rounded(.up)))
    var scene = ComparisonScene(
      name: bench.name, summary: bench.origin, width: width, height: height, outWidth: width,
      outHeight: height,
      drawings: { [document.drawing] })
    scene.originX = canvas.minX
    scene.originY = canvas.minY
    return scene
  }
}

/// One engine × mode × thread count on one scene, and what it measured.
struct ComparisonRow {
  let scene: String
  let engine: String
  let mode: String
  /// "fill" for fills, "pixels" for ink to pixels, "png" for ink to PNG bytes, "stream" for a
  /// document file to a PNG file band by band in a child process.
  let stage: String
  let threads: Int
  var samples: [Double] = []
  var peakRSSKiB = 0
  /// Resident size just before the warm-up (Inkwell rows only), KiB.
  var baselineRSSKiB = 0
  var note = ""

  var summary: TimingSummary? { samples.isEmpty ? nil : TimingSummary(samples) }
}

/// Renders several documents, `threads` at a time, each on one thread; one document on `threads`.
/// `worker` (0 ..< threads) names the thread, so each can reuse its own output image.
private func forEachDocument(
  count: Int, threads: Int, _ body: @Sendable (_ index: Int, _ threads: Int, _ worker: Int) -> Void
) {
  if threads <= 1 || count == 1 {
    for index in 0..<count { body(index, threads, 0) }
    return
  }
  // Documents taken from a shared counter, as the library's tile scheduler takes rows: a worker
  // slowed by the rest of the machine renders fewer documents instead of holding the others up.
  TileScheduler.dispatch.forEachJob(count, Swift.min(threads, count)) { index, worker in
    body(index, 1, worker)
  }
}

/// One output image per worker, allocated and written once before any timing, as the peers'
/// surfaces are: each timed run renders into the same pixels (`Renderer.render(_:into:)`). Each
/// worker also has a `BinStorage` that lives as long as the variant, as a long-lived rendering
/// thread would keep one, so the bin arrays keep their memory from one run to the next (the
/// warm-up run sizes them).
private final class OutputImages: @unchecked Sendable {
  /// Disjoint slots, one per worker, so workers never touch the same image.
  private let images: UnsafeMutablePointer<RGBA8Image>
  private let storages: [BinStorage]
  private let count: Int

  init(width: Int, height: Int, storages: [BinStorage]) {
    count = storages.count
    self.storages = storages
    images = .allocate(capacity: count)
    for i in 0..<count {
      (images + i).initialize(
        to: RGBA8Image(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
      )
    }
  }

  /// Renders into worker `worker`'s image; returns it when `keep` (a copy on the next render).
  func render(_ primitives: [Primitive], worker: Int, threads: Int, keep: Bool) -> RGBA8Image? {
    Renderer(threads: threads).render(
      primitives, into: &images[worker], background: .white, storage: storages[worker])
    return keep ? images[worker] : nil
  }

  func release() {
    images.deinitialize(count: count)
    images.deallocate()
  }
}

/// Holds the first document's output across threads (only the body for index 0 writes it).
private final class FirstImage: @unchecked Sendable {
  /// Whether the next fill should keep its first document (only once, and only when images are
  /// written: a kept image of `huge` is 1 GiB that would count in every later variant's peak).
  var wanted = false
  var image: RGBA8Image?
  var pngBytes = 0
}

/// Options of the comparison, from the command line.
struct ComparisonSettings {
  var runs: Int
  var threadCounts: [Int]
  var python: String?
  var script: String
  var polygonDirectory: String
  var imageDirectory: String?
}

enum Comparison {
  static let peerEngines = ["blend2d", "skia-n32", "skia-f16", "cairo"]

  /// Extra rounds for quick scenes. The host switches between a fast and a slow state for
  /// seconds at a time, and a scene whose round takes half a second sees a few rounds of each: a
  /// median of five then moved a ratio by up to a third from one run to the next. A scene whose
  /// rounds together take under `extraRoundSeconds` runs more rounds, up to `extraRoundFactor`
  /// times `--runs`; the slow scenes (sketch, big, huge) keep `--runs`. The rule depends only on
  /// the time elapsed, never on the results.
  static let extraRoundFactor = 3
  static let extraRoundSeconds = 10.0

  /// Measures `scene`; returns its rows (peers that could not run get a row with a note).
  static func run(_ scene: ComparisonScene, settings: ComparisonSettings, log: (String) -> Void)
    -> [ComparisonRow]
  {
    log("comparison \(scene.name): building")
    let drawings = scene.drawings()
    let view = scene.view
    let fileName = scene.name.map { $0 == "/" ? "_" : $0 }
    let polygonPath = settings.polygonDirectory + "/" + String(fileName) + ".bin"
    do {
      var statistics = PolygonFile.Statistics()
      var documents: [[OutlinePolygon]] = []
      let primitiveSets =
        drawings.isEmpty
        ? [scene.fixedPrimitives]
        : drawings.map {
          SceneBuilder.primitives(for: $0, view: view)
        }
      for (index, primitives) in primitiveSets.enumerated() {
        documents.append(
          primitives.compactMap {
            PolygonFile.polygon(of: $0, document: index, scale: scene.scale, statistics: &statistics)
          })
      }
      try PolygonFile.write(
        PolygonScene(
          width: scene.width, height: scene.height, outWidth: scene.outWidth, outHeight: scene.outHeight,
          documents: documents), to: polygonPath)
      log(
        "comparison \(scene.name): \(statistics.polygons) polygons, \(statistics.vertices) vertices → \(polygonPath)"
          + (statistics.joinedContours > 0 ? "; \(statistics.joinedContours) multi-contour joined" : "")
          + (statistics.droppedMasks > 0 ? "; \(statistics.droppedMasks) masks dropped" : "")
          + (statistics.evenOdd > 0 ? "; \(statistics.evenOdd) even-odd written as non-zero" : ""))
    } catch {
      log("comparison \(scene.name): \(error)")
      return []
    }

    // Variants: each a row and a closure doing one run (timed inside), returning milliseconds.
    var rows: [ComparisonRow] = []
    var actions: [() -> Double?] = []
    let width = scene.outWidth
    let height = scene.outHeight
    let first = FirstImage()
    first.wanted = settings.imageDirectory != nil
    // The yardstick's buffer, written once before timing so that its pages are mapped.
    let floatBuffer = UnsafeMutableBufferPointer<Float>.allocate(
      capacity: scene.measuresFloatWrite ? width * height * 4 : 0)
    floatBuffer.initialize(repeating: 0)
    defer { floatBuffer.deallocate() }
    // And the 8-bit page's: what writing the image once takes, the least any engine can take.
    let pageBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(
      capacity: scene.measuresFloatWrite ? width * height * 4 : 0)
    pageBuffer.initialize(repeating: 0)
    defer { pageBuffer.deallocate() }

    for threads in settings.threadCounts {
      rows.append(
        ComparisonRow(scene: scene.name, engine: "inkwell", mode: "fill", stage: "fill", threads: threads))
      let storages = (0..<threads).map { _ in BinStorage() }
      actions.append {
        // Untimed: the polygons back from the file, as Inkwell primitives, and the output images.
        guard let polygons = try? PolygonFile.read(polygonPath) else { return nil }
        let documents = (0..<polygons.documents.count).map { polygons.primitives(document: $0) }
        let images = OutputImages(width: width, height: height, storages: storages)
        defer { images.release() }
        let start = MonotonicClock.nanoseconds()
        forEachDocument(count: documents.count, threads: threads) { index, threads, worker in
          let keep = index == 0 && first.wanted
          if let image = images.render(documents[index], worker: worker, threads: threads, keep: keep) {
            first.image = image
            first.wanted = false
          }
        }
        return MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
      }
    }
    if !drawings.isEmpty {
      let stages = scene.encodesPNG ? ["pixels", "png"] : ["pixels"]
      for stage in stages {
        for threads in settings.threadCounts {
          rows.append(
            ComparisonRow(scene: scene.name, engine: "inkwell", mode: "ink", stage: stage, threads: threads))
          let encode = stage == "png"
          let storages = (0..<threads).map { _ in BinStorage() }
          actions.append {
            let images = OutputImages(width: width, height: height, storages: storages)
            defer { images.release() }
            let start = MonotonicClock.nanoseconds()
            forEachDocument(count: drawings.count, threads: threads) { index, threads, worker in
              let primitives = SceneBuilder.primitives(for: drawings[index], view: view, threads: threads)
              let image = images.render(primitives, worker: worker, threads: threads, keep: encode)
              if encode, let image {
                let bytes = (try? image.pngData(threads: threads))?.count ?? 0
                if index == 0 { first.pngBytes = bytes }
              }
            }
            return MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
          }
        }
      }
    }
    if scene.measuresFloatWrite {
      rows.append(
        ComparisonRow(scene: scene.name, engine: "float-rgba-write", mode: "fill", stage: "fill", threads: 1))
      let buffer = floatBuffer
      var value: Float = 0
      actions.append {
        value += 1
        let start = MonotonicClock.nanoseconds()
        buffer.update(repeating: value)
        return MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
      }
      rows.append(
        ComparisonRow(scene: scene.name, engine: "rgba8-page-write", mode: "fill", stage: "fill", threads: 1))
      let page = pageBuffer
      var byte: UInt8 = 0
      actions.append {
        byte &+= 1
        let start = MonotonicClock.nanoseconds()
        page.update(repeating: byte)
        return MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
      }
    }
    let inkwellVariants = rows.count

    // The document written to PNG by a child process (the command line's streamed path), timed
    // from reading the file to the committed PNG; its peak memory is the child's own.
    var streamChildren: [(row: Int, child: StreamPNGChild)] = []
    if scene.streamsPNG, drawings.count == 1 {
      let documentPath = settings.polygonDirectory + "/" + String(fileName) + ".inkwell"
      let bounds = Rect(
        x: scene.originX, y: scene.originY, width: Float(scene.width), height: Float(scene.height))
      do {
        try writeFile(
          documentPath, bytes: try BinaryFormat.encode(Document(bounds: bounds, drawing: drawings[0])))
        for threads in settings.threadCounts {
          let child = StreamPNGChild(
            document: documentPath,
            output: settings.polygonDirectory + "/" + String(fileName) + "-stream.png",
            threads: threads)
          rows.append(
            ComparisonRow(
              scene: scene.name, engine: "inkwell", mode: "ink", stage: "stream", threads: threads))
          actions.append { child.run() }
          streamChildren.append((rows.count - 1, child))
        }
      } catch {
        log("comparison \(scene.name): cannot write \(documentPath): \(error)")
      }
    }

    var workers: [PeerWorker] = []
    if let python = settings.python {
      // All workers build their paths at once; then each is waited for in turn.
      log("comparison \(scene.name): starting \(peerEngines.joined(separator: ", "))")
      let started = peerEngines.map {
        PeerWorker(engine: $0, python: python, script: settings.script, polygonFile: polygonPath)
      }
      for worker in started {
        worker.waitUntilReady()
        let engine = worker.engine
        var row = ComparisonRow(scene: scene.name, engine: engine, mode: "fill", stage: "fill", threads: 1)
        if worker.isReady {
          row.note = worker.version
          rows.append(row)
          actions.append { worker.run() }
          workers.append(worker)
        } else {
          row.note = "missing: " + (worker.problem ?? "?")
          rows.append(row)
          actions.append { nil }  // keeps actions[i] the action of rows[i]; never run
          worker.stop()
        }
      }
    }
    defer { for worker in workers { worker.stop() } }

    // Warm-up, with peak memory per Inkwell variant.
    for index in actions.indices {
      if rows[index].note.hasPrefix("missing") { continue }
      log(
        "comparison \(scene.name): warm-up \(rows[index].engine) \(rows[index].mode)/\(rows[index].stage) ×\(rows[index].threads)"
      )
      if index < inkwellVariants {
        _ = PeakMemory.resetPeak()
        rows[index].baselineRSSKiB = PeakMemory.peakKiB()
      }
      if actions[index]() == nil { rows[index].note = "failed" }
      if index < inkwellVariants { rows[index].peakRSSKiB = PeakMemory.peakKiB() }
    }
    if let directory = settings.imageDirectory, let image = first.image {
      makeDirectories(directory)
      if let bytes = try? image.pngData(threads: 2) {
        try? writeFile(directory + "/" + String(fileName) + "-inkwell.png", bytes: bytes)
      }
      for worker in workers {
        _ = worker.writeImage(to: directory + "/" + String(fileName) + "-" + worker.engine + ".png")
      }
    }
    first.image = nil

    // At least `runs` rounds; more, up to `extraRoundFactor` times as many, while the rounds so
    // far took under `extraRoundSeconds` (see `extraRounds`).
    let roundsStart = MonotonicClock.nanoseconds()
    var round = 0
    while round < settings.runs
      || (round < Self.extraRoundFactor * settings.runs
        && MonotonicClock.milliseconds(from: roundsStart, to: MonotonicClock.nanoseconds())
          < Self.extraRoundSeconds * 1000)
    {
      round += 1
      log("comparison \(scene.name): run \(round) (at least \(settings.runs))")
      for index in actions.indices
      where !rows[index].note.hasPrefix("missing") && rows[index].note != "failed" {
        if let milliseconds = actions[index]() { rows[index].samples.append(milliseconds) }
      }
    }
    for (offset, worker) in workers.enumerated() {
      let index = rows.firstIndex { $0.engine == worker.engine } ?? inkwellVariants + offset
      rows[index].peakRSSKiB = worker.peakRSSKiB
    }
    for (index, child) in streamChildren {
      rows[index].peakRSSKiB = child.peakKiB
      if let problem = child.problem { rows[index].note = problem }
    }
    if first.pngBytes > 0, let index = rows.firstIndex(where: { $0.stage == "png" }) {
      rows[index].note = "first document \(first.pngBytes) PNG bytes"
    }
    return rows
  }
}
