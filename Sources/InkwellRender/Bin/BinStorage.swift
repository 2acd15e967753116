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
  /// The finished lists' arrays: the pieces (one run's own, or all runs joined), the entries in
  /// tile order and where each tile's entries start.
  var segments: [TileSegment] = []
  var entries: [TileEntry] = []
  var entryStart: [Int] = []

  /// With `keepsRunArrays` false, the arrays of parallel binning's runs are freed after each
  /// join and only the finished lists' arrays are kept: each render faults in the runs' pages
  /// again, but memory between renders holds one copy of the pieces instead of two. The band
  /// renderer, whose budget is memory, keeps only those (the 16384² memory scene on two threads
  /// peaked at 240 MiB keeping both, 225 MiB keeping one, 213 MiB keeping none).
  public init(keepsRunArrays: Bool = true) {
    self.keepsRunArrays = keepsRunArrays
  }

  /// Takes back the arrays of `bins` once the render that read them is done.
  public func recycle(_ bins: consuming TileBins) {
    segments = bins.segments
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

  func returnRun(_ arrays: RunArrays, at index: Int) {
    guard keepsRunArrays || index == 0 else { return }
    while runs.count <= index { runs.append(RunArrays()) }
    runs[index] = arrays
  }

  /// The finished pieces' array, empty, with the capacity it had: where a single run appends.
  func takeSegments() -> [TileSegment] {
    var taken = segments
    segments = []
    taken.removeAll(keepingCapacity: true)
    return taken
  }

  /// The finished lists' arrays as the last render left them (their contents are to be
  /// overwritten: see `resize(_:to:)`), and `entryStart` empty.
  func takeFinished() -> (segments: [TileSegment], entries: [TileEntry], entryStart: [Int]) {
    var taken = (segments, entries, entryStart)
    (segments, entries, entryStart) = ([], [], [])
    taken.2.removeAll(keepingCapacity: true)
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
