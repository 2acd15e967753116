// Bin: which primitive touches which tile, in paint order.
//
// Every polygon edge is clamped to the canvas (a part outside becomes its projection on the
// canvas border, which keeps each contour closed and the winding inside the canvas unchanged) and
// cut at tile borders into pieces. A piece belongs to the tile its midpoint lies in and is stored
// in that tile's coordinates.
//
// A tile also needs the winding that edges to its left bring into each of its pixel rows. The
// accumulator gives a pixel the sum, over pieces to its left in its row, of each piece's signed
// height there; along one contour these heights telescope, so the sum over the pieces left of a
// tile reduces to terms at the points where the contour passes from one tile to another:
//   * where it crosses a tile-row border the term is a whole winding (±1) for every tile to the
//     right in that row: kept as a per-row difference array, summed into each tile's `backdrop`;
//   * where it crosses a column border inside a row the term is a partial column: a winding of ±1
//     down the tile's left edge, from the crossing to the tile's bottom. A path's partial columns
//     in one tile are summed before they become pieces: a stroke that enters a tile across its
//     left border and leaves it the same way brings two that cancel below it, so they become one
//     vertical piece between the two crossings (and none where the winding comes back to 0)
//     instead of two pieces down to the bottom. On notes those pieces had been a third of the row
//     segments of the long pieces, on thumbnails two fifths.
// Tiles whose backdrop is non-zero but that no piece touches are filled solid.
//
// The walk along each contour, the cutting and the winding terms are C (shaders-cpu/bin.c, which
// says what it measured); this file sets up each path's region, turns the summed partial columns
// into pieces, sorts the pieces by tile and makes the tile entries.

import Dispatch
import InkwellKernels
import InkwellModel

/// The tile grid over a canvas of `width` × `height` pixels.
public struct TileGrid: Hashable, Sendable {
  public static let tileSize = 32
  public let width: Int
  public let height: Int
  public let tilesX: Int
  public let tilesY: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    tilesX = (width + Self.tileSize - 1) / Self.tileSize
    tilesY = (height + Self.tileSize - 1) / Self.tileSize
  }

  public var tileCount: Int { tilesX * tilesY }
}

/// A line piece in one tile's coordinates (0…32 on both axes).
public struct TileSegment: Hashable, Sendable {
  public var x0: Float
  public var y0: Float
  public var x1: Float
  public var y1: Float
}

/// One primitive's share of one tile.
public struct TileEntry: Hashable, Sendable {
  /// Which of a primitive's paths an entry holds.
  public enum Role: UInt8, Hashable, Sendable {
    /// The area painted.
    case fill
    /// The area the fill is limited to.
    case clip
    /// The area cut out of the fill.
    case knockout
  }

  /// Index of the primitive in the scene.
  public var primitive: UInt32
  /// Winding brought in from the left at every pixel row of the tile.
  public var backdrop: Int32
  /// The entry's pieces: `segmentRuns[run][segmentStart ..< segmentStart + segmentCount]`.
  public var segmentStart: UInt32
  public var segmentCount: UInt32
  public var role: Role = .fill
  /// The binning run whose pieces the entry's are (0 unless the primitives were binned in runs).
  public var run: UInt16 = 0
}

/// Tile lists for a whole scene: for tile `t`, `entries[entryStart[t] ..< entryStart[t + 1]]` in
/// paint order.
public struct TileBins: Sendable {
  public let grid: TileGrid
  /// The canvas tile row of the grid's first row (non-zero for a band of a larger canvas).
  public var rowOffset: Int = 0
  public let entryStart: [Int]
  public let entries: [TileEntry]
  /// Each binning run's pieces, as the run appended them: parallel binning leaves them where each
  /// run wrote them instead of joining them into one array (a copy of every piece, 4 % of a
  /// two-thread fill of the notes scene, and a second copy of the pieces in memory).
  public let segmentRuns: [[TileSegment]]

  /// All pieces, run after run.
  public var segments: [TileSegment] {
    segmentRuns.count == 1 ? segmentRuns[0] : Array(segmentRuns.joined())
  }
}

