// The ink options of `inkwell render` and the `inkwell inks` contact sheet, run as a user would.

import Foundation
import Inkwell
import Testing

@Suite("CLI: inks")
struct InkCLITests {
  @Test("inks -o draws the contact sheet: one row per ink, four cells")
  func contactSheet() throws {
    let directory = temporaryDirectory()
    let out = directory + "/sheet.png"
    let result = try runInkwell(["inks", "-o", out])
    #expect(result.status == 0, "\(result.stderr)")
    let (w, h) = try pngSize(out)
    #expect(w == 640 && h == 90 * InkType.allCases.count)
  }

  @Test("render --ink re-inks every stroke; --color and --width go with it")
  func renderWithInk() throws {
    let directory = temporaryDirectory()
    let plain = directory + "/plain.png"
    let pencil = directory + "/pencil.png"
    let red = directory + "/red.png"
    #expect(try runInkwell(["render", exampleDocument, "-o", plain]).status == 0)
    let result = try runInkwell(["render", exampleDocument, "-o", pencil, "--ink", "pencil"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try runInkwell([
        "render", exampleDocument, "-o", red, "--ink", "marker", "--color", "#ff0000", "--width", "8",
      ])
      .status == 0)
    let a = try PNGImage.decode(readInput(plain, maxBytes: 1 << 26), maxPixels: 1 << 24)
    let b = try PNGImage.decode(readInput(pencil, maxBytes: 1 << 26), maxPixels: 1 << 24)
    let c = try PNGImage.decode(readInput(red, maxBytes: 1 << 26), maxPixels: 1 << 24)
    #expect(a.width == b.width && a.height == b.height)
    #expect(a.pixels != b.pixels)
    // Some pixel of the red marker is clearly red.
    var reddest = 0
    for p in stride(from: 0, to: c.pixels.count, by: 4) where c.pixels[p] > 200 {
      reddest = max(reddest, Int(c.pixels[p]) - Int(c.pixels[p + 1]))
    }
    #expect(reddest > 100)
  }

  @Test("render --ink with an unknown ink is a usage error naming the known ones")
  func unknownInk() throws {
    let result = try runInkwell(["render", exampleDocument, "-o", "/dev/null", "--ink", "quill"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown ink 'quill'") && result.stderr.contains("fountainPen"))
  }
}
