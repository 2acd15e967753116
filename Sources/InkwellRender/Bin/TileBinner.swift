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
// Most edges of a flattened outline are a pixel or two long and start and end in the tile of the
// piece before them: such runs are stored by one C loop (shaders-cpu/bin.c), which on the sketch
// scene took binning from about 200 to about 70 instructions an edge; the walker here handles
// every edge that is cut, leaves the canvas or changes tile.

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
  // The current path's pieces, tagged with their tile in the region: a buffer of its own rather
  // than an array, since appending here is the innermost step of binning. `pieceStorage` owns the
  // memory; a copied binner gets fresh storage on its next `add`.
  private var pieceStorage = ScratchBuffer<inkwell_tile_piece>(capacity: 1024)
  private var pieces: UnsafeMutablePointer<inkwell_tile_piece>
  private var pieceCapacity = 1024
  private var pieceCount = 0
  /// The current path's pieces sorted by tile, before they join `segments` in one copy (appending
  /// placeholders to sort into in place cost a fill and an element-by-element append).
  private var sortedStorage = ScratchBuffer<TileSegment>(capacity: 1024)
  /// The current path's partial columns (see the module head), summed per tile in `emit`: each
  /// links to the one before it in its tile (`next`, −1 ends), from the tile's entry in
  /// `partialHeadStorage` (one per region tile).
  private var partialStorage = ScratchBuffer<PartialColumn>(capacity: 64)
  private var partialCount = 0
  private var partialHeadStorage = ScratchBuffer<Int32>(capacity: 64)
  private var backdropDelta: [Int32] = []
  private var tileCounts: [Int32] = []
  private var cursor: [Int32] = []

  public init(grid: TileGrid, rowOffset: Int = 0) {
    self.grid = grid
    self.rowOffset = rowOffset
    pieces = pieceStorage.base
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
    if primitive.pointee.clip != nil || primitive.pointee.knockout != nil {
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
    var region = Region(col0: col0, row0: row0, cols: col1 - col0 + 1, rows: row1 - row0 + 1)

    if !isKnownUniquelyReferenced(&pieceStorage) {
      pieceStorage = ScratchBuffer<inkwell_tile_piece>(capacity: pieceCapacity)
      pieces = pieceStorage.base
    }
    if !isKnownUniquelyReferenced(&sortedStorage) {
      sortedStorage = ScratchBuffer<TileSegment>(capacity: sortedStorage.capacity)
    }
    pieceCount = 0
    if !isKnownUniquelyReferenced(&partialStorage) || !isKnownUniquelyReferenced(&partialHeadStorage) {
      partialStorage = ScratchBuffer<PartialColumn>(capacity: partialStorage.capacity)
      partialHeadStorage = ScratchBuffer<Int32>(capacity: partialHeadStorage.capacity)
    }
    partialCount = 0
    Self.zero(&backdropDelta, count: region.rows * (region.cols + 1))

    var walker = ContourWalker(grid: grid, region: region, top: top, bottom: bottom)
    path.forEachContour { contour in
      walker.walk(contour, into: &self)
    }
    region = walker.region
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
    let tileCount = grid.tileCount
    start.append(contentsOf: repeatElement(0, count: tileCount + 1))
    for binner in binners {
      for tile in binner.entryTiles { start[Int(tile) + 1] += 1 }
    }
    for i in 0..<tileCount { start[i + 1] += start[i] }
    var cursor = start
    BinStorage.resize(
      &entries, to: entryTotal, filler: TileEntry(primitive: 0, backdrop: 0, segmentStart: 0, segmentCount: 0)
    )
    entries.withUnsafeMutableBufferPointer { buffer in
      for (run, binner) in binners.enumerated() {
        let run = UInt16(truncatingIfNeeded: run)
        for (entry, tile) in zip(binner.entries, binner.entryTiles) {
          var entry = entry
          entry.run = run
          buffer[cursor[Int(tile)]] = entry
          cursor[Int(tile)] += 1
        }
      }
    }
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
    let tileCount = grid.tileCount
    var (sorted, start) = storage?.takeFinished() ?? ([], [])
    start.append(contentsOf: repeatElement(0, count: tileCount + 1))
    for tile in entryTiles { start[Int(tile) + 1] += 1 }
    for i in 0..<tileCount { start[i + 1] += start[i] }
    var cursor = start
    BinStorage.resize(
      &sorted, to: entries.count,
      filler: TileEntry(primitive: 0, backdrop: 0, segmentStart: 0, segmentCount: 0))
    for (entry, tile) in zip(entries, entryTiles) {
      sorted[cursor[Int(tile)]] = entry
      cursor[Int(tile)] += 1
    }
    let bins = TileBins(
      grid: grid, rowOffset: rowOffset, entryStart: start, entries: sorted, segmentRuns: [segments])
    if let storage {
      segments = []
      storage.returnRun(takeArrays(), at: 0)
    }
    return bins
  }

  // MARK: Internals

  struct Region {
    var col0: Int
    var row0: Int
    var cols: Int
    var rows: Int
  }

  /// A winding of `sign` down the left edge of tile `localTile`, from `y` (tile coordinates) to the
  /// tile's bottom; `next` is the tile's partial column before it.
  struct PartialColumn {
    var localTile: Int32
    var y: Float
    var sign: Int32
    var next: Int32
  }

  fileprivate mutating func addPartial(localTile: Int, y: Float, sign: Int32, regionTiles: Int) {
    if partialCount == 0 {
      if partialHeadStorage.capacity < regionTiles {
        partialHeadStorage = ScratchBuffer<Int32>(
          capacity: Swift.max(regionTiles, 2 * partialHeadStorage.capacity))
      }
      partialHeadStorage.base.update(repeating: -1, count: regionTiles)
    }
    if partialCount == partialStorage.capacity {
      let larger = ScratchBuffer<PartialColumn>(capacity: 2 * partialCount)
      larger.base.initialize(from: partialStorage.base, count: partialCount)
      partialStorage = larger
    }
    let head = partialHeadStorage.base + localTile
    (partialStorage.base + partialCount).initialize(
      to: PartialColumn(localTile: Int32(truncatingIfNeeded: localTile), y: y, sign: sign, next: head.pointee)
    )
    head.pointee = Int32(truncatingIfNeeded: partialCount)
    partialCount += 1
  }

  /// The partial columns as pieces: per tile, sorted by `y`, the running winding between one
  /// crossing and the next (the last one to the tile's bottom) as vertical pieces on the left
  /// edge, down where it is positive and up where negative, one piece per unit; none where it is 0.
  /// Tiles in the order their first partial column came.
  private mutating func addPartialPieces() {
    let count = partialCount
    guard count > 0 else { return }
    let partials = partialStorage.base
    let heads = partialHeadStorage.base
    let bottom = Float(TileGrid.tileSize)
    withUnsafeTemporaryAllocation(of: PartialColumn.self, capacity: count) { list in
      for first in 0..<count {
        let tile = Int(partials[first].localTile)
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
          let segment =
            winding > 0
            ? TileSegment(x0: 0, y0: from, x1: 0, y1: to)
            : TileSegment(x0: 0, y0: to, x1: 0, y1: from)
          for _ in 0..<Int(winding.magnitude) { addPiece(localTile: tile, segment) }
        }
      }
    }
  }

  fileprivate mutating func addPiece(localTile: Int, _ segment: TileSegment) {
    if pieceCount == pieceCapacity { growPieces() }
    (pieces + pieceCount).initialize(
      to: inkwell_tile_piece(
        tile: Int32(truncatingIfNeeded: localTile), x0: segment.x0, y0: segment.y0, x1: segment.x1,
        y1: segment.y1))
    pieceCount &+= 1
  }

  /// Appends the pieces of edges `first ..< end` of `points` (edge i from point i − 1 to i) for as
  /// long as they stay inside tile (`row`, `col`) of `region` and the binned rows (see
  /// `inkwell_bin_edges_in_tile`); returns the first edge not taken.
  fileprivate mutating func addEdgesInTile(
    _ points: UnsafeBufferPointer<Point>, from first: Int, to end: Int, row: Int, col: Int, region: Region
  ) -> Int {
    guard let base = points.baseAddress else { return first }
    let floats = UnsafeRawPointer(base).assumingMemoryBound(to: Float.self)
    let localTile = Int32(truncatingIfNeeded: (row - region.row0) * region.cols + (col - region.col0))
    var next = first
    while true {
      var count = pieceCount
      next = inkwell_bin_edges_in_tile(
        floats, next, end, Int32(truncatingIfNeeded: col), Int32(truncatingIfNeeded: row), localTile,
        Float(grid.width), top, bottom, pieces, &count, pieceCapacity)
      pieceCount = count
      guard next < end, pieceCount == pieceCapacity else { return next }
      growPieces()
    }
  }

  private mutating func growPieces() {
    let larger = ScratchBuffer<inkwell_tile_piece>(capacity: pieceCapacity * 2)
    larger.base.initialize(from: pieces, count: pieceCount)
    pieceStorage = larger
    pieces = larger.base
    pieceCapacity *= 2
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

  fileprivate mutating func addBackdrop(localRow: Int, afterLocalCol col: Int, _ winding: Int32, cols: Int) {
    backdropDelta[localRow * (cols + 1) + col + 1] &+= winding
  }

  /// `emit` for a path whose region is one tile (a short stroke on a small canvas): its pieces
  /// are that tile's in the order they came, with no sort by tile.
  private mutating func emitOneTile(region: Region, rule: FillRule, index: Int, role: TileEntry.Role) {
    addPartialPieces()
    let count = pieceCount
    let winding = backdropDelta[0]
    guard count > 0 || rule.covers(winding: winding) else { return }
    let base = segments.count
    let pieces = self.pieces
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
    Self.zero(&tileCounts, count: tiles + 1)
    let count = pieceCount
    let pieces = self.pieces
    tileCounts.withUnsafeMutableBufferPointer { counts in
      for i in 0..<count { counts[Int(pieces[i].tile) + 1] &+= 1 }
      for i in 0..<tiles { counts[i + 1] &+= counts[i] }
    }
    let base = segments.count
    if sortedStorage.capacity < count {
      sortedStorage = ScratchBuffer<TileSegment>(capacity: Swift.max(count, 2 * sortedStorage.capacity))
    }
    let sorted = sortedStorage.base
    _ = Self.makeRoom(&cursor, count: tiles + 1)
    cursor.withUnsafeMutableBufferPointer { cursor in
      tileCounts.withUnsafeBufferPointer { counts in
        cursor.baseAddress!.update(from: counts.baseAddress!, count: tiles + 1)
      }
      for i in 0..<count {
        let piece = pieces[i]
        let tile = Int(piece.tile)
        (sorted + Int(cursor[tile])).initialize(
          to: TileSegment(x0: piece.x0, y0: piece.y0, x1: piece.x1, y1: piece.y1))
        cursor[tile] &+= 1
      }
    }
    segments.append(contentsOf: UnsafeBufferPointer(start: sorted, count: count))

    for row in 0..<region.rows {
      var winding: Int32 = 0
      for col in 0..<region.cols {
        winding &+= backdropDelta[row * (region.cols + 1) + col]
        let local = row * region.cols + col
        let first = Int(tileCounts[local])
        let count = Int(tileCounts[local + 1]) - first
        guard count > 0 || rule.covers(winding: winding) else { continue }
        let tile = (region.row0 - rowOffset + row) * grid.tilesX + region.col0 + col
        entries.append(
          TileEntry(
            primitive: UInt32(truncatingIfNeeded: index), backdrop: winding,
            segmentStart: UInt32(truncatingIfNeeded: base + first),
            segmentCount: UInt32(truncatingIfNeeded: count), role: role))
        entryTiles.append(Int32(tile))
      }
    }
  }
}

