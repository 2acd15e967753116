// `inkwell thumbnail`: many documents in one process, each equal to its own `inkwell render`.

import Foundation
import Inkwell
import Testing

/// The documents the batch tests render: the examples and two golden pages.
let thumbnailInputs = [
  Golden.root + "/examples/bdalab-handwriting.inkwell.json",
  Golden.root + "/examples/mypaint-painting.inkwell.json",
  Golden.root + "/golden/pen/curve.inkwell.json",
  Golden.root + "/golden/pen/translucent-self-crossing-loop.inkwell.json",
]

func directoryListing(_ path: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: path).sorted()
}

@Suite("inkwell thumbnail", .serialized)
struct ThumbnailCommandTests {
  @Test("each thumbnail is the bytes `inkwell render --size` writes, on one thread or two")
  func matchesRender() throws {
    let dir = temporaryDirectory()
    for threads in ["1", "2"] {
      let result = try runInkwell(
        ["thumbnail"] + thumbnailInputs + [
          "-o", dir + "/t" + threads, "--size", "200x150", "--threads", threads,
        ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.hasPrefix("thumbnail: 4 written, 0 failed in "), "\(result.stderr)")
    }
    let names = [
      "bdalab-handwriting.png", "curve.png", "mypaint-painting.png", "translucent-self-crossing-loop.png",
    ]
    #expect(try directoryListing(dir + "/t1") == names)
    // One document on three threads: its tiles take them all.
    let alone = try runInkwell([
      "thumbnail", thumbnailInputs[1], "-o", dir + "/t3", "--size", "200x150", "--threads", "3",
    ])
    #expect(alone.status == 0, "\(alone.stderr)")
    for (input, name) in zip(thumbnailInputs, [names[0], names[2], names[1], names[3]]) {
      let single = dir + "/single-" + name
      let result = try runInkwell(["render", input, "-o", single, "--size", "200x150"])
      #expect(result.status == 0, "\(result.stderr)")
      let expected = try readInput(single, maxBytes: 1 << 26)
      #expect(try readInput(dir + "/t1/" + name, maxBytes: 1 << 26) == expected, "\(name), one thread")
      #expect(try readInput(dir + "/t2/" + name, maxBytes: 1 << 26) == expected, "\(name), two threads")
      if name == names[2] {
        #expect(try readInput(dir + "/t3/" + name, maxBytes: 1 << 26) == expected, "\(name), alone")
      }
      let (w, h) = try pngSize(single)
      #expect(w <= 200 && h <= 150 && (w == 200 || h == 150), "\(name): \(w)×\(h)")
    }
  }

  @Test("a bad document is reported and skipped; the others are written; the status is 1")
  func badDocumentInBatch() throws {
    let dir = temporaryDirectory()
    try writeOutput(
      Array("{\"format\": \"inkwell\", \"version\": 1, \"drawing\": ".utf8), to: dir + "/cut.inkwell.json")
    try writeOutput(Array("not a document".utf8), to: dir + "/noise.txt")
    let inputs = [
      thumbnailInputs[0], dir + "/cut.inkwell.json", dir + "/missing.inkwell.json", dir + "/noise.txt",
    ]
    let result = try runInkwell(["thumbnail"] + inputs + ["-o", dir + "/out", "--threads", "2"])
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 5, "\(result.stderr)")
    #expect(lines.contains { $0.hasPrefix("inkwell: thumbnail: ") && $0.contains("cut.inkwell.json") })
    #expect(lines.contains { $0.contains("missing.inkwell.json") && $0.contains("No such file") })
    #expect(lines.contains { $0.contains("noise.txt") && $0.contains("not a document") })
    #expect(lines.contains { $0.hasPrefix("thumbnail: 1 written, 3 failed") })
    #expect(lines.last == "inkwell: thumbnail: 3 of 4 documents failed")
    // Only the good document's file: no partial output, no temporary file left behind.
    #expect(try directoryListing(dir + "/out") == ["bdalab-handwriting.png"])
  }

