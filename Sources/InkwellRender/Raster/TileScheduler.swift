// Scheduling: how the rasterizer's tile rows are spread over threads.
//
// A render is cut into jobs, one per tile row. Jobs are independent: each writes only its own
// tiles, and a tile's pixels depend only on the scene, never on which thread renders it or when.
// So every order and every assignment of jobs to threads gives the same bytes; a scheduler only
// decides how fast they come.
//
// The default runs on Dispatch: `concurrentPerform` over one worker per thread, each worker taking
// the next row from a shared atomic counter, so a thread that the rest of the machine slows down
// takes fewer rows instead of holding the others up (the edge OpenMP's dynamic schedule showed in
// docs/openmp.md). Where the `Synchronization` module's atomics are unavailable (Apple systems
// before 2024), worker k of n takes rows k, k + n, k + 2n, … The pool is the one the rest of the
// process already uses. One thread renders on the calling thread, with no Dispatch at all.
//
// As each worker starts, it moves off a processor that a worker started before it already uses,
// and the first yields its processor while the others have not started (`inkwell_spread_join`,
// CInkwellThreads). Where the kernel packs a woken thread onto the waker's busy processor, the
// Dispatch worker had waited behind the calling thread for milliseconds while the other processor
// idled: the notes scene's fill on two threads after 50 ms idle took 7.4–8.3 ms, as long as on
// one, and takes 4.1–4.7 ms with the move (the highlighter 14.0–14.3 → 9.6–10.6 ms;
// `inkwell-bench --fill-scene … --threads 2 --idle 50`, and 200).
//
// Other schedulers (an OpenMP loop, an application's own pool, a serial or reversed one in tests)
// plug in through `TileScheduler`. `Benchmarks/omp-bench` measures an OpenMP one against this
// default; docs/openmp.md has the numbers and why OpenMP stays out of the library.

import CInkwellThreads
import Dispatch

#if canImport(Synchronization)
  import Synchronization
#endif

/// Runs the rasterizer's jobs (tile rows) on threads.
///
/// A scheduler calls `body(job, worker)` exactly once for every `job` in `0..<jobs` and returns
/// when every call has returned. `worker`, in `0..<workers`, names the slot of the calling thread:
/// two calls that may overlap in time must have different workers, because the rasterizer keeps one
/// scratch buffer per worker. Within that rule any order and any mapping of jobs to workers (and
/// any number of threads up to `workers`) gives the same image.
public struct TileScheduler: Sendable {
  /// Runs `body` for every job in `0..<jobs` on at most `workers` threads; see `TileScheduler`.
  public typealias ForEachJob =
    @Sendable (_ jobs: Int, _ workers: Int, _ body: @Sendable (_ job: Int, _ worker: Int) -> Void) -> Void

  /// The scheduling function.
  public let forEachJob: ForEachJob

  /// A scheduler that runs jobs through `forEachJob`.
  public init(_ forEachJob: @escaping ForEachJob) {
    self.forEachJob = forEachJob
  }

  /// Dispatch's `concurrentPerform`, each worker taking the next job from a shared counter; one
  /// worker runs on the calling thread. The default.
  public static let dispatch = TileScheduler { jobs, workers, body in
    if workers <= 1 {
      for job in 0..<jobs { body(job, 0) }
      return
    }
    #if canImport(Synchronization)
      if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        // Rows taken from a shared counter: a thread slowed by the rest of the machine takes
        // fewer rows instead of holding the others up.
        let next = Atomic<Int>(0)
        let spread = WorkerSpread(workers: workers)
        defer { spread.release() }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
          // Each worker that finds jobs left first makes sure it does not share its processor
          // with one that started before it, and the first makes way for any not yet started
          // (see CInkwellThreads).
          if next.load(ordering: .relaxed) < jobs { spread.join() }
          while true {
            let job = next.add(1, ordering: .relaxed).oldValue
            guard job < jobs else { return }
            body(job, worker)
          }
        }
        return
      }
    #endif
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var job = worker
      while job < jobs {
        body(job, worker)
        job += workers
      }
    }
  }
}

/// The record a parallel call's workers share to spread over processors (`inkwell_spread`).
private struct WorkerSpread: @unchecked Sendable {
  private let record: OpaquePointer?

  init(workers: Int) { record = inkwell_spread_create(Int32(clamping: workers)) }

  /// See `inkwell_spread_join`.
  func join() { _ = inkwell_spread_join(record) }

  func release() { inkwell_spread_destroy(record) }
}
