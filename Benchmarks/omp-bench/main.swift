// inkwell-omp-bench: the rasterizer's tile rows scheduled by Dispatch (the library's default) and by
// OpenMP loops (dynamic and static), timed side by side on the same seeded scenes.
//
// Only the raster stage is timed (`TileRasterizer.render`: tiles composited and resolved to 8-bit
// sRGB), the one stage a scheduler runs; primitives and bins are built once per scene. `dispatch`
// is the library's default; `dispatch-dyn` is Dispatch with a shared row counter (the dynamic
// schedule without OpenMP's runtime). Cases run interleaved (every case once, then again, …)
// after one warm-up each, so drift on a shared machine spreads over all of them. Every image must
// equal the Dispatch one-thread image byte for byte.
// Findings: docs/openmp.md.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: swift run -c release inkwell-omp-bench [options] [DOCUMENT.inkwell.json ...]

  Times the raster stage with tiles scheduled by Dispatch (the default's interleaved rows, and rows
  from a shared counter) and by OpenMP (dynamic, static).
  Without documents, renders the seeded scenes: notes (1536×2048, 600 strokes) and sketch
  (2048×2048, 2000 strokes); documents render at scale 1.

  options:
    --runs N          timed runs per case after one warm-up (default 9)
    --threads LIST    comma-separated thread counts (default 1,2)
    --scene NAME      only the seeded scene NAME (repeatable)
    --help            this text

  libomp's idle threads spin for KMP_BLOCKTIME ms (default 200) after each loop; set
  KMP_BLOCKTIME=0 to see how that affects Dispatch's runs in between.
  """

struct Options {
  var runs = 9
  var threads = [1, 2]
  var scenes: [String] = []
  var documents: [String] = []

  init(_ arguments: [String]) {
    var rest = arguments[...]
    func value(_ flag: String) -> String {
      guard let v = rest.popFirst() else { fail("\(flag) needs a value") }
      return v
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--runs":
        guard let n = Int(value(argument)), n >= 1 else { fail("--runs needs a count of at least 1") }
        runs = n
      case "--threads":
        let list = value(argument).split(separator: ",").compactMap { Int($0) }
        guard !list.isEmpty, list.allSatisfy({ $0 >= 1 }) else { fail("--threads needs counts like 1,2") }
        threads = list
      case "--scene": scenes.append(value(argument))
      case "--help", "-h":
        print(usage)
        exit(0)
      default:
        guard !argument.hasPrefix("-") else { fail("unknown option \(argument)") }
        documents.append(argument)
      }
    }
  }
}

func fail(_ message: String) -> Never {
  print("inkwell-omp-bench: \(message)")
  exit(2)
}

/// One scheduler at one thread count.
struct Case {
  let scheduler: String
  let threads: Int
  let renderer: Renderer
  var times: [Double] = []
}

func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let fill = String(repeating: " ", count: Swift.max(0, width - text.count))
  return left ? text + fill : fill + text
}

func format(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

var scenes: [BenchScene] = []
for path in options.documents {
  do {
    let bytes = try readInput(path, maxBytes: 1 << 30)
    guard let format = DocumentFormat.detect(path: path, bytes: bytes) else {
      fail("\(path): unknown format")
    }
    let document = try format.load(bytes)
    let viewport = try document.viewport(for: RenderOptions(sizing: .scale(1)))
    let name = path.split(separator: "/").last.map(String.init) ?? path
    scenes.append(
      BenchScene(
        name: name, width: viewport.width, height: viewport.height, drawing: document.drawing,
        view: viewport.transform))
  } catch {
    fail("\(path): \(error)")
  }
}
if options.documents.isEmpty {
  for scene in [BenchScene.notes(), BenchScene.sketch()]
  where options.scenes.isEmpty || options.scenes.contains(scene.name) {
    scenes.append(scene)
  }
}

let openMP = TileScheduler.openMPVersion
var schedulers: [(String, TileScheduler)] = [("dispatch", .dispatch), ("dispatch-dyn", .dispatchDynamic)]
for schedule in OpenMPSchedule.allCases where openMP != nil {
  schedulers.append(("omp-\(schedule.rawValue)", .openMP(schedule)))
}

print("inkwell-omp-bench: \(options.runs) interleaved runs per case after 1 warm-up; raster stage only")
print("cpu: \(Environment.cpuModel); nproc: \(Environment.processors)")
print(
  "OpenMP: "
    + (openMP.map {
      "_OPENMP \($0), KMP_BLOCKTIME=\(Environment.variable("KMP_BLOCKTIME") ?? "default (200 ms)")"
    }
      ?? "not built (no libomp found when the package was built); OpenMP rows are missing"))
print("")
print(
  "\(pad("scene", 10, left: true)) \(pad("image", 10)) \(pad("scheduler", 13)) \(pad("thr", 3)) "
    + "\(pad("median ms", 10)) \(pad("min", 8)) \(pad("max", 8)) \(pad("vs dispatch", 12)) \(pad("same bytes", 10))"
)

for scene in scenes {
  let primitives = SceneBuilder.primitives(for: scene.drawing, view: scene.view)
  let bins = Renderer.bin(primitives, width: scene.width, height: scene.height)
  let background = LinearColor(Color.white)
  var cases: [Case] = []
  for threads in options.threads {
    for (name, scheduler) in schedulers {
      cases.append(
        Case(scheduler: name, threads: threads, renderer: Renderer(threads: threads, scheduler: scheduler)))
    }
  }
  func render(_ c: Case) -> RGBA8Image {
    c.renderer.rasterizer.render(bins, primitives: primitives, background: background, threads: c.threads)
  }
  let reference = render(Case(scheduler: "serial", threads: 1, renderer: Renderer(threads: 1)))
  var identical = [Bool](repeating: true, count: cases.count)
  let clock = ContinuousClock()
  for run in -1..<options.runs {
    for index in cases.indices {
      let start = clock.now
      let image = render(cases[index])
      let elapsed = clock.now - start
      if image != reference { identical[index] = false }
      if run >= 0 { cases[index].times.append(milliseconds(elapsed)) }
    }
  }
  for (index, c) in cases.enumerated() {
    let dispatch = cases.first { $0.scheduler == "dispatch" && $0.threads == c.threads }!
    let ratio = median(c.times) / median(dispatch.times)
    print(
      "\(pad(scene.name, 10, left: true)) \(pad("\(scene.width)×\(scene.height)", 10)) "
        + "\(pad(c.scheduler, 13)) \(pad("\(c.threads)", 3)) \(pad(format(median(c.times)), 10)) "
        + "\(pad(format(c.times.min()!), 8)) \(pad(format(c.times.max()!), 8)) "
        + "\(pad(format(ratio) + "×", 12)) \(pad(identical[index] ? "yes" : "NO", 10))")
  }
  if identical.contains(false) {
    print("inkwell-omp-bench: \(scene.name): a scheduler changed the image")
    exit(1)
  }
}