/// Owns one of a binner's scratch buffers (the current path's pieces, and the same sorted by
/// tile): plain values, nothing to deinitialize.
private final class ScratchBuffer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>
  let capacity: Int
  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }
  deinit { base.deallocate() }
}

/// Walks a contour's edges, cutting them into tile pieces and recording the winding carried
/// across tile borders (see the module head).
private struct ContourWalker {
  let grid: TileGrid
  var region: TileBinner.Region
  let tile = Float(TileGrid.tileSize)
  /// 1 / `tile`: a power of two, so multiplying by it gives the quotient's exact float.
  private static let perTile = 1 / Float(TileGrid.tileSize)

  /// The piece before the current one: its row, column (canvas tiles) and whether one exists.
  private var previousRow = 0
  private var previousCol = 0
  private var hasPrevious = false
  private var firstRow = 0
  private var firstCol = 0
  private var firstPoint = Point.zero

  /// The canvas rows binned, in pixels: edges are clamped to `top ... bottom`.
  let top: Float
  let bottom: Float

  init(grid: TileGrid, region: TileBinner.Region, top: Float, bottom: Float) {
    self.grid = grid
    self.region = region
    self.top = top
    self.bottom = bottom
  }

  mutating func walk(_ contour: ArraySlice<Point>, into binner: inout TileBinner) {
    hasPrevious = false
    contour.withUnsafeBufferPointer { points in
      guard var previous = points.last else { return }
      let count = points.count
      var i = 0
      while i < count {
        let point = points[i]
        edge(from: previous, to: point, into: &binner)
        previous = point
        i += 1
        // The edges that follow in the same tile go through the C loop.
        if hasPrevious && i < count {
          let next = binner.addEdgesInTile(
            points, from: i, to: count, row: previousRow, col: previousCol, region: region)
          if next > i {
            previous = points[next - 1]
            i = next
          }
        }
      }
    }
    if hasPrevious {
      transition(
        fromRow: previousRow, fromCol: previousCol, toRow: firstRow, toCol: firstCol, at: firstPoint,
        into: &binner)
    }
  }

