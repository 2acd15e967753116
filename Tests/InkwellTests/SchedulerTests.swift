import CInkwellThreads
import Dispatch
import InkwellModel
import InkwellRender
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Schedulers that hand out the rasterizer's jobs in other orders and on other threads than
/// Dispatch's default.
enum CustomScheduler: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// Every job on the calling thread, in order.
  case serial
  /// Every job on the calling thread, last first.
  case reversed
  /// Contiguous blocks of jobs, one block per worker, on Dispatch.
  case blocks
  /// Odd jobs first, then even, on a single worker however many were offered.
  case oddThenEven

  var testDescription: String { rawValue }

  var scheduler: TileScheduler {
    switch self {
    case .serial:
      return TileScheduler { jobs, _, body in
        for job in 0..<jobs { body(job, 0) }
      }
    case .reversed:
      return TileScheduler { jobs, _, body in
        for job in (0..<jobs).reversed() { body(job, 0) }
      }
    case .blocks:
      return TileScheduler { jobs, workers, body in
        let size = (jobs + workers - 1) / workers
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
          for job in (worker * size)..<Swift.min(jobs, (worker + 1) * size) { body(job, worker) }
        }
      }
    case .oddThenEven:
      return TileScheduler { jobs, _, body in
        for job in stride(from: 1, to: jobs, by: 2) { body(job, 0) }
        for job in stride(from: 0, to: jobs, by: 2) { body(job, 0) }
      }
    }
  }
}

@Suite("Tile schedulers")
struct SchedulerTests {
  static let drawing = randomDrawing(seed: 21, count: 160, width: 300, height: 260)
  static let viewport = Viewport(region: Rect(x: 0, y: 0, width: 300, height: 260), width: 300, height: 260)

  @Test("a custom scheduler renders the same bytes as Dispatch", arguments: CustomScheduler.allCases, [1, 3])
  func sameImage(custom: CustomScheduler, threads: Int) {
    let expected = Renderer(threads: threads, minimumWorkPerThread: 0).render(
      Self.drawing, viewport: Self.viewport, background: .clear)
    let actual = Renderer(threads: threads, scheduler: custom.scheduler, minimumWorkPerThread: 0).render(
      Self.drawing, viewport: Self.viewport, background: .clear)
    #expect(actual == expected)
    #expect(expected.pixels.contains { $0 != 0 })
  }

  @Test(
    "a custom scheduler renders the same linear float pixels as Dispatch", arguments: CustomScheduler.allCases
  )
  func sameLinear(custom: CustomScheduler) {
    let primitives = SceneBuilder.primitives(for: Self.drawing, view: Self.viewport.transform)
    let background = LinearColor(Color.white)
    let expected = Renderer(threads: 2, minimumWorkPerThread: 0).renderLinear(
      primitives, width: Self.viewport.width, height: Self.viewport.height, background: background)
    let actual = Renderer(threads: 2, scheduler: custom.scheduler, minimumWorkPerThread: 0).renderLinear(
      primitives, width: Self.viewport.width, height: Self.viewport.height, background: background)
    #expect(actual.elementsEqual(expected) { $0.bitPattern == $1.bitPattern })
  }

  @Test(
    "strokes built on several threads give the primitives of the serial build, in order",
    arguments: [2, 3, 16])
  func parallelBuild(threads: Int) {
    let serial = SceneBuilder.primitives(for: Self.drawing, view: Self.viewport.transform)
    let parallel = SceneBuilder.primitives(
      for: Self.drawing, view: Self.viewport.transform, threads: threads, minimumWorkPerThread: 0)
    #expect(serial.count >= Self.drawing.strokes.count)
    #expect(parallel == serial)
  }