/// Builds `TileBins` for a scene. Single-threaded; its cost is linear in the number of pieces.
public struct TileBinner {
  public let grid: TileGrid
  /// The canvas tile row that is the grid's first row: a band of a larger canvas starts at
  /// `rowOffset · 32` pixels. Coordinates stay in the whole canvas's space, so a band's pieces are
  /// bit for bit the ones the whole canvas would get.
  public let rowOffset: Int
  private var entries: [TileEntry] = []
  private var entryTiles: [Int32] = []
  private var segments: [TileSegment] = []

  // Per-primitive scratch, reused.
  // The current path's walk (shaders-cpu/bin.c): its pieces, tagged with their tile in the
  // region, its partial columns (see the module head, summed per tile in `emit`), the pieces
  // sorted by tile and the buffers behind them, kept from path to path. A copied binner gets a
  // fresh walk on its next `add`.
  private var walkStorage = BinWalk()
  private var backdropDelta: [Int32] = []

  public init(grid: TileGrid, rowOffset: Int = 0) {
    self.grid = grid
    self.rowOffset = rowOffset
  }

  /// A binner that fills `arrays` (empty, with whatever capacity they kept).
  init(grid: TileGrid, rowOffset: Int, arrays: BinStorage.RunArrays) {
    self.init(grid: grid, rowOffset: rowOffset)
    segments = arrays.segments
    entries = arrays.entries
    entryTiles = arrays.entryTiles
  }

  /// The arrays this binner filled, for reuse.
  consuming func takeArrays() -> BinStorage.RunArrays {
    BinStorage.RunArrays(segments: segments, entries: entries, entryTiles: entryTiles)
  }

  /// Makes room for about `pieces` line pieces, so that binning a scene whose size is known does
  /// not grow its largest array step by step (each step a copy and fresh pages).
  public mutating func reserveCapacity(pieces: Int) {
    segments.reserveCapacity(pieces)
  }

  /// The canvas rows this grid covers, in pixels: `top ..< bottom`.
  var top: Float { Float(rowOffset * TileGrid.tileSize) }
  var bottom: Float { top + Float(grid.height) }

  /// Adds `primitive`'s paths (index `index` in the scene) above everything added before it.
  public mutating func add(_ primitive: Primitive, index: Int) {
    add(primitive.path, rule: primitive.rule, index: index, role: .fill)
    add(masksOf: primitive, index: index)
  }

  /// `add(_:index:)` of the primitive at `primitive`, read in place: a copy of a primitive would
  /// retain and release every array it holds (the binning loops' largest overhead on small pages).
  mutating func add(primitiveAt primitive: UnsafePointer<Primitive>, index: Int) {
    add(primitive.pointee.path, rule: primitive.pointee.rule, index: index, role: .fill)
    if primitive.pointee.maskBits & 3 != 0 {
      add(masksOf: primitive.pointee, index: index)
    }
  }

  /// The clip and knockout paths of `primitive`, where it has them (after its fill path).
  mutating func add(masksOf primitive: Primitive, index: Int) {
    if let clip = primitive.clip { add(clip.path, rule: clip.rule, index: index, role: .clip) }
    if let knockout = primitive.knockout { add(knockout, rule: .nonZero, index: index, role: .knockout) }
  }

