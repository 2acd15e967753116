// Scheduling: how the rasterizer's tile rows are spread over threads.
//
// A render is cut into jobs, one per tile row. Jobs are independent: each writes only its own
// tiles, and a tile's pixels depend only on the scene, never on which thread renders it or when.
// So every order and every assignment of jobs to threads gives the same bytes; a scheduler only
// decides how fast they come.
//
// The default runs on Dispatch: `concurrentPerform` over one worker per thread, worker k of n taking
// rows k, k + n, k + 2n, … Interleaved rows spread the dense and sparse parts of a page evenly
// without a shared counter, and the pool is the one the rest of the process already uses. One
// thread renders on the calling thread, with no Dispatch at all.
//
// Other schedulers (an OpenMP loop, an application's own pool, a serial or reversed one in tests)
// plug in through `TileScheduler`. `Benchmarks/omp-bench` measures an OpenMP one against this
// default; docs/openmp.md has the numbers and why OpenMP stays out of the library.

import Dispatch

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

  /// Dispatch's `concurrentPerform`, each worker taking every `workers`-th job; one worker runs on
  /// the calling thread. The default.
  public static let dispatch = TileScheduler { jobs, workers, body in
    if workers <= 1 {
      for job in 0..<jobs { body(job, 0) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var job = worker
      while job < jobs {
        body(job, worker)
        job += workers
      }
    }
  }
}
