// Memory that binning keeps from one render to the next.
//
// A scene's tile lists are its largest temporary data (16 bytes a line piece: about 50 MB for the
// sketch scene's 3.1 million edges, 160 MB for big). Allocated afresh for every render, each page
// of them is faulted in and zeroed by the kernel before it is written, which cost 15 % of a
// one-thread fill of the big scene and 20 % on two threads (measured by keeping freed memory in
// the process instead). A caller that renders page after page (a thumbnail farm's worker, the
// band renderer going down a tall page) hands the same `BinStorage` to every render, and the
// arrays keep their capacity and their pages.

/// Arrays the bin stage reuses across renders. One storage serves one render at a time: give
/// each thread that renders its own.
public final class BinStorage {
  /// One binning run's arrays (parallel binning has one run per slice of the primitives).
  struct RunArrays {
    var segments: [TileSegment] = []
    var entries: [TileEntry] = []
    var entryTiles: [Int32] = []

    mutating func empty() {
      segments.removeAll(keepingCapacity: true)
      entries.removeAll(keepingCapacity: true)
      entryTiles.removeAll(keepingCapacity: true)
    }
  }

  private var runs: [RunArrays] = []
  /// Whether parallel binning's per-run arrays are kept too, or only the finished lists' arrays
  /// (the largest); see `init(keepsRunArrays:)`.
  public let keepsRunArrays: Bool
  /// The finished lists' arrays: the entries in tile order and where each tile's entries start.
  /// (The pieces stay in the runs' arrays.)
  var entries: [TileEntry] = []
  var entryStart: [Int] = []

  /// With `keepsRunArrays` false, only the pieces' arrays (the largest) and the finished lists'
  /// arrays are kept: each render faults in the runs' other arrays again. The band renderer,
  /// whose budget is memory, keeps only those.
  public init(keepsRunArrays: Bool = true) {
    self.keepsRunArrays = keepsRunArrays
  }

  /// Takes back the arrays of `bins` once the render that read them is done.
  public func recycle(_ bins: consuming TileBins) {
    for (run, segments) in bins.segmentRuns.enumerated() {
      while runs.count <= run { runs.append(RunArrays()) }
      runs[run].segments = segments
    }
    entries = bins.entries
    entryStart = bins.entryStart
  }

  /// Run `index`'s arrays, empty, with the capacity they had.
  func takeRun(_ index: Int) -> RunArrays {
    while runs.count <= index { runs.append(RunArrays()) }
    var arrays = runs[index]
    runs[index] = RunArrays()
    arrays.empty()
    return arrays
  }

  /// Keeps run `index`'s arrays. Its pieces are not among them: they went into the finished
  /// lists and come back with them (`recycle(_:)`).
  func returnRun(_ arrays: RunArrays, at index: Int) {
    guard keepsRunArrays || index == 0 else { return }
    while runs.count <= index { runs.append(RunArrays()) }
    runs[index] = arrays
  }

  /// The finished lists' arrays as the last render left them (their contents are to be
  /// overwritten: see `resize(_:to:)`), and `entryStart` empty.
  func takeFinished() -> (entries: [TileEntry], entryStart: [Int]) {
    var taken = (entries, entryStart)
    (entries, entryStart) = ([], [])
    taken.1.removeAll(keepingCapacity: true)
    return taken
  }

  /// Gives `array` exactly `count` elements whose values do not matter (every one is written
  /// next): what is there is kept, so memory a previous render wrote is not written twice.
  static func resize<Element>(_ array: inout [Element], to count: Int, filler: Element) {
    if array.count > count {
      array.removeLast(array.count - count)
    } else {
      array.append(contentsOf: repeatElement(filler, count: count - array.count))
    }
  }
}
