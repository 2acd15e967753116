// A Dispatch scheduler with OpenMP's dynamic schedule: workers take the next tile row from a shared
// counter. It separates what OpenMP's runtime brings from what dynamic scheduling alone brings.

import Dispatch
import Inkwell
import Synchronization

/// The next job to hand out.
private final class JobCounter: Sendable {
  let next = Atomic<Int>(0)
}

extension TileScheduler {
  /// `concurrentPerform` over `workers` workers, each taking one row at a time until none is left.
  static let dispatchDynamic = TileScheduler { jobs, workers, body in
    if workers <= 1 {
      for job in 0..<jobs { body(job, 0) }
      return
    }
    let counter = JobCounter()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      while true {
        let job = counter.next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard job < jobs else { return }
        body(job, worker)
      }
    }
  }
}
