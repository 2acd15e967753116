import Foundation
import Testing

@testable import Inkwell

@Suite("Band rendering")
struct BandRendererTests {
  /// The bands, stacked, as one image.
  static func stacked(_ drawing: Drawing, viewport: Viewport, threads: Int) -> RGBA8Image {
    var pixels: [UInt8] = []
    var expectedRow = 0
    Renderer(threads: threads, minimumWorkPerThread: 0).renderBands(
      drawing, viewport: viewport, background: .white
    ) {
      band, firstRow in
      #expect(firstRow == expectedRow)
      #expect(band.width == viewport.width)
      expectedRow += band.height
      pixels.append(contentsOf: band.pixels)
    }
    return RGBA8Image(width: viewport.width, height: viewport.height, pixels: pixels)
  }

  @Test(
    "bands stacked are bit for bit the whole-canvas render",
    arguments: [(300, 700, 3), (513, 256, 4), (97, 1030, 5)])
  func matchesWholeCanvas(_ size: (Int, Int, Int)) {
    let (w, h, seed) = size
    var drawing = randomDrawing(seed: UInt64(seed), count: 220, width: Float(w), height: Float(h))
    // Some long strokes that cross several bands, and a masked one.
    drawing.strokes.append(penStroke([(5, 5), (Float(w) - 5, Float(h) - 5), (Float(w) / 2, 10)], width: 9))
    var masked = penStroke([(10, Float(h) / 2), (Float(w) - 10, Float(h) / 2 + 40)], width: 30)
    masked.mask = StrokeMask(erasures: [
      EraserSweep(centers: [Point(x: Float(w) / 2, y: 0), Point(x: Float(w) / 2, y: Float(h))], radius: 6)
    ])
    drawing.strokes.append(masked)
    let viewport = Viewport(region: Rect(x: 0, y: 0, width: Float(w), height: Float(h)), width: w, height: h)
    let whole = Renderer(threads: 2).render(drawing, viewport: viewport, background: .white)
    #expect(Self.stacked(drawing, viewport: viewport, threads: 2) == whole)
    #expect(Self.stacked(drawing, viewport: viewport, threads: 1) == whole)
  }

  @Test("a scaled view renders the same in bands")
  func scaledView() {
    let drawing = randomDrawing(seed: 77, count: 120, width: 400, height: 300)
    let viewport = Viewport(region: Rect(x: 20, y: -10, width: 400, height: 300), width: 1000, height: 750)
    let whole = Renderer(threads: 1).render(drawing, viewport: viewport, background: .white)
    #expect(Self.stacked(drawing, viewport: viewport, threads: 2) == whole)
  }
}

@Suite("Streamed PNG output")
struct StreamedPNGTests {
  @Test("writePNG streams the same bytes as encoding the whole render", arguments: [1, 2, 3])
  func sameBytes(threads: Int) throws {
    let drawing = randomDrawing(seed: 31, count: 150, width: 300, height: 600)
    let document = Document(bounds: Rect(x: 0, y: 0, width: 300, height: 600), drawing: drawing)
    let options = RenderOptions(threads: threads)
    let expected = try document.render(options).pngData(threads: threads)
    // More than 256 colors, so the whole render has no palette either.
    #expect(colorType(of: expected) == 2)
    let path = temporaryDirectory() + "/streamed.png"
    for wholeUpTo in [PNGBandEncoder.palettePixelLimit, 0] {
      let writer = try OutputFileWriter(path: path)
      try document.writePNG(
        to: writer, options: options, effort: PNGBandEncoder.defaultEffort, inks: .standard,
        wholeUpTo: wholeUpTo)
      try writer.commit()
      #expect(try readInput(path, maxBytes: 1 << 26) == expected, "rendered whole up to \(wholeUpTo) pixels")
    }
  }

  @Test("a failed streamed render leaves no file")
  func failureLeavesNothing() throws {
    let directory = temporaryDirectory()
    let writer = try OutputFileWriter(path: directory + "/never.png")
    let document = Document(bounds: Rect(x: 0, y: 0, width: 100, height: 100), drawing: Drawing())
    #expect(throws: RenderError.self) {
      try document.writePNG(to: writer, options: RenderOptions(sizing: .scale(1e6), maxPixels: 1000))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }
}