  @Test("a document newer than this build gives the thumbnail it carries, when that is a PNG")
  func embeddedThumbnail() throws {
    let dir = temporaryDirectory()
    let picture = dir + "/picture.png"
    #expect(try runInkwell(["render", thumbnailInputs[2], "-o", picture, "--size", "40x30"]).status == 0)
    let png = try readInput(picture, maxBytes: 1 << 20)
    let newer = #"{"format": "inkwell", "version": 7, "elements": [], "thumbnail": ""#
    try writeOutput(
      Array((newer + Data(png).base64EncodedString() + "\"}").utf8), to: dir + "/newer.inkwell.json")
    // The corpus's newer document carries bytes that only start like a PNG: no file for it.
    let fake = Golden.root + "/Tests/InkwellTests/Malformed/newer-version-with-thumbnail.inkwell.json"
    let result = try runInkwell(["thumbnail", dir + "/newer.inkwell.json", fake, "-o", dir + "/out"])
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.contains("newer.inkwell.json") && $0.hasSuffix("wrote the thumbnail the document carries")
      },
      "\(result.stderr)")
    #expect(
      lines.contains { $0.hasPrefix("thumbnail: 0 written, 1 failed, 1 from their own thumbnails in ") })
    #expect(try directoryListing(dir + "/out") == ["newer.png"])
    #expect(try readInput(dir + "/out/newer.png", maxBytes: 1 << 20) == png)
  }

  @Test("--report writes a JSON line a document, in the inputs' order")
  func report() throws {
    let dir = temporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
    try writeOutput(Array("kept".utf8), to: dir + "/out/curve.png")
    let inputs = [thumbnailInputs[2], dir + "/missing.inkwell.json", thumbnailInputs[0]]
    let result = try runInkwell(
      ["thumbnail"] + inputs + [
        "-o", dir + "/out", "--skip-existing", "--threads", "2", "--report", dir + "/r.jsonl",
      ])
    #expect(result.status == 1)
    let lines = try readInput(dir + "/r.jsonl", maxBytes: 1 << 20).split(separator: UInt8(ascii: "\n"))
    #expect(lines.count == 3)
    let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0)) as? [String: String] }
    #expect(objects.map { $0?["input"] } == inputs)
    #expect(objects.map { $0?["status"] } == ["skipped", "failed", "written"])
    #expect(objects[0]?["output"] == dir + "/out/curve.png")
    #expect(objects[1]?["message"]?.contains("No such file") == true)
    #expect(objects[2]?["message"] == nil)
  }

  @Test("SIGTERM stops the batch between documents: no partial file, the rest not started")
  func stopsOnSignal() throws {
    let dir = temporaryDirectory()
    // Removed afterwards: its 3000 links to one golden document would otherwise pile up run after
    // run until the file reached the file system's limit on links.
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
    // Enough small pages that the batch is still running when the signal comes.
    let count = 3000
    for i in 0..<count {
      try FileManager.default.linkItem(atPath: thumbnailInputs[2], toPath: dir + "/in/p\(i).inkwell.json")
    }
    try writeOutput(
      Array((0..<count).map { dir + "/in/p\($0).inkwell.json\n" }.joined().utf8), to: dir + "/list")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: inkwellExecutable())
    process.arguments = [
      "thumbnail", "--list", dir + "/list", "-o", dir + "/out", "--report", dir + "/r.jsonl",
    ]
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out").contains {
      $0.hasSuffix(".png")
    }) != true,
      Date() < deadline
    {
      usleep(2000)
    }
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 128 + SIGTERM)
    let files = try directoryListing(dir + "/out")
    #expect(
      !files.isEmpty && files.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") }, "\(files.prefix(5))")
    // Every file written is a whole PNG.
    for name in files { _ = try pngSize(dir + "/out/" + name) }
    let report = String(decoding: try readInput(dir + "/r.jsonl", maxBytes: 1 << 24), as: UTF8.self)
    let lines = report.split(separator: "\n")
    #expect(lines.count == count)
    let notStarted = lines.filter { $0.contains(#""status":"not started""#) }.count
    #expect(
      notStarted > 0 && notStarted + files.count == count, "\(notStarted) not started, \(files.count) written"
    )
  }

  @Test("--list reads paths a line each, from a file or standard input")
  func listedInputs() throws {
    let dir = temporaryDirectory()
    let list = thumbnailInputs[0] + "\n\n" + thumbnailInputs[2] + "\r\n"
    try writeOutput(Array(list.utf8), to: dir + "/list.txt")
    var result = try runInkwell([
      "thumbnail", "--list", dir + "/list.txt", thumbnailInputs[1], "-o", dir + "/a",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try directoryListing(dir + "/a") == ["bdalab-handwriting.png", "curve.png", "mypaint-painting.png"])
    result = try runInkwell(["thumbnail", "--list", "-", "-o", dir + "/b"], input: Array(list.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try directoryListing(dir + "/b") == ["bdalab-handwriting.png", "curve.png"])
  }

  @Test("--skip-existing leaves finished thumbnails alone and counts them")
  func skipExisting() throws {
    let dir = temporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
    try writeOutput(Array("kept".utf8), to: dir + "/out/curve.png")
    let result = try runInkwell([
      "thumbnail", thumbnailInputs[0], thumbnailInputs[2], "-o", dir + "/out", "--skip-existing",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("thumbnail: 1 written, 0 failed, 1 skipped in "), "\(result.stderr)")
    #expect(try readInput(dir + "/out/curve.png", maxBytes: 100) == Array("kept".utf8))
    #expect(try directoryListing(dir + "/out") == ["bdalab-handwriting.png", "curve.png"])
  }

  @Test("--relative-to keeps the folders below ROOT, so equal names in different folders do not clash")
  func relativeTo() throws {
    let dir = temporaryDirectory()
    for folder in ["/in/u1/a", "/in/u2"] {
      try FileManager.default.createDirectory(atPath: dir + folder, withIntermediateDirectories: true)
    }
    let curve = try readInput(thumbnailInputs[2], maxBytes: 1 << 26)
    try writeOutput(curve, to: dir + "/in/u1/a/doc.inkwell.json")
    try writeOutput(curve, to: dir + "/in/u2/doc.inkwell")
    try writeOutput(curve, to: dir + "/in/top.json")
    let inputs = [dir + "/in/u1/a/doc.inkwell.json", dir + "/in/./u2//doc.inkwell", dir + "/in/top.json"]
    let result = try runInkwell(["thumbnail"] + inputs + ["-o", dir + "/out", "--relative-to", dir + "/in/"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try directoryListing(dir + "/out") == ["top.png", "u1", "u2"])
    #expect(try directoryListing(dir + "/out/u1/a") == ["doc.png"])
    #expect(try directoryListing(dir + "/out/u2") == ["doc.png"])
    #expect(
      try readInput(dir + "/out/u2/doc.png", maxBytes: 1 << 20)
        == readInput(dir + "/out/top.png", maxBytes: 1 << 20))
    // Outside ROOT, or through '..': refused before anything is written.
    for bad in [thumbnailInputs[0], dir + "/in/../in/top.json", dir + "/in"] {
      let refused = try runInkwell(["thumbnail", bad, "-o", dir + "/never", "--relative-to", dir + "/in"])
      #expect(refused.status == 2, "\(bad): \(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/never"))
    }
  }

  @Test("two inputs with one output name are refused before anything is written")
  func clashingNames() throws {
    let dir = temporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
    let copy = dir + "/other/curve.inkwell.json"
    try writeOutput(try readInput(thumbnailInputs[2], maxBytes: 1 << 26), to: copy)
    let result = try runInkwell([
      "thumbnail", thumbnailInputs[0], thumbnailInputs[2], copy, "-o", dir + "/out",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("would both be written to"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
  }

  @Test(
    "output names drop the document suffix",
    arguments: [
      ("a/b/page.inkwell.json", "page.png"), ("page.INKWELL", "page.png"), ("rec.dat", "rec.png"),
      ("notes.v2.xopp", "notes.v2.png"), ("scan.binarypb", "scan.png"), ("README", "README.png"),
      (".hidden", ".hidden.png"), ("dir/x.tar.gz", "x.tar.png"), ("ünï.inkml", "ünï.png"),
    ])
  func outputNames(_ pair: (String, String)) throws {
    let dir = temporaryDirectory()
    let input = dir + "/in/" + pair.0
    let folder = String(input[..<input.lastIndex(of: "/")!])
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try writeOutput(try readInput(thumbnailInputs[2], maxBytes: 1 << 26), to: input)
    let result = try runInkwell(["thumbnail", input, "-o", dir + "/out"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try directoryListing(dir + "/out") == [pair.1])
  }

  static let badArguments: [[String]] = [
    ["thumbnail"],
    ["thumbnail", "x.inkwell.json"],
    ["thumbnail", "-o", "dir"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--size", "0x10"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--threads", "0"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--png-effort", "10"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--max-bytes", "-5"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--from", "paper"],
    ["thumbnail", "-", "-o", "dir"],
    ["thumbnail", "x.inkwell.json", "-o", "dir", "--frobnicate"],
  ]

  @Test("usage errors exit with status 2 and say what is wrong", arguments: badArguments)
  func usageErrors(_ arguments: [String]) throws {
    let result = try runInkwell(arguments)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("inkwell: thumbnail: "), "\(result.stderr)")
  }
}
