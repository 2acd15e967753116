import Dispatch
import InkwellModel
import InkwellRender
import Testing

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
    let expected = Renderer(threads: threads).render(
      Self.drawing, viewport: Self.viewport, background: .clear)
    let actual = Renderer(threads: threads, scheduler: custom.scheduler).render(
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
    let expected = Renderer(threads: 2).renderLinear(
      primitives, width: Self.viewport.width, height: Self.viewport.height, background: background)
    let actual = Renderer(threads: 2, scheduler: custom.scheduler).renderLinear(
      primitives, width: Self.viewport.width, height: Self.viewport.height, background: background)
    #expect(actual.elementsEqual(expected) { $0.bitPattern == $1.bitPattern })
  }

  @Test(
    "strokes built on several threads give the primitives of the serial build, in order",
    arguments: [2, 3, 16])
  func parallelBuild(threads: Int) {
    let serial = SceneBuilder.primitives(for: Self.drawing, view: Self.viewport.transform)
    let parallel = SceneBuilder.primitives(for: Self.drawing, view: Self.viewport.transform, threads: threads)
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

/// Per-job call counts; each job's slot is written by the one call that runs it.
private struct SharedCounts: @unchecked Sendable {
  let calls: UnsafeMutablePointer<Int>
}
