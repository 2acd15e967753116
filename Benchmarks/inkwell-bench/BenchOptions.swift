import Inkwell

/// The command line, parsed.
struct BenchOptions {
  static let usage = """
    usage: swift run -c release inkwell-bench [options]

    Times Inkwell end to end and per stage (load, build, bin, raster, encode) on the examples, the
    shared corpus and two synthetic scenes, at scale 1 and as a 256×256 thumbnail.

    options:
      --runs N          timed runs per case after one warm-up (default 5; 3 with --quick); a
                        comparison scene whose rounds take under 10 s runs more, up to 3N
      --threads LIST    comma-separated thread counts; N means every core (default 1,N)
      --scene NAME      only scenes whose name contains NAME (repeatable)
      --examples DIR    folder of *.inkwell.json examples (default examples)
      --corpus DIR      shared corpus folder (default ../shared/corpus)
      --json PATH       JSON report (default .build/bench/report.json)
      --encoders        also time PNG encoding alone: libpng's defaults against the band encoder
      --quick           smoke test: 1 warm-up + 3 runs, synthetic 'notes' only unless --scene
      --write-scenes DIR  write the synthetic scenes as DIR/NAME.inkwell.json and the thumbnail
                    pages as DIR/thumbs/000.inkwell.json … 199, then exit
      --no-peers        skip Blend2D, Skia and Cairo (installed by Benchmarks/peers/setup on first use)
      --python PATH     Python with the peers (default .build/peers/venv/bin/python)
      --images DIR      write each comparison scene's first image per engine, for a pixel comparison
      --polygons DIR    where the scenes' polygon files go (default .build/bench/polygons)
      --no-staged       only the comparison (fill and ink against the peers), not the staged table
      --fill-scene FILE fill an INKOUTL1 polygon file with Inkwell and print the time, then exit;
                        with -o OUT.png write the first document (others as OUT-N.png)
      --idle MS         with --fill-scene: sleep MS milliseconds before each timed run, as a
                        renderer waiting for its next page does (the threads' wake-up then counts)
      --build-scene NAME  build a synthetic comparison scene's primitives (notes, sketch,
                        highlighter, big, huge, or thumbs: its 200 pages at 256 px) --runs times
                        on the first --threads count, print the time and a hash of every point
                        and color built (the same hash: the same primitives), then exit
      --stream-png FILE render a document file to -o OUT.png band by band, as the command line
                        does, and print the time and the process's peak memory, then exit
      --dump-tiles FILE write the composited tiles of an INKOUTL1 polygon file to -o OUT.tiles
                        (at most --tiles N, default 4000), for Benchmarks/kernel-ab, then exit
      --dump-fills FILE the same for the fill_lines calls of its render (-o OUT.fills)
      --help            this text

    The comparison scenes big, huge and thumbs run in the full run (no --quick, no --scene) or when
    named with --scene; --quick compares notes only.
    """

  var runs = 5
  var threadCounts = [1, RenderOptions.availableProcessors]
  var sceneFilters: [String] = []
  var examplesDirectory = "examples"
  var corpusDirectory = "../shared/corpus"
  var jsonPath = ".build/bench/report.json"
  var quick = false
  var compareEncoders = false
  var sceneOutputDirectory: String?
  var showHelp = false
  var peers = true
  var python = ".build/peers/venv/bin/python"
  var imageDirectory: String?
  var polygonDirectory = ".build/bench/polygons"
  var staged = true
  var fillScene: String?
  var buildScene: String?
  var idleMilliseconds = 0
  var streamPNG: String?
  var dumpTiles: String?
  var dumpFills: String?
  var tileLimit = 4000
  var output: String?

  /// A usage error, printed with the usage text.
  struct Problem: Error {
    var message: String
  }

  init(arguments: [String]) throws(Problem) {
    var runsGiven = false
    var remaining = arguments[...]
    func value(for option: String) throws(Problem) -> String {
      guard let value = remaining.popFirst() else { throw Problem(message: "\(option) needs a value") }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--runs":
        let text = try value(for: argument)
        guard let count = Int(text), count >= 1 else {
          throw Problem(message: "--runs needs a positive integer (got '\(text)')")
        }
        runs = count
        runsGiven = true
      case "--threads":
        threadCounts = try Self.threadCounts(try value(for: argument))
      case "--scene":
        sceneFilters.append(try value(for: argument))
      case "--examples":
        examplesDirectory = try value(for: argument)
      case "--corpus":
        corpusDirectory = try value(for: argument)
      case "--json":
        jsonPath = try value(for: argument)
      case "--quick":
        quick = true
      case "--encoders":
        compareEncoders = true
      case "--write-scenes":
        sceneOutputDirectory = try value(for: argument)
      case "--no-peers":
        peers = false
      case "--python":
        python = try value(for: argument)
      case "--images":
        imageDirectory = try value(for: argument)
      case "--polygons":
        polygonDirectory = try value(for: argument)
      case "--no-staged":
        staged = false
      case "--fill-scene":
        fillScene = try value(for: argument)
      case "--build-scene":
        buildScene = try value(for: argument)
      case "--idle":
        let text = try value(for: argument)
        guard let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
          throw Problem(message: "--idle takes milliseconds from 0 to 10000, not '\(text)'")
        }
        idleMilliseconds = milliseconds
      case "--stream-png":
        streamPNG = try value(for: argument)
      case "--dump-tiles":
        dumpTiles = try value(for: argument)
      case "--dump-fills":
        dumpFills = try value(for: argument)
      case "--tiles":
        let text = try value(for: argument)
        guard let count = Int(text), count >= 1 else {
          throw Problem(message: "--tiles needs a positive integer (got '\(text)')")
        }
        tileLimit = count
      case "-o", "--output":
        output = try value(for: argument)
      case "--help", "-h":
        showHelp = true
      default:
        throw Problem(message: "unknown option '\(argument)'")
      }
    }
    if quick && !runsGiven { runs = 3 }
  }

  /// "1,N,4" → [1, cores, 4], without repeats, in the order given.
  private static func threadCounts(_ list: String) throws(Problem) -> [Int] {
    var counts: [Int] = []
    for item in list.split(separator: ",") {
      let count: Int
      if item == "N" || item == "n" {
        count = RenderOptions.availableProcessors
      } else if let parsed = Int(item), parsed >= 1 {
        count = parsed
      } else {
        throw Problem(message: "--threads takes positive integers or N (got '\(item)')")
      }
      if !counts.contains(count) { counts.append(count) }
    }
    guard !counts.isEmpty else { throw Problem(message: "--threads needs at least one count") }
    return counts
  }

  func includes(sceneNamed name: String) -> Bool {
    sceneFilters.isEmpty || sceneFilters.contains { name.contains($0) }
  }
}
