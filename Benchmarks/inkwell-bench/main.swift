// inkwell-bench: how long Inkwell takes, stage by stage, on real and synthetic drawings.
//
// What it measures. Every scene is rendered the way `Document.render` followed by `pngData` renders
// it, taken apart so that each stage has its own clock: load (parse bytes already in memory), build
// (strokes → primitives), bin (primitives → tile lists), raster (tiles composited and resolved to
// 8-bit sRGB), encode (PNG), and the total from bytes in to bytes out. Each scene runs at scale 1 and
// fitted into 256×256, on each thread count asked for (only raster is parallel; the other stages
// run on the calling thread whatever the count).
//
// Scenes. `examples/*.inkwell.json`; the `.dat` and `.svc` recordings in `../shared/corpus`
// (libmypaint, BDALab); and two scenes generated here from a seeded SplitMix64, `notes` and
// `sketch`, which are encoded to native JSON first so that they pass through the same load stage.
//
// How. A case is one scene at one size on one thread count. Every case first runs once to warm up
// (caches, page faults, lazily initialized state); that run is also checked against the public
// `Document.render` (same pixels) and between thread counts (same pixels), and it is the run whose
// peak memory is reported. Then the timed runs go round all cases in turn, so slow drift of the
// machine (other builds, frequency changes) spreads over every case instead of landing on one. Times
// come from CLOCK_MONOTONIC; each case reports median, minimum and maximum.
//
// Peers. After the staged table, the comparison (Comparison.swift) writes each scene's stroke
// outlines as an INKOUTL1 polygon file and times Inkwell filling it (`fill`) and drawing the
// strokes (`ink`) against Blend2D, Skia and Cairo filling the same file, each in a Python worker
// (Benchmarks/peers/fill.py) driven run by run so that all engines interleave; then it checks the
// targets of issue 6 (ComparisonReport.swift). The large scenes (big, huge, thumbs, fill-rate) run
// only in the full run or when named with --scene.
//
// Known limits. Wall time on a shared machine wobbles; compare medians from the same run, and read
// min–max as the noise. Peak memory is process-wide: it is read from VmHWM (Linux) or ru_maxrss and
// reset before each warm-up through /proc/self/clear_refs (see `PeakMemory`); where the kernel
// refuses, the column is the peak so far (cases run smallest first, so it still grows with the case
// that caused it). Either way it includes what the process holds throughout (every scene's input
// bytes), and the growth shown over that baseline misses memory glibc kept from an earlier case.
// Load times exclude reading the file. Thumbnails still build primitives for every stroke; that is
// what the renderer does today, and exactly what the numbers should show.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var text = string
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
  }
}

var standardError = StandardError()

let options: BenchOptions
do {
  options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  print("inkwell-bench: \(error.message)\n\n\(BenchOptions.usage)", to: &standardError)
  exit(2)
}
if options.showHelp {
  print(BenchOptions.usage)
  exit(0)
}
// A peer worker that dies must not take the harness with it.
signal(SIGPIPE, SIG_IGN)

if let path = options.fillScene {
  exit(
    FillSceneCommand.run(
      path: path, threads: options.threadCounts.first ?? 1, runs: options.runs,
      idleMilliseconds: options.idleMilliseconds, output: options.output))
}

if let name = options.buildScene {
  exit(BuildSceneCommand.run(name: name, threads: options.threadCounts.first ?? 1, runs: options.runs))
}

if let path = options.dumpTiles {
  guard let output = options.output else {
    print("inkwell-bench: --dump-tiles needs -o OUT.tiles", to: &standardError)
    exit(2)
  }
  exit(DumpTilesCommand.run(.tiles, path: path, output: output, limit: options.tileLimit))
}

if let path = options.dumpFills {
  guard let output = options.output else {
    print("inkwell-bench: --dump-fills needs -o OUT.fills", to: &standardError)
    exit(2)
  }
  exit(DumpTilesCommand.run(.fills, path: path, output: output, limit: options.tileLimit))
}

if let path = options.streamPNG {
  guard let output = options.output else {
    print("inkwell-bench: --stream-png needs -o OUT.png", to: &standardError)
    exit(2)
  }
  exit(StreamPNGCommand.run(path: path, output: output, threads: options.threadCounts.first ?? 1))
}