  /// Adds one path of primitive `index` in `role`; a primitive's paths are added fill, clip,
  /// knockout, so in every tile its entries are adjacent and in that order.
  public mutating func add(_ path: FlatPath, rule: FillRule, index: Int, role: TileEntry.Role = .fill) {
    guard grid.tileCount > 0, let bounds = path.bounds else { return }
    let w = Float(grid.width)
    let (top, bottom) = (self.top, self.bottom)
    // Entirely right of, above or below the canvas: nothing to draw. Entirely left: a closed
    // contour brings no net winding to points on its right.
    guard bounds.minX < w, bounds.maxX > 0, bounds.minY < bottom, bounds.maxY > top else { return }
    guard bounds.minX.isFinite, bounds.maxX.isFinite, bounds.minY.isFinite, bounds.maxY.isFinite else {
      return
    }

    let t = Float(TileGrid.tileSize)
    let col0 = Int(Swift.max(bounds.minX, 0) / t)
    let row0 = Int(Swift.max(bounds.minY, top) / t)
    let col1 = Swift.min(Int(Swift.min(bounds.maxX, w) / t), grid.tilesX - 1)
    let row1 = Swift.min(Int(Swift.min(bounds.maxY, bottom) / t), rowOffset + grid.tilesY - 1)
    let region = Region(col0: col0, row0: row0, cols: col1 - col0 + 1, rows: row1 - row0 + 1)

    if !isKnownUniquelyReferenced(&walkStorage) { walkStorage = BinWalk() }
    Self.zero(&backdropDelta, count: region.rows * (region.cols + 1))
    let walk = walkStorage.walk
    backdropDelta.withUnsafeMutableBufferPointer { delta in
      walk.pointee.width = w
      walk.pointee.top = top
      walk.pointee.bottom = bottom
      walk.pointee.col0 = Int32(truncatingIfNeeded: region.col0)
      walk.pointee.row0 = Int32(truncatingIfNeeded: region.row0)
      walk.pointee.cols = Int32(truncatingIfNeeded: region.cols)
      walk.pointee.rows = Int32(truncatingIfNeeded: region.rows)
      walk.pointee.backdrop_delta = delta.baseAddress
      walk.pointee.piece_count = 0
      walk.pointee.partial_count = 0
      path.forEachContour { contour in
        contour.withUnsafeBufferPointer { points in
          guard let base = points.baseAddress else { return }
          UnsafeRawPointer(base).withMemoryRebound(to: Float.self, capacity: 2 * points.count) {
            inkwell_bin_walk_contour(walk, $0, points.count)
          }
        }
      }
      walk.pointee.backdrop_delta = nil
    }
    emit(region: region, rule: rule, index: index, role: role)
  }

  /// The finished tile lists of `binners`, which binned contiguous runs of one scene's primitives
  /// over one grid, in order: the same lists one binner adding every primitive would give. Their
  /// pieces are copied into one array on up to `threads` threads.
  public static func finish(joining binners: [TileBinner], threads: Int) -> TileBins {
    finish(joining: binners, threads: threads, storage: nil)
  }

  /// `finish(joining:threads:)`, filling arrays taken from `storage` when given.
  static func finish(joining binners: [TileBinner], threads: Int, storage: BinStorage?) -> TileBins {
    guard let first = binners.first else { preconditionFailure("nothing to join") }
    let grid = first.grid
    precondition(
      binners.allSatisfy { $0.grid == grid && $0.rowOffset == first.rowOffset }, "binners of different grids")
    precondition(binners.count <= Int(UInt16.max) + 1, "more binning runs than an entry can name")
    var entryTotal = 0
    for binner in binners { entryTotal += binner.entries.count }
    var (entries, start) = storage?.takeFinished() ?? ([], [])
    BinStorage.resize(
      &entries, to: entryTotal, filler: TileEntry(primitive: 0, backdrop: 0, segmentStart: 0, segmentCount: 0)
    )
    Self.countingSort(
      binners.map { ($0.entries, $0.entryTiles) }, tileCount: grid.tileCount, into: &entries, start: &start)
    let segmentRuns = binners.map(\.segments)
    if let storage {
      for (run, binner) in binners.enumerated() {
        var arrays = binner.takeArrays()
        arrays.segments = []
        storage.returnRun(arrays, at: run)
      }
    }
    return TileBins(
      grid: grid, rowOffset: first.rowOffset, entryStart: start, entries: entries, segmentRuns: segmentRuns)
  }

  /// The finished tile lists.
  public consuming func finish() -> TileBins {
    finish(storage: nil)
  }

  /// `finish()`, sorting into arrays taken from `storage` when given; this binner's own entry
  /// arrays go back to `storage` as run 0's.
  consuming func finish(storage: BinStorage?) -> TileBins {
    var (sorted, start) = storage?.takeFinished() ?? ([], [])
    BinStorage.resize(
      &sorted, to: entries.count,
      filler: TileEntry(primitive: 0, backdrop: 0, segmentStart: 0, segmentCount: 0))
    Self.countingSort([(entries, entryTiles)], tileCount: grid.tileCount, into: &sorted, start: &start)
    let bins = TileBins(
      grid: grid, rowOffset: rowOffset, entryStart: start, entries: sorted, segmentRuns: [segments])
    if let storage {
      segments = []
      storage.returnRun(takeArrays(), at: 0)
    }
    return bins
  }

