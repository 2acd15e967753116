// TileSchedulers on the OpenMP runtime, through the InkwellOpenMP C loops.

import Inkwell
import InkwellOpenMP

/// How an OpenMP loop hands out the rasterizer's tile rows.
enum OpenMPSchedule: String, CaseIterable {
  /// `schedule(dynamic)`: one row at a time to whichever thread is free.
  case dynamic
  /// `schedule(static)`: one contiguous block of rows per thread, fixed before the loop starts.
  case staticBlocks = "static"
}

/// The job body of one `forEachJob` call, reachable from C through an opaque pointer.
private final class JobBody: @unchecked Sendable {
  let body: @Sendable (Int, Int) -> Void
  init(_ body: @escaping @Sendable (Int, Int) -> Void) { self.body = body }
}

/// Runs one job from C: the OpenMP thread number is the worker.
private let runJob: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void = { context, index in
  let job = Unmanaged<JobBody>.fromOpaque(context!).takeUnretainedValue()
  job.body(Int(index), Int(inkwell_omp_thread_number()))
}

extension TileScheduler {
  /// Tile rows as iterations of an OpenMP `parallel for` with `schedule` on `workers` threads.
  static func openMP(_ schedule: OpenMPSchedule) -> TileScheduler {
    TileScheduler { jobs, workers, body in
      withoutActuallyEscaping(body) { body in
        let job = JobBody(body)
        withExtendedLifetime(job) {
          let context = Unmanaged.passUnretained(job).toOpaque()
          switch schedule {
          case .dynamic: inkwell_omp_for_each(Int32(jobs), Int32(workers), context, runJob)
          case .staticBlocks: inkwell_omp_for_each_static(Int32(jobs), Int32(workers), context, runJob)
          }
        }
      }
    }
  }

  /// The OpenMP version the loops were built for (`_OPENMP`), or nil when they run serially.
  static var openMPVersion: Int? {
    let version = Int(inkwell_omp_available())
    return version == 0 ? nil : version
  }
}