  /// Cuts one edge at the canvas border and at tile borders. (Runs of edges inside one tile,
  /// most of an outline, are taken by the C loop in `walk` before they get here.)
  private mutating func edge(from a: Point, to b: Point, into binner: inout TileBinner) {
    let w = Float(grid.width)
    if a.x >= 0, a.x <= w, b.x >= 0, b.x <= w, a.y >= top, a.y <= bottom, b.y >= top, b.y <= bottom {
      let x = tileLineCut(a.x, b.x)
      let y = tileLineCut(a.y, b.y)
      if x.lines < 2, y.lines < 2 {
        var start = clamp(a)
        let (first, second) = x.t <= y.t ? (x.t, y.t) : (y.t, x.t)
        if first > 0 && first < 1 {
          let end = clamp(point(a, b, first))
          piece(from: start, to: end, into: &binner)
          start = end
        }
        if second > 0 && second < 1 {
          let end = clamp(point(a, b, second))
          piece(from: start, to: end, into: &binner)
          start = end
        }
        piece(from: start, to: clamp(b), into: &binner)
        return
      }
    }
    edgeCutAnywhere(from: a, to: b, into: &binner)
  }

  /// For an edge from `p` to `q` along one axis, both inside the canvas: how many tile lines it
  /// crosses inside its span (2 for two or more) and, for one, the parameter there, as the
  /// general cut computes it (0 otherwise, which no piece takes). A pixel-long edge crosses at
  /// most one tile line an axis and no border; this spares it the general cut's scratch and sort.
  @inline(__always)
  private func tileLineCut(_ p: Float, _ q: Float) -> (lines: Int, t: Float) {
    guard p != q else { return (0, 0) }
    let lo = Swift.min(p, q)
    let hi = Swift.max(p, q)
    let k = (lo * Self.perTile).rounded(.up)
    guard k * tile < hi else { return (0, 0) }
    guard (k + 1) * tile >= hi else { return (2, 0) }
    return (1, (k * tile - p) / (q - p))
  }