if let directory = options.sceneOutputDirectory {
  makeDirectories(directory + "/thumbs")
  // The thumbnail batch's pages as DIR/thumbs/000 … 199, for `inkwell thumbnail` to render.
  let pages = (0..<ComparisonScene.thumbnailCount).map { index -> (SyntheticScene, String) in
    let number = String(index)
    let padded = String(repeating: "0", count: Swift.max(0, 3 - number.count)) + number
    return (SyntheticScene.thumbnailPage(index), "thumbs/" + padded)
  }
  for (scene, name) in SyntheticScene.all.map({ ($0, $0.name) }) + pages {
    let path = directory + "/" + name + NativeFormat.fileExtension
    do {
      try writeFile(path, bytes: try NativeFormat.encode(scene.document()))
      print(path)
    } catch {
      print("inkwell-bench: \(error)", to: &standardError)
      exit(1)
    }
  }
  exit(0)
}

// Scenes.
var catalog = SceneCatalog()
if options.quick && options.sceneFilters.isEmpty {
  catalog.addSynthetic(.notes)
} else {
  catalog.addExamples(in: options.examplesDirectory)
  catalog.addCorpus(in: options.corpusDirectory)
  // Encoded to JSON for the staged table only; the comparison builds its own drawings.
  if options.staged { for scene in SyntheticScene.all { catalog.addSynthetic(scene) } }
}
let scenes = options.staged ? catalog.scenes.filter { options.includes(sceneNamed: $0.name) } : []

// The comparison's scenes: big, huge and thumbs only in the full run or when named.
var comparisonScenes: [ComparisonScene] = []
if options.quick && options.sceneFilters.isEmpty {
  comparisonScenes = [.synthetic(.notes)]
} else {
  let named = { (name: String) in options.sceneFilters.contains { name.contains($0) } }
  for bench in catalog.scenes
  where !bench.name.hasPrefix("examples/") && SyntheticScene.all.allSatisfy({ $0.name != bench.name }) {
    if options.includes(sceneNamed: bench.name), let scene = ComparisonScene.document(bench) {
      comparisonScenes.append(scene)
    }
  }
  for scene in SyntheticScene.all where options.includes(sceneNamed: scene.name) {
    comparisonScenes.append(.synthetic(scene))
  }
  let large: [ComparisonScene] = [.fillRate, .thumbs, .synthetic(.big), .huge]
  for scene in large where options.sceneFilters.isEmpty || named(scene.name) {
    comparisonScenes.append(scene)
  }
}

let environment = BenchEnvironment.current()
print("inkwell-bench: \(environment.cpu), \(environment.cores) cores; \(environment.flags)")
print(
  "swift \(environment.swiftVersion), libpng \(environment.libpngVersion), inkwell \(environment.inkwellVersion)"
)
print("runs: 1 warm-up + \(options.runs) timed per case; threads: \(options.threadCounts.map(String.init))")
for note in catalog.notes { print("note: " + note) }
guard !scenes.isEmpty || !comparisonScenes.isEmpty else {
  print("inkwell-bench: no scene matches \(options.sceneFilters)", to: &standardError)
  exit(1)
}
print("\nscenes:")
for scene in scenes {
  let canvas = "\(fixed(Double(scene.canvas.width), 0))×\(fixed(Double(scene.canvas.height), 0))"
  print(
    "  \(scene.name): \(scene.strokeCount) strokes, \(scene.pointCount) points, canvas \(canvas), "
      + "\(scene.bytes.count) bytes; \(scene.origin)")
}

// Cases, smallest output first (see the head comment on peak memory).
var cases: [BenchCase] = []
for scene in scenes {
  for size in OutputSize.all {
    for threads in options.threadCounts {
      cases.append(BenchCase(scene: scene, size: size, threads: threads))
    }
  }
}
cases = cases.enumerated().sorted {
  ($0.element.expectedPixels, $0.offset) < ($1.element.expectedPixels, $1.offset)
}.map(\.element)

// Warm-up: one run per case, checked and measured for memory.
var peakWasReset = true
var failures: [String] = []
var imageHashByLabel: [String: Int] = [:]
var usableCases: [BenchCase] = []
for var benchCase in cases {
  print("warm-up \(benchCase.label) threads \(benchCase.threads)", to: &standardError)
  peakWasReset = PeakMemory.resetPeak() && peakWasReset
  benchCase.baselineRSSKiB = PeakMemory.peakKiB()
  do {
    let result = try StagedRender.run(benchCase.scene, options: benchCase.options)
    benchCase.peakRSSKiB = PeakMemory.peakKiB()
    benchCase.imageWidth = result.image.width
    benchCase.imageHeight = result.image.height
    benchCase.pngByteCount = result.pngByteCount
    let reference = try benchCase.scene.format.load(benchCase.scene.bytes).render(benchCase.options)
    if reference != result.image {
      failures.append(
        "\(benchCase.label) threads \(benchCase.threads): staged pixels differ from Document.render")
    }
    let imageHash = result.image.hashValue
    if let other = imageHashByLabel[benchCase.label], other != imageHash {
      failures.append("\(benchCase.label): pixels differ between thread counts")
    }
    imageHashByLabel[benchCase.label] = imageHash
    usableCases.append(benchCase)
  } catch {
    failures.append("\(benchCase.label) threads \(benchCase.threads): \(error)")
  }
}
cases = usableCases