  /// Sorts the entries of `runs`, in order, by tile (`tiles[i]` is `entries[i]`'s), keeping their
  /// order within a tile and marking each with its run, into `sorted` (as many elements as all
  /// the runs' entries); `start` (empty) becomes the tile lists' starts, `tileCount + 1` of them.
  /// The counts go two places ahead, so that after their prefix sum `start[t + 1]` is where tile
  /// t's list begins: the scatter moves it to the list's end, which is where tile t + 1's begins,
  /// and no copy of the starts is needed as cursors.
  private static func countingSort(
    _ runs: [(entries: [TileEntry], tiles: [Int32])], tileCount: Int, into sorted: inout [TileEntry],
    start: inout [Int]
  ) {
    start.append(contentsOf: repeatElement(0, count: tileCount + 2))
    start.withUnsafeMutableBufferPointer { start in
      for run in runs {
        run.tiles.withUnsafeBufferPointer { tiles in
          for tile in tiles { start[Int(tile) + 2] += 1 }
        }
      }
      var sum = 0
      for i in 2..<start.count {
        sum += start[i]
        start[i] = sum
      }
      sorted.withUnsafeMutableBufferPointer { sorted in
        for (index, run) in runs.enumerated() {
          let mark = UInt16(truncatingIfNeeded: index)
          run.entries.withUnsafeBufferPointer { entries in
            run.tiles.withUnsafeBufferPointer { tiles in
              for i in entries.indices {
                var entry = entries[i]
                entry.run = mark
                let cursor = Int(tiles[i]) + 1
                sorted[start[cursor]] = entry
                start[cursor] += 1
              }
            }
          }
        }
      }
    }
    start.removeLast()
  }

  // MARK: Internals

  struct Region {
    var col0: Int
    var row0: Int
    var cols: Int
    var rows: Int
  }

  /// The partial columns as pieces: per tile, sorted by `y`, the running winding between one
  /// crossing and the next (the last one to the tile's bottom) as vertical pieces on the left
  /// edge, down where it is positive and up where negative, one piece per unit; none where it is 0.
  /// Tiles in the order their first partial column came.
  private func addPartialPieces() {
    let walk = walkStorage.walk
    let count = walk.pointee.partial_count
    guard count > 0, let partials = walk.pointee.partials, let heads = walk.pointee.partial_heads else {
      return
    }
    let bottom = Float(TileGrid.tileSize)
    withUnsafeTemporaryAllocation(of: inkwell_partial_column.self, capacity: count) { list in
      for first in 0..<count {
        let tile = Int(partials[first].local_tile)
        guard heads[tile] >= 0 else { continue }
        // The tile's partial columns, sorted by y as they are taken (a path brings a few).
        var length = 0
        var link = heads[tile]
        heads[tile] = -1
        while link >= 0 {
          let partial = partials[Int(link)]
          var j = length
          while j > 0 && list[j - 1].y > partial.y {
            list[j] = list[j - 1]
            j -= 1
          }
          list[j] = partial
          length += 1
          link = partial.next
        }
        var winding: Int32 = 0
        for k in 0..<length {
          winding &+= list[k].sign
          let from = list[k].y
          let to = k + 1 < length ? list[k + 1].y : bottom
          guard winding != 0, from < to else { continue }
          let (y0, y1) = winding > 0 ? (from, to) : (to, from)
          for _ in 0..<Int(winding.magnitude) {
            inkwell_bin_walk_add_piece(walk, Int32(truncatingIfNeeded: tile), 0, y0, 0, y1)
          }
        }
      }
    }
  }

  /// Grows a per-path table to at least `count` entries, zeroed, and returns whether it did: the
  /// tables keep their storage from path to path, and a remove-all and append of `count` values
  /// had cost a few hundred instructions a path.
  @inline(__always)
  private static func makeRoom(_ table: inout [Int32], count: Int) -> Bool {
    guard table.count < count else { return false }
    table = [Int32](repeating: 0, count: Swift.max(count, 2 * table.count))
    return true
  }