  @Test("the default scheduler runs every job once, on workers in 0..<workers")
  func dispatchRunsEveryJobOnce() {
    for (jobs, workers) in [(0, 2), (1, 1), (5, 1), (9, 2), (10, 3), (3, 8)] {
      let calls = UnsafeMutablePointer<Int>.allocate(capacity: Swift.max(jobs, 1))
      calls.initialize(repeating: 0, count: Swift.max(jobs, 1))
      defer { calls.deallocate() }
      let counter = SharedCounts(calls: calls)
      TileScheduler.dispatch.forEachJob(jobs, workers) { job, worker in
        precondition(worker >= 0 && worker < workers)
        counter.calls[job] += 1
      }
      #expect((0..<jobs).allSatisfy { calls[$0] == 1 }, "jobs \(jobs), workers \(workers)")
    }
  }
}

@Suite("Spreading a call's workers over processors")
struct WorkerSpreadTests {
  @Test("workers are numbered in the order they start, each once, however many threads run them")
  func startOrder() {
    for workers in [1, 2, 5] {
      withSpread(workers: workers) { spread in
        let orders = UnsafeMutablePointer<Int32>.allocate(capacity: workers)
        defer { orders.deallocate() }
        let shared = SharedSpread(record: spread, orders: orders)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
          shared.orders[worker] = inkwell_spread_start(shared.record)
        }
        #expect(Set((0..<workers).map { orders[$0] }) == Set(0..<Int32(workers)))
        #expect(inkwell_spread_started(spread) == Int32(workers))
      }
    }
  }

  @Test("a worker that starts on the processor of one before it moves, and keeps its affinity")
  func clashMoves() {
    withSpread(workers: 2) { spread in
      let allowed = inkwell_allowed_processors()
      // Both starts on this thread: the second finds the first's processor taken. Making way
      // while the second has not started yields a few times and returns; once all have started,
      // at once.
      #expect(inkwell_spread_start(spread) == 0)
      inkwell_spread_make_way(spread)
      #expect(inkwell_spread_start(spread) == 1)
      inkwell_spread_make_way(spread)
      #expect(inkwell_allowed_processors() == allowed)
      #if os(Linux)
        // Where two processors are allowed the two workers end on different ones: the second
        // moved, or the system had already moved the thread between the two starts.
        let first = inkwell_spread_processor(spread, 0)
        let second = inkwell_spread_processor(spread, 1)
        #expect(first >= 0 && second >= 0)
        if allowed >= 2 {
          #expect(first != second, "\(allowed) processors allowed")
        } else {
          #expect(inkwell_spread_moves(spread) == 0)
        }
        #expect(inkwell_spread_moves(spread) <= 1)
      #else
        #expect(inkwell_spread_moves(spread) == 0)
        #expect(inkwell_spread_processor(spread, 0) == -1)
      #endif
      // More starts than workers are counted and change nothing.
      #expect(inkwell_spread_start(spread) == 2)
      #expect(inkwell_spread_moves(spread) <= 1)
    }
  }

  @Test("a call of more workers than processors can be named records the first and counts the rest")
  func manyWorkers() {
    withSpread(workers: 3000) { spread in
      let allowed = inkwell_allowed_processors()
      for order in 0..<1100 { #expect(inkwell_spread_start(spread) == Int32(order)) }
      #expect(inkwell_spread_started(spread) == 1100)
      // Once every allowed processor holds a started worker, no later one has anywhere to go.
      #expect(inkwell_spread_moves(spread) <= Swift.max(allowed - 1, 0))
      #expect(inkwell_allowed_processors() == allowed)
    }
  }
}

/// `body` with a spread record for `workers` workers, destroyed afterwards.
private func withSpread(workers: Int, _ body: (OpaquePointer) -> Void) {
  guard let spread = inkwell_spread_create(Int32(workers)) else {
    Issue.record("no record for \(workers) workers")
    return
  }
  defer { inkwell_spread_destroy(spread) }
  body(spread)
}

/// The spread record and the order each worker got, written by that worker alone.
private struct SharedSpread: @unchecked Sendable {
  let record: OpaquePointer
  let orders: UnsafeMutablePointer<Int32>
}