  /// `edge(from:to:into:)` for any edge: cut at the canvas border and at every tile line.
  private mutating func edgeCutAnywhere(from a: Point, to b: Point, into binner: inout TileBinner) {
    let w = Float(grid.width)
    // Parameters where the edge crosses a line x = k·tile, y = k·tile, or the canvas border: at
    // most two border cuts an axis and one a tile line inside its clamped span, held on the stack
    // (an array kept for them asked three times an edge whether it was still unique).
    @inline(__always) func bound(_ p: Float, _ q: Float, low: Float, high: Float) -> Int {
      let span = Swift.min(Swift.max(p, q), high) - Swift.max(Swift.min(p, q), low)
      return 4 + (span > 0 ? Int(span / tile) : 0)
    }
    let capacity = bound(a.x, b.x, low: 0, high: w) + bound(a.y, b.y, low: top, high: bottom)
    withUnsafeTemporaryAllocation(of: Float.self, capacity: capacity) { buffer in
      var count = 0
      @inline(__always) func add(_ t: Float) {
        guard count < buffer.count else { return }
        buffer[count] = t
        count += 1
      }
      func addCuts(_ p: Float, _ q: Float, low: Float, high: Float) {
        guard p != q else { return }
        let lo = Swift.max(Swift.min(p, q), low)
        let hi = Swift.min(Swift.max(p, q), high)
        if p < low || q < low { add((low - p) / (q - p)) }
        if p > high || q > high { add((high - p) / (q - p)) }
        guard lo < hi else { return }
        var k = (lo * Self.perTile).rounded(.up)
        while k * tile < hi {
          add((k * tile - p) / (q - p))
          k += 1
        }
      }
      addCuts(a.x, b.x, low: 0, high: w)
      addCuts(a.y, b.y, low: top, high: bottom)
      var cuts = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
      cuts.sort()

      var start = clamp(a)
      for t in cuts where t > 0 && t < 1 {
        let end = clamp(point(a, b, t))
        piece(from: start, to: end, into: &binner)
        start = end
      }
      piece(from: start, to: clamp(b), into: &binner)
    }
  }