  /// Zeroes the first `count` entries of a per-path table (`makeRoom` first).
  @inline(__always)
  private static func zero(_ table: inout [Int32], count: Int) {
    guard !makeRoom(&table, count: count), count > 0 else { return }
    table.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: count) }
  }

  /// `emit` for a path whose region is one tile (a short stroke on a small canvas): its pieces
  /// are that tile's in the order they came, with no sort by tile.
  private mutating func emitOneTile(region: Region, rule: FillRule, index: Int, role: TileEntry.Role) {
    addPartialPieces()
    let walk = walkStorage.walk
    let count = walk.pointee.piece_count
    let winding = backdropDelta[0]
    guard count > 0 || rule.covers(winding: winding) else { return }
    let base = segments.count
    let pieces = walkStorage.pieces
    segments.reserveCapacity(base + count)
    for i in 0..<count {
      let piece = pieces[i]
      segments.append(TileSegment(x0: piece.x0, y0: piece.y0, x1: piece.x1, y1: piece.y1))
    }
    entries.append(
      TileEntry(
        primitive: UInt32(truncatingIfNeeded: index), backdrop: winding,
        segmentStart: UInt32(truncatingIfNeeded: base), segmentCount: UInt32(truncatingIfNeeded: count),
        role: role))
    entryTiles.append(Int32((region.row0 - rowOffset) * grid.tilesX + region.col0))
  }

  private mutating func emit(region: Region, rule: FillRule, index: Int, role: TileEntry.Role) {
    let tiles = region.rows * region.cols
    if tiles == 1 {
      emitOneTile(region: region, rule: rule, index: index, role: role)
      return
    }
    addPartialPieces()
    let walk = walkStorage.walk
    let listed = backdropDelta.withUnsafeBufferPointer {
      inkwell_bin_walk_sort(walk, $0.baseAddress, rule == .evenOdd ? 1 : 0)
    }
    let base = segments.count
    if let sorted = walk.pointee.sorted {
      UnsafeRawPointer(sorted).withMemoryRebound(to: TileSegment.self, capacity: walk.pointee.piece_count) {
        segments.append(contentsOf: UnsafeBufferPointer(start: $0, count: walk.pointee.piece_count))
      }
    }
    guard let spans = walk.pointee.spans, listed > 0 else { return }
    let primitive = UInt32(truncatingIfNeeded: index)
    // Written to scratch a chunk at a time and appended whole, one copy each: appended one at a
    // time, every entry paid the arrays' uniqueness and capacity checks (a page-sized fill lists
    // one entry for every tile it covers). A chunk's scratch stays on the stack.
    let segmentBase = UInt32(truncatingIfNeeded: base)
    let firstRow = region.row0 - rowOffset
    let (cols, col0, tilesX) = (region.cols, region.col0, grid.tilesX)
    let chunk = Swift.min(listed, Self.entryChunk)
    withUnsafeTemporaryAllocation(of: TileEntry.self, capacity: chunk) { newEntries in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: chunk) { newTiles in
        var done = 0
        while done < listed {
          let count = Swift.min(chunk, listed - done)
          for k in 0..<count {
            let span = spans[done + k]
            newEntries.initializeElement(
              at: k,
              to: TileEntry(
                primitive: primitive, backdrop: span.winding, segmentStart: segmentBase &+ span.first,
                segmentCount: span.count, role: role))
            let local = Int(span.tile)
            newTiles.initializeElement(
              at: k, to: Int32(truncatingIfNeeded: (firstRow + local / cols) * tilesX + col0 + local % cols))
          }
          entries.append(contentsOf: UnsafeBufferPointer(rebasing: newEntries[0..<count]))
          entryTiles.append(contentsOf: UnsafeBufferPointer(rebasing: newTiles[0..<count]))
          done += count
        }
      }
    }
  }

  /// Entries `emit` writes to scratch before appending them: 48 of 20 bytes stay under the 1 KiB
  /// up to which a temporary allocation stays on the stack.
  private static let entryChunk = 48
}

/// Owns a binner's path walk (`inkwell_bin_walk`) and the buffers it grows.
private final class BinWalk: @unchecked Sendable {
  let walk: UnsafeMutablePointer<inkwell_bin_walk>
  init() {
    walk = .allocate(capacity: 1)
    walk.initialize(to: inkwell_bin_walk())
    inkwell_bin_walk_reserve(walk, 1024)
  }

  /// The pieces buffer, which `init` makes and the walk only ever moves.
  var pieces: UnsafeMutablePointer<inkwell_tile_piece> { walk.pointee.pieces! }
  deinit {
    inkwell_bin_walk_free(walk)
    walk.deallocate()
  }
}

extension FillRule {
  /// Whether a point with this winding number is inside under the rule.
  @inline(__always) func covers(winding: Int32) -> Bool {
    self == .nonZero ? winding != 0 : winding & 1 != 0
  }
}