@Suite("Threads for small renders")
struct SmallRenderThreadTests {
  /// The workers the rasterizer asked its scheduler for, render by render (the scheduler is
  /// called on the rendering thread, one render at a time).
  final class Offers: @unchecked Sendable {
    private(set) var all: [Int] = []
    func record(_ workers: Int) { all.append(workers) }
  }

  static func offers(_ primitives: [Primitive], width: Int, height: Int, threads: Int, minimum: Int?)
    -> (image: RGBA8Image, workers: [Int])
  {
    let offers = Offers()
    let scheduler = TileScheduler { jobs, workers, body in
      offers.record(workers)
      TileScheduler.dispatch.forEachJob(jobs, workers, body)
    }
    let renderer =
      minimum.map { Renderer(threads: threads, scheduler: scheduler, minimumWorkPerThread: $0) }
      ?? Renderer(threads: threads, scheduler: scheduler)
    let image = renderer.render(primitives, width: width, height: height, background: .white)
    return (image, offers.all)
  }

  @Test("a thumbnail renders on one thread, a page on every thread offered, to the same bytes")
  func thumbnailOnOneThread() {
    let drawing = randomDrawing(seed: 41, count: 60, width: 1536, height: 2048)
    let thumbnail = Viewport(region: Rect(x: 0, y: 0, width: 1536, height: 2048), width: 96, height: 128)
    let page = Viewport(region: Rect(x: 0, y: 0, width: 1536, height: 2048), width: 768, height: 1024)
    for (viewport, expected) in [(thumbnail, 1), (page, 4)] {
      let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
      let chosen = Self.offers(
        primitives, width: viewport.width, height: viewport.height, threads: 4, minimum: nil)
      let split = Self.offers(
        primitives, width: viewport.width, height: viewport.height, threads: 4, minimum: 0)
      let serial = Renderer(threads: 1).render(
        primitives, width: viewport.width, height: viewport.height, background: .white)
      #expect(chosen.workers == [expected], "\(viewport.width) × \(viewport.height)")
      #expect(split.workers == [4])
      #expect(chosen.image == serial)
      #expect(split.image == serial)
    }
  }

  @Test("the threads chosen follow the estimated work, and never pass the tile rows or the threads offered")
  func workersFollowTheWork() {
    let drawing = randomDrawing(seed: 42, count: 80, width: 400, height: 300)
    let viewport = Viewport(region: Rect(x: 0, y: 0, width: 400, height: 300), width: 400, height: 300)
    let primitives = SceneBuilder.primitives(for: drawing, view: viewport.transform)
    let bins = Renderer.bin(primitives, width: 400, height: 300)
    let work = TileRasterizer.estimatedWork(
      tiles: bins.grid.tileCount, entries: bins.entries.count, pieces: bins.segments.count)
    #expect(work > 0)
    for minimum in [work / 3, work / 2, work, work + 1, 2 * work] {
      let rasterizer = TileRasterizer(minimumWorkPerThread: minimum)
      #expect(rasterizer.workers(for: bins, threads: 8) == Swift.max(1, Swift.min(8, work / minimum)))
      #expect(rasterizer.workers(for: bins, threads: 1) == 1)
    }
    let rows = bins.grid.tilesY
    #expect(TileRasterizer(minimumWorkPerThread: 0).workers(for: bins, threads: 64) == rows)
    #expect(TileRasterizer(minimumWorkPerThread: 1).workers(for: bins, threads: 64) == rows)
    #expect(TileRasterizer(minimumWorkPerThread: 0).workers(for: bins, threads: 2) == 2)
  }