// Timed runs, interleaved across cases.
for run in 1...options.runs {
  print("run \(run)/\(options.runs)", to: &standardError)
  for index in cases.indices {
    do {
      cases[index].record(try StagedRender.run(cases[index].scene, options: cases[index].options))
    } catch {
      failures.append("\(cases[index].label) threads \(cases[index].threads), run \(run): \(error)")
    }
  }
}

if !cases.isEmpty {
  print(
    "\nmedian ms per stage over \(options.runs) runs; total with min–max; peak RSS in MiB", terminator: "")
  print(
    peakWasReset ? " (growth during the case's warm-up run in brackets)\n" : " (process-wide, cumulative)\n")
  print(ReportTable.render(cases, peakWasReset: peakWasReset))
}

// The comparison with the peers, scene by scene (each scene's memory is released before the next).
var comparisonRows: [ComparisonRow] = []
if !comparisonScenes.isEmpty {
  var python: String? = nil
  if options.peers {
    if access(options.python, X_OK) != 0 && access("Benchmarks/peers/setup", X_OK) == 0 {
      print("installing the peers: Benchmarks/peers/setup", to: &standardError)
      _ = system("Benchmarks/peers/setup")
    }
    if access(options.python, X_OK) == 0 {
      python = options.python
    } else {
      print("note: no peers (\(options.python) missing; run Benchmarks/peers/setup): Inkwell only")
    }
  }
  makeDirectories(options.polygonDirectory)
  let settings = ComparisonSettings(
    runs: options.runs, threadCounts: options.threadCounts, python: python,
    script: "Benchmarks/peers/fill.py", polygonDirectory: options.polygonDirectory,
    imageDirectory: options.imageDirectory)
  for scene in comparisonScenes {
    comparisonRows += Comparison.run(scene, settings: settings) { print($0, to: &standardError) }
  }
  print(
    "\ncomparison: median ms over at least \(options.runs) interleaved runs after a warm-up (a scene whose "
      + "rounds take under \(Int(Comparison.extraRoundSeconds)) s together runs more, up to "
      + "\(Comparison.extraRoundFactor * options.runs)); fill = polygons → 8-bit")
  print(
    "pixels (peers: fill + flush only, paths built before timing); ink = strokes → pixels (png: and PNG bytes);"
  )
  print("RSS: Inkwell's peak during its warm-up (process-wide), a peer worker's whole-life peak\n")
  for scene in comparisonScenes { print("  \(scene.name): \(scene.summary)") }
  print("")
  print(ComparisonReport.table(comparisonRows))
  if let thumbs = comparisonRows.first(where: {
    $0.scene == "thumbs" && $0.stage == "png" && $0.threads == options.threadCounts.max()
  }),
    let median = thumbs.summary?.median
  {
    print(
      "\nthumbs with PNG encoding on \(thumbs.threads) thread(s): "
        + "\(fixed(Double(ComparisonScene.thumbnailCount) / (median / 1000), 1)) documents per second")
  }
}
let targetChecks = ComparisonReport.targets(comparisonRows, threadCounts: options.threadCounts)
if !targetChecks.isEmpty {
  print("\ntargets (issue 6, deliverable 4); a MISS is reported, not a failure:\n")
  print(ComparisonReport.targetLines(targetChecks))
}

if options.compareEncoders {
  EncoderComparison.run(scenes: scenes, runs: options.runs, cores: environment.cores)
}

var peerVersions: [(String, String)] = []
for row in comparisonRows where row.engine != "inkwell" && !row.note.isEmpty && !row.note.hasPrefix("missing")
{
  if !peerVersions.contains(where: { $0.0 == row.engine }) { peerVersions.append((row.engine, row.note)) }
}
let report = ReportJSON.render(
  cases, environment: environment, comparisonRows: ComparisonReport.jsonRows(comparisonRows),
  targets: ComparisonReport.jsonTargets(targetChecks), peerVersions: peerVersions)
if let slash = options.jsonPath.lastIndex(of: "/") {
  makeDirectories(String(options.jsonPath[..<slash]))
}
do {
  try writeFile(options.jsonPath, bytes: Array(report.utf8))
  print("\nreport: \(options.jsonPath)")
} catch {
  failures.append("\(error)")
}

for failure in failures { print("inkwell-bench: \(failure)", to: &standardError) }
exit(failures.isEmpty ? 0 : 1)
