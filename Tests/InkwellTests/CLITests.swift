// End-to-end checks of the `inkwell` command: it is run as a child process, as a user would.

import Foundation
import Inkwell
import Testing

/// Runs the built `inkwell` with `arguments`, feeding `input` to its standard input.
func runInkwell(_ arguments: [String], input: [UInt8] = [], environment: [String: String?] = [:]) throws -> (
  status: Int32, stdout: [UInt8], stderr: String
) {
  let process = Process()
  if !environment.isEmpty {
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
  }
  process.executableURL = URL(fileURLWithPath: inkwellExecutable())
  process.arguments = arguments
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  let writer = Thread {
    stdin.fileHandleForWriting.write(Data(input))
    try? stdin.fileHandleForWriting.close()
  }
  writer.start()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  let err = stderr.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, [UInt8](out), String(decoding: err, as: UTF8.self))
}

/// The path of the built `inkwell`: under `swift test` the test bundle lives next to the products
/// (…/debug/X.xctest).
func inkwellExecutable() -> String {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var directory = testBinary.deletingLastPathComponent()
  while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("inkwell").path),
    directory.path != "/"
  {
    directory = directory.deletingLastPathComponent()
  }
  return directory.appendingPathComponent("inkwell").path
}

/// A fresh empty directory for one test.
func temporaryDirectory() -> String {
  let path = NSTemporaryDirectory() + "inkwell-cli-" + UUID().uuidString
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

func pngSize(_ path: String) throws -> (Int, Int) {
  let image = try PNGImage.decode(try readInput(path, maxBytes: 1 << 28), maxPixels: 1 << 28)
  return (image.width, image.height)
}

let exampleDocument = Golden.root + "/examples/bdalab-handwriting.inkwell.json"

/// A 4:3 document (400 × 300) with one stroke.
let fourByThree = Array(
  """
  {"format": "inkwell", "version": 1, "bounds": [0, 0, 400, 300],
   "drawing": {"strokes": [{"ink": {"type": "pen", "color": "#000000", "width": 8},
     "fields": ["x", "y"], "points": [[40, 40], [200, 150], [360, 260]]}]}}
  """.utf8)

@Suite("inkwell render", .serialized)
struct RenderCommandTests {
  @Test("renders the example to a PNG of the canvas size")
  func rendersExample() throws {
    let dir = temporaryDirectory()
    let result = try runInkwell(["render", exampleDocument, "-o", dir + "/out.png"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try NativeFormat.decode(readInput(exampleDocument, maxBytes: 1 << 26))
    let (w, h) = try pngSize(dir + "/out.png")
    #expect(w == Int(document.canvas.width.rounded()) && h == Int(document.canvas.height.rounded()))
  }

  @Test("1, 2 and 3 threads write byte-identical files")
  func threadsIdentical() throws {
    let dir = temporaryDirectory()
    var files: [[UInt8]] = []
    for n in [1, 2, 3] {
      let out = dir + "/t\(n).png"
      let result = try runInkwell(["render", exampleDocument, "-o", out, "--threads", "\(n)", "--scale", "2"])
      #expect(result.status == 0, "\(result.stderr)")
      files.append(try readInput(out, maxBytes: 1 << 28))
    }
    #expect(files[0] == files[1])
    #expect(files[0] == files[2])
  }

  @Test("--size fits the canvas in the box, keeping its aspect ratio")
  func sizeFits() throws {
    let dir = temporaryDirectory()
    let doc = dir + "/page.inkwell.json"
    try writeOutput(fourByThree, to: doc)
    for (box, expected) in [
      ("256x256", (256, 192)), ("256x192", (256, 192)), ("100x300", (100, 75)), ("1x1", (1, 1)),
    ] {
      let result = try runInkwell(["render", doc, "-o", dir + "/s.png", "--size", box])
      #expect(result.status == 0, "\(result.stderr)")
      let size = try pngSize(dir + "/s.png")
      #expect(size == expected, "--size \(box) gave \(size)")
    }
    let example = try runInkwell(["render", exampleDocument, "-o", dir + "/e.png", "--size", "256x256"])
    #expect(example.status == 0)
    let (w, h) = try pngSize(dir + "/e.png")
    #expect(max(w, h) == 256)
  }

  @Test("--scale and --region set the size and the part shown")
  func scaleAndRegion() throws {
    let dir = temporaryDirectory()
    let doc = dir + "/page.inkwell.json"
    try writeOutput(fourByThree, to: doc)
    var result = try runInkwell(["render", doc, "-o", dir + "/a.png", "--scale", "0.5"])
    #expect(result.status == 0)
    #expect(try pngSize(dir + "/a.png") == (200, 150))
    result = try runInkwell([
      "render", doc, "-o", dir + "/b.png", "--region", "100,50,120,80", "--scale", "2",
    ])
    #expect(result.status == 0)
    #expect(try pngSize(dir + "/b.png") == (240, 160))
  }

  @Test("transparent background keeps alpha; a color background is opaque")
  func background() throws {
    let dir = temporaryDirectory()
    let doc = dir + "/page.inkwell.json"
    try writeOutput(fourByThree, to: doc)
    #expect(try runInkwell(["render", doc, "-o", dir + "/t.png", "--background", "transparent"]).status == 0)
    let t = try PNGImage.decode(readInput(dir + "/t.png", maxBytes: 1 << 26), maxPixels: 1 << 26)
    #expect(t.pixels[3] == 0)
    #expect(try runInkwell(["render", doc, "-o", dir + "/c.png", "--background", "#336699"]).status == 0)
    let c = try PNGImage.decode(readInput(dir + "/c.png", maxBytes: 1 << 26), maxPixels: 1 << 26)
    #expect(Array(c.pixels[0..<4]) == [0x33, 0x66, 0x99, 255])
  }

  @Test("'-' reads standard input and writes standard output")
  func standardStreams() throws {
    let result = try runInkwell(["render", "-", "-o", "-"], input: fourByThree)
    #expect(result.status == 0, "\(result.stderr)")
    let image = try PNGImage.decode(result.stdout, maxPixels: 1 << 26)
    #expect(image.width == 400 && image.height == 300)
  }

  static let badDocuments: [(String, String, String)] = [
    ("truncated", String(decoding: fourByThree.prefix(120), as: UTF8.self), "line"),
    ("not JSON", "this is not a document", "invalid JSON"),
    ("wrong type", ##"{"format": "inkwell", "version": 1, "drawing": {"strokes": 3}}"##, "drawing.strokes"),
    (
      "short point row",
      ##"{"format": "inkwell", "version": 1, "drawing": {"strokes": [{"ink": {"type": "pen", "color": "#000000", "width": 2}, "fields": ["x", "y"], "points": [[1, 2], [3]]}]}}"##,
      "points[1]"
    ),
    (
      "unknown ink",
      ##"{"format": "inkwell", "version": 1, "drawing": {"strokes": [{"ink": {"type": "quill", "color": "#000000", "width": 2}, "fields": ["x", "y"], "points": [[1, 2]]}]}}"##,
      "quill"
    ),
    ("too new", ##"{"format": "inkwell", "version": 99, "drawing": {"strokes": []}}"##, "99"),
  ]

  @Test(
    "bad documents fail with one clear line, a non-zero status and no output file", arguments: badDocuments)
  func badInput(_ bad: (String, String, String)) throws {
    let dir = temporaryDirectory()
    let doc = dir + "/bad.inkwell.json"
    try writeOutput(Array(bad.1.utf8), to: doc)
    let result = try runInkwell(["render", doc, "-o", dir + "/out.png"])
    #expect(result.status != 0, "\(bad.0)")
    #expect(result.stderr.hasPrefix("inkwell: "), "\(bad.0): \(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(bad.0): \(result.stderr)")
    #expect(result.stderr.contains(bad.2), "\(bad.0): \(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"), "\(bad.0) left an output file")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bad.inkwell.json"])
  }

  @Test(
    "a render killed midway leaves nothing in the folder",
    .enabled(if: makesUnnamedFiles(in: NSTemporaryDirectory())))
  func killedRenderLeavesNothing() throws {
    let dir = temporaryDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: inkwellExecutable())
    // 25 680 × 13 380 pixels, streamed: about a second of work on a release build, several on
    // the tests' debug build, killed long before it ends.
    process.arguments = [
      "render", exampleDocument, "-o", dir + "/page.png", "--scale", "60", "--max-pixels", "400000000",
    ]
    process.standardError = FileHandle.nullDevice
    try process.run()
    usleep(200_000)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
  }

  @Test("a failed render leaves an existing output file untouched")
  func keepsExistingOutput() throws {
    let dir = temporaryDirectory()
    try writeOutput(Array("old".utf8), to: dir + "/out.png")
    try writeOutput(Array("{".utf8), to: dir + "/bad.inkwell.json")
    let result = try runInkwell(["render", dir + "/bad.inkwell.json", "-o", dir + "/out.png"])
    #expect(result.status != 0)
    #expect(try readInput(dir + "/out.png", maxBytes: 100) == Array("old".utf8))
  }

  @Test("a missing input file is a one-line error")
  func missingInput() throws {
    let result = try runInkwell(["render", "/nonexistent/doc.inkwell.json", "-o", "/tmp/never.png"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("No such file"))
  }

  @Test("a full disk is a typed error")
  func fullDisk() throws {
    let result = try runInkwell(["render", exampleDocument, "-o", "/dev/full"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
  }

  @Test("an image over the pixel limit is refused before rendering")
  func sizeLimit() throws {
    let dir = temporaryDirectory()
    var result = try runInkwell(["render", exampleDocument, "-o", dir + "/big.png", "--scale", "100"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("exceeds the limit of 256000000 pixels"), "\(result.stderr)")
    result = try runInkwell(["render", exampleDocument, "-o", dir + "/big.png", "--max-pixels", "1000"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("limit of 1000 pixels"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/big.png"))
  }

  static let badArguments: [[String]] = [
    ["render"],
    ["render", "x.inkwell.json"],
    ["render", "x.inkwell.json", "-o"],
    ["render", "x.inkwell.json", "-o", "y.png", "--size", "0x10"],
    ["render", "x.inkwell.json", "-o", "y.png", "--size", "big"],
    ["render", "x.inkwell.json", "-o", "y.png", "--scale", "-1"],
    ["render", "x.inkwell.json", "-o", "y.png", "--scale", "nan"],
    ["render", "x.inkwell.json", "-o", "y.png", "--region", "0,0,0,5"],
    ["render", "x.inkwell.json", "-o", "y.png", "--threads", "0"],
    ["render", "x.inkwell.json", "-o", "y.png", "--background", "plaid"],
    ["render", "x.inkwell.json", "-o", "y.png", "--size", "10x10", "--scale", "2"],
    ["render", "x.inkwell.json", "-o", "y.png", "--frobnicate"],
    ["frobnicate"],
  ]

  @Test("usage errors exit with status 2 and say what is wrong", arguments: badArguments)
  func usageErrors(_ arguments: [String]) throws {
    let result = try runInkwell(arguments)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("inkwell: "))
  }
}

@Suite struct InfoCommandTests {
  @Test func infoJSONReportsCountsAndContentVersion() throws {
    let dir = temporaryDirectory()
    let reed = """
      {"format": "inkwell", "version": 1, "drawing": {"strokes": [
       {"ink": {"type": "reed", "color": "#000000"}, "fields": ["x", "y"], "points": [[0, 0], [5, 5]]},
       {"ink": {"type": "pen", "color": "#000000"}, "fields": ["x", "y"], "points": [[1, 1]]}]}}
      """
    let path = dir + "/reed.inkwell.json"
    try Data(reed.utf8).write(to: URL(fileURLWithPath: path))
    let result = try runInkwell(["info", path, "--json"])
    #expect(result.status == 0)
    let summary = try JSONReader.parse(result.stdout)
    #expect(summary["strokes"]?.intValue == 2)
    #expect(summary["points"]?.intValue == 3)
    #expect(summary["requiredContentVersion"]?.intValue == 4)
    let binary = dir + "/reed.inkwell"
    #expect(try runInkwell(["convert", path, binary]).status == 0)
    let fromBinary = try JSONReader.parse(try runInkwell(["info", "--json", binary]).stdout)
    #expect(fromBinary["format"]?.stringValue == "binary")
    #expect(fromBinary["requiredContentVersion"]?.intValue == 4)
    let back = dir + "/back.json"
    #expect(try runInkwell(["convert", binary, back, "--to", "json"]).status == 0)
    #expect(
      try readInput(back, maxBytes: 1 << 20) == NativeFormat.encode(NativeFormat.decode(Array(reed.utf8))))
  }

  @Test func infoReportsBarrelRollFountainPen() throws {
    let dir = temporaryDirectory()
    let text = """
      {"format": "inkwell", "version": 1, "drawing": {"strokes": [
       {"ink": {"type": "fountainPen", "color": "#000000"}, "fields": ["x", "y", "roll"], "points": [[0, 0, 0.5]]}]}}
      """
    let path = dir + "/roll.inkwell.json"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let summary = try JSONReader.parse(try runInkwell(["info", path, "--json"]).stdout)
    #expect(summary["requiredContentVersion"]?.intValue == 3)
    let bad = try runInkwell(["info", dir + "/missing.inkwell"])
    #expect(bad.status != 0)
  }
}
