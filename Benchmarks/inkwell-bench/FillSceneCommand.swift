// `inkwell-bench --fill-scene FILE.bin [--threads N] [--runs N] [--idle MS] [-o OUT.png]`: any
// INKOUTL1 file filled by Inkwell, timed as the comparison times it (binning, raster, resolve to
// 8-bit pixels), and optionally written out so that its coverage can be compared with a peer's
// pixel for pixel. `--idle` sleeps before each timed run (untimed), so that the threads have gone
// idle when the render starts, as between the comparison's interleaved engines.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@MainActor
enum FillSceneCommand {
  /// Returns the process's exit status.
  static func run(path: String, threads: Int, runs: Int, idleMilliseconds: Int, output: String?) -> Int32 {
    guard let scene = PolygonFile.readReportingErrors(path) else { return 1 }
    let documents = (0..<scene.documents.count).map { scene.primitives(document: $0) }
    // Images allocated before timing, as the comparison and the peers do: one that every document
    // is rendered into, as the comparison's worker does; one per document only when they are to be
    // written out (then each document's pixels are cold, which costs the many-document scenes).
    var images = (0..<(output == nil ? 1 : documents.count)).map { _ in
      RGBA8Image(
        width: scene.outWidth, height: scene.outHeight,
        pixels: [UInt8](repeating: 0, count: scene.outWidth * scene.outHeight * 4))
    }
    let storage = BinStorage()
    func renderAll() {
      for index in documents.indices {
        Renderer(threads: threads).render(
          documents[index], into: &images[index % images.count], background: .white, storage: storage)
      }
    }
    renderAll()  // warm-up
    var samples: [Double] = []
    for _ in 0..<runs {
      if idleMilliseconds > 0 { usleep(UInt32(idleMilliseconds) * 1000) }
      let start = MonotonicClock.nanoseconds()
      renderAll()
      samples.append(MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds()))
    }
    let summary = TimingSummary(samples)
    // To the microsecond or finer below 10 ms: a small page's fill takes tens of microseconds.
    let digits = summary.median < 1 ? 4 : summary.median < 10 ? 3 : 2
    print(
      "\(path): \(scene.width)×\(scene.height) → \(scene.outWidth)×\(scene.outHeight), "
        + "\(scene.documents.count) document(s), \(scene.polygonCount) polygons; fill on \(threads) thread(s): "
        + "median \(fixed(summary.median, digits)) ms (min \(fixed(summary.minimum, digits)), max \(fixed(summary.maximum, digits)))"
        + (idleMilliseconds > 0 ? ", each after \(idleMilliseconds) ms idle" : "")
    )
    guard let output else { return 0 }
    let stem = output.hasSuffix(".png") ? String(output.dropLast(4)) : output
    for (index, image) in images.enumerated() {
      let target = index == 0 ? output : stem + "-\(index).png"
      do {
        try writeFile(target, bytes: try image.pngData(threads: threads))
      } catch {
        print("inkwell-bench: \(error)", to: &standardError)
        return 1
      }
    }
    print("wrote \(output)" + (images.count > 1 ? " and \(images.count - 1) more" : ""))
    return 0
  }
}