  @Test("a small drawing is built on one thread, a large one on several, to the same primitives")
  func buildThreads() {
    let small = randomDrawing(seed: 43, count: 12, width: 300, height: 200)
    let large = randomDrawing(seed: 44, count: 400, width: 300, height: 200)
    let view = AffineTransform.identity
    #expect(SceneBuilder.estimatedWork(of: small.strokes, view: view) < 2 * SceneBuilder.minimumWorkPerThread)
    #expect(SceneBuilder.estimatedWork(of: large.strokes, view: view) > 4 * SceneBuilder.minimumWorkPerThread)
    let half = AffineTransform(a: 0.5, b: 0, c: 0, d: 0.5, tx: 0, ty: 0)
    #expect(
      SceneBuilder.estimatedWork(of: large.strokes, view: half)
        < SceneBuilder.estimatedWork(of: large.strokes, view: view))
    for drawing in [small, large] {
      let serial = SceneBuilder.primitives(for: drawing, view: view)
      #expect(SceneBuilder.primitives(for: drawing, view: view, threads: 4) == serial)
      #expect(
        SceneBuilder.primitives(for: drawing, view: view, threads: 4, minimumWorkPerThread: 0) == serial)
    }
  }
}

/// Per-job call counts; each job's slot is written by the one call that runs it.
private struct SharedCounts: @unchecked Sendable {
  let calls: UnsafeMutablePointer<Int>
}

@Suite("A thread's scratch memory")
struct ThreadScratchTests {
  @Test("one block a thread, kept while large enough, grown when not, none past the limit")
  func keptGrownAndBounded() {
    let first = inkwell_thread_scratch(100)
    #expect(first != nil)
    #expect(Int(bitPattern: first) % 64 == 0)
    // Smaller and equal requests get the same block; its bytes stay usable up to the request.
    #expect(inkwell_thread_scratch(1) == first)
    let kept = inkwell_thread_scratch(16384)
    #expect(kept == first)
    kept!.storeBytes(of: 0x5EED, toByteOffset: 16384 - 8, as: UInt64.self)
    let grown = inkwell_thread_scratch(16385)
    #expect(grown != nil && Int(bitPattern: grown) % 64 == 0)
    grown!.storeBytes(of: 1, toByteOffset: 16384, as: UInt8.self)
    #expect(inkwell_thread_scratch(Int(INKWELL_THREAD_SCRATCH_LIMIT)) != nil)
    #expect(inkwell_thread_scratch(Int(INKWELL_THREAD_SCRATCH_LIMIT) + 1) == nil)
  }

  @Test("each thread has its own block, one a thread")
  func ownBlockPerThread() {
    let iterations = 8
    let seen = SeenBlocks(capacity: iterations)
    defer { seen.release() }
    DispatchQueue.concurrentPerform(iterations: iterations) { k in
      // Each worker fills its block with its own number, lets the others run, then checks it.
      let block = inkwell_thread_scratch(4096)!.bindMemory(to: UInt8.self, capacity: 4096)
      block.update(repeating: UInt8(k), count: 4096)
      for _ in 0..<2000 { _ = inkwell_thread_scratch(4096) }
      let intact = (0..<4096).allSatisfy { block[$0] == UInt8(k) }
      seen.record(k, block: intact ? UInt(bitPattern: block) : 0, thread: currentThread())
    }
    for i in 0..<iterations {
      #expect(seen.blocks[i] != 0, "iteration \(i)'s block was overwritten")
      for j in 0..<iterations {
        #expect((seen.threads[i] == seen.threads[j]) == (seen.blocks[i] == seen.blocks[j]), "\(i), \(j)")
      }
    }
  }
}

/// The calling thread, as a number.
private func currentThread() -> UInt {
  #if canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: pthread_self())
  #endif
}

/// The block and the thread of each iteration, written by that iteration alone.
private struct SeenBlocks: @unchecked Sendable {
  let blocks: UnsafeMutablePointer<UInt>
  let threads: UnsafeMutablePointer<UInt>

  init(capacity: Int) {
    blocks = .allocate(capacity: capacity)
    threads = .allocate(capacity: capacity)
  }

  func record(_ k: Int, block: UInt, thread: UInt) {
    blocks[k] = block
    threads[k] = thread
  }

  func release() {
    blocks.deallocate()
    threads.deallocate()
  }
}
