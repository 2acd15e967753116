// `--dump-tiles` and `--dump-fills`: what two kernels receive while a polygon file is rendered,
// for `Benchmarks/kernel-ab`, which times two versions of a kernel on the same inputs in one
// process. Both files are little-endian.
//
// "INKTILE1", the composited float tiles as the 8-bit resolves receive them: u32 tile count; then
// per tile u32 block bits (bit bx + 4·by for the 8 × 8 block at column bx, row by: set where a
// pixel differs from the background), i32 x and y of the tile's corner in its image, and the
// tile's 4 × 1024 floats (premultiplied linear red, green, blue and alpha planes, each
// column-major). Only whole tiles that a primitive touches are written, documents in order, up to
// `limit`.
//
// "INKFILL1", the calls of `fill_lines` (one primitive's fill of one tile): u32 call count; then
// per call u32 fill rule (0 non-zero, 1 even-odd), f32 backdrop, f32 red, green, blue, alpha
// (premultiplied linear), u32 piece count, the tile's 4 × 1024 floats as the call found them,
// and the pieces (x0, y0, x1, y1 in tile coordinates). The cells are zero at every call. The
// calls of the documents in order, up to `limit`.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@MainActor
enum DumpTilesCommand {
  /// What is recorded: the tiles the 8-bit resolves receive, or the calls of `fill_lines`.
  enum Kind {
    case tiles, fills

    var magic: [UInt8] { Array((self == .tiles ? "INKTILE1" : "INKFILL1").utf8) }
    var noun: String { self == .tiles ? "tiles" : "fill_lines calls" }
  }

  /// Returns the process's exit status.
  static func run(_ kind: Kind, path: String, output: String, limit: Int) -> Int32 {
    guard let scene = PolygonFile.readReportingErrors(path) else { return 1 }
    let collected = kind == .tiles ? tiles(of: scene, limit: limit) : fills(of: scene, limit: limit)
    var bytes = kind.magic
    appendLittleEndian(UInt32(collected.count), to: &bytes)
    bytes.append(contentsOf: collected.bytes)
    do {
      try writeFile(output, bytes: bytes)
    } catch {
      print("inkwell-bench: \(error)", to: &standardError)
      return 1
    }
    print("\(path): \(collected.count) \(kind.noun) → \(output)")
    return 0
  }

  private static func tiles(of scene: PolygonScene, limit: Int) -> Collected {
    let size = TileGrid.tileSize
    let plane = size * size
    let width = scene.outWidth
    let height = scene.outHeight
    let collected = Collected()
    for document in scene.documents.indices where collected.count < limit {
      let primitives = scene.primitives(document: document)
      let bins = Renderer.bin(primitives, width: width, height: height)
      // One thread: the tiles come in the same order on every run.
      TileRasterizer().renderTilesSkippingEmpty(
        bins, primitives: primitives, background: LinearColor(red: 1, green: 1, blue: 1, alpha: 1), threads: 1
      ) { column, row, tile in
        guard let tile, collected.count < limit,
          (column + 1) * size <= width, (row + 1) * size <= height
        else { return }
        var blocks: UInt32 = 0
        for by in 0..<4 {
          for bx in 0..<4 where !isBackground(tile, plane: plane, blockX: bx, blockY: by, size: size) {
            blocks |= 1 << UInt32(bx + 4 * by)
          }
        }
        collected.append(blocks)
        collected.append(UInt32(bitPattern: Int32(column * size)))
        collected.append(UInt32(bitPattern: Int32(row * size)))
        for i in 0..<(4 * plane) { collected.append(tile[i].bitPattern) }
        collected.count += 1
      }
    }
    return collected
  }

  private static func fills(of scene: PolygonScene, limit: Int) -> Collected {
    let plane = TileGrid.tileSize * TileGrid.tileSize
    let collected = Collected()
    var kernels = RasterKernels.native
    let fillLines = kernels.fillLines
    kernels.fillLines = { tile, cells, lines, count, backdrop, rule, color, blocks in
      if collected.count < limit {
        collected.append(rule == .evenOdd ? 1 : 0)
        collected.append(backdrop.bitPattern)
        for c in 0..<4 { collected.append(color[c].bitPattern) }
        collected.append(UInt32(count))
        for i in 0..<(4 * plane) { collected.append(tile[i].bitPattern) }
        for i in 0..<(4 * count) { collected.append(lines[i].bitPattern) }
        collected.count += 1
      }
      fillLines(tile, cells, lines, count, backdrop, rule, color, blocks)
    }
    var renderer = Renderer(threads: 1)
    renderer.rasterizer = TileRasterizer(kernels: kernels)
    var image = RGBA8Image(
      width: scene.outWidth, height: scene.outHeight,
      pixels: [UInt8](repeating: 0, count: scene.outWidth * scene.outHeight * 4))
    for document in scene.documents.indices where collected.count < limit {
      renderer.render(scene.primitives(document: document), into: &image, background: .white)
    }
    return collected
  }

  /// Whether every pixel of the 8 × 8 block holds the white background (1 in every plane).
  nonisolated private static func isBackground(
    _ tile: UnsafeMutablePointer<Float>, plane: Int, blockX: Int, blockY: Int, size: Int
  ) -> Bool {
    for p in 0..<4 {
      for x in (blockX * 8)..<(blockX * 8 + 8) {
        for y in (blockY * 8)..<(blockY * 8 + 8) where tile[p * plane + x * size + y] != 1 {
          return false
        }
      }
    }
    return true
  }

  /// What the sink gathers, on the one rendering thread.
  private final class Collected: @unchecked Sendable {
    var bytes: [UInt8] = []
    var count = 0

    func append(_ value: UInt32) { appendLittleEndian(value, to: &bytes) }
  }
}

private func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
  for shift in stride(from: 0, to: 32, by: 8) {
    bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
  }
}