  private func point(_ a: Point, _ b: Point, _ t: Float) -> Point {
    var p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    // Land exactly on the tile border the cut was made at.
    let rx = (p.x * Self.perTile).rounded() * tile
    let ry = (p.y * Self.perTile).rounded() * tile
    if abs(p.x - rx) < 1e-3 { p.x = rx }
    if abs(p.y - ry) < 1e-3 { p.y = ry }
    return p
  }

  private func clamp(_ p: Point) -> Point {
    Point(
      x: Swift.min(Swift.max(p.x, 0), Float(grid.width)),
      y: Swift.min(Swift.max(p.y, top), bottom))
  }

  private mutating func piece(from a: Point, to b: Point, into binner: inout TileBinner) {
    guard a != b else { return }
    let mid = Point(x: (a.x + b.x) * 0.5, y: (a.y + b.y) * 0.5)
    let col = Swift.min(Swift.max(Int(mid.x * Self.perTile), region.col0), region.col0 + region.cols - 1)
    let row = Swift.min(Swift.max(Int(mid.y * Self.perTile), region.row0), region.row0 + region.rows - 1)
    if hasPrevious {
      if row != previousRow || col != previousCol {
        transition(fromRow: previousRow, fromCol: previousCol, toRow: row, toCol: col, at: a, into: &binner)
      }
    } else {
      hasPrevious = true
      firstRow = row
      firstCol = col
      firstPoint = a
    }
    previousRow = row
    previousCol = col
    if a.y != b.y {
      let ox = Float(col) * tile
      let oy = Float(row) * tile
      binner.addPiece(
        localTile: (row - region.row0) * region.cols + (col - region.col0),
        TileSegment(x0: a.x - ox, y0: a.y - oy, x1: b.x - ox, y1: b.y - oy))
    }
  }

  /// The winding terms where one piece ends and the next begins, at `p`: the ending piece takes
  /// away, and the beginning piece brings, the part of the tile row's height below `p` to every
  /// tile right of it.
  private mutating func transition(
    fromRow: Int, fromCol: Int, toRow: Int, toCol: Int, at p: Point, into binner: inout TileBinner
  ) {
    if fromRow == toRow {
      guard fromCol != toCol else { return }
      let top = Float(fromRow) * tile
      if p.y <= top {
        binner.addBackdrop(
          localRow: fromRow - region.row0, afterLocalCol: fromCol - region.col0, -1, cols: region.cols)
        binner.addBackdrop(
          localRow: toRow - region.row0, afterLocalCol: toCol - region.col0, 1, cols: region.cols)
      } else if p.y < top + tile {
        let y = p.y - top
        if fromCol < toCol {
          for c in (fromCol + 1)...toCol { partial(row: fromRow, col: c, y: y, sign: -1, into: &binner) }
        } else {
          for c in (toCol + 1)...fromCol { partial(row: fromRow, col: c, y: y, sign: 1, into: &binner) }
        }
      }
      return
    }
    carry(row: fromRow, afterCol: fromCol, y: p.y, sign: -1, into: &binner)
    carry(row: toRow, afterCol: toCol, y: p.y, sign: 1, into: &binner)
  }

  /// `sign` × the part of row `row` below `y`, for every tile of the row right of `afterCol`.
  private mutating func carry(row: Int, afterCol: Int, y: Float, sign: Int32, into binner: inout TileBinner) {
    let top = Float(row) * tile
    if y <= top {
      binner.addBackdrop(
        localRow: row - region.row0, afterLocalCol: afterCol - region.col0, sign, cols: region.cols)
    } else if y < top + tile {
      let last = region.col0 + region.cols - 1
      guard afterCol < last else { return }
      for c in (afterCol + 1)...last { partial(row: row, col: c, y: y - top, sign: sign, into: &binner) }
    }
  }

  /// A winding of `sign` down the left edge of tile (row, col), from local `y` to the bottom
  /// (summed with the path's others there before it becomes pieces).
  private func partial(row: Int, col: Int, y: Float, sign: Int32, into binner: inout TileBinner) {
    binner.addPartial(
      localTile: (row - region.row0) * region.cols + (col - region.col0), y: y, sign: sign,
      regionTiles: region.rows * region.cols)
  }

}

extension FillRule {
  /// Whether a point with this winding number is inside under the rule.
  @inline(__always) func covers(winding: Int32) -> Bool {
    self == .nonZero ? winding != 0 : winding & 1 != 0
  }
}
