// thumbnail: many documents to many PNGs in one process, the way a thumbnail farm renders.
//
// A process per document pays its start-up (loading the runtime and the libraries, about 10 ms
// here) for a thumbnail that renders and encodes in under one; one process keeps its threads,
// buffers and libraries from document to document. Documents, not tiles, run in parallel: each is
// rendered on one thread, so a small image never waits on the others or on a thread's wake-up, and
// a worker holds one document at a time, so memory stays bounded whatever the number of inputs.
// With fewer documents than threads, each document's tiles share the threads left over.
//
// A document newer than this build that carries its own thumbnail (a valid PNG) gets that
// picture, as PaperKit has an app show it, with a note saying so. A bad document never stops the
// batch: its error is printed as one line naming it, no file is written for it (each output
// appears complete or not at all, see `OutputFileWriter`), and the others carry on. The exit
// status says whether every document was written. Each file's bytes reach the disk before it
// takes its name, as with `render`, on commit queues beside the rendering threads (one a worker,
// up to 16, mostly waiting on the disk; see `Committer`), so that no rendering thread waits for
// the disk; the directory's entries are synced once, after the batch, instead of once a file
// (0.53 → 0.37 ms a file on this machine's disk, measured apart from rendering), so a crash
// during a batch can lose the names of thumbnails finished since it started, never leave a
// partial one under its name. SIGINT or SIGTERM stops a batch between
// documents: those under way finish (no temporary file is left behind), the rest are not started,
// the folders are synced and the report written, and the exit status is 128 + the signal's
// number; a second signal ends the process at once.

import CInkwellCLI
import Dispatch
import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inkwell thumbnail INPUT... -o DIR [--list FILE] [--size WxH] [--threads N]
/// [--background COLOR | transparent] [--from FORMAT] [--png-effort 1-9] [--max-pixels N]
/// [--max-bytes N] [--dither ordered|none] [--skip-existing] [--relative-to ROOT] [--report FILE]`.
enum ThumbnailCommand {
  /// The box a thumbnail fits in when `--size` is not given.
  static let defaultSize = (width: 256, height: 256)

  struct Options {
    var inputs: [String] = []
    var lists: [String] = []
    var directory: String?
    var format: DocumentFormat?
    var render = RenderOptions(
      sizing: .fit(width: ThumbnailCommand.defaultSize.width, height: ThumbnailCommand.defaultSize.height))
    var pngEffort = PNGBandEncoder.defaultEffort
    var threads = RenderOptions.availableProcessors
    var maxBytes = FileIO.maxInputBytes
    var skipExisting = false
    /// With `--relative-to ROOT`: outputs keep the inputs' folders below ROOT.
    var root: String?
    /// With `--report FILE`: a JSON line a document.
    var report: String?
  }

  /// What became of one document.
  enum Outcome {
    case written
    case skipped
    /// Newer than this build; its embedded thumbnail was written instead (the note says so).
    case embedded(String)
    case failed(String)
    /// Not started: the batch was asked to stop first.
    case notStarted
    /// Rendered and handed to the committer, which records what became of it.
    case committing
  }

  static func run(_ arguments: [String]) throws {
    let options = try parse(arguments)
    guard let directory = options.directory else { throw usageError("missing -o DIR") }
    var listed = options.inputs
    for list in options.lists { listed += try listedPaths(list) }
    let inputs = listed
    guard !inputs.isEmpty else { throw usageError("no INPUT documents (name them, or give --list FILE)") }
    let (outputs, folders) = try outputPaths(for: inputs, in: directory, relativeTo: options.root)
    try makeDirectory(directory)
    for folder in folders { try makeDirectory(folder) }
    keepFreedMemory()
    inkwell_cli_stop_on_signals()

    let workers = Swift.min(options.threads, inputs.count)
    // Fewer documents than threads: each document's tiles share the rest (the bytes do not
    // depend on the thread count).
    var perDocument = options.render
    perDocument.threads = Swift.max(1, options.threads / workers)
    let render = perDocument
    // Each job's outcome in its own slot, read once every worker is done.
    let outcomes = UnsafeMutableBufferPointer<Outcome>.allocate(capacity: inputs.count)
    outcomes.initialize(repeating: .notStarted)
    defer {
      outcomes.deinitialize()
      outcomes.deallocate()
    }
    let start = MonotonicTime.now()
    let shared = SharedOutcomes(outcomes)
    let committer = Committer(
      outcomes: shared, queues: Swift.min(workers, 16), inFlight: Swift.min(8 * workers, 256))
    TileScheduler.dispatch.forEachJob(inputs.count, workers) { job, _ in
      // SIGINT or SIGTERM: the documents under way finish, whole; the rest are not started.
      guard inkwell_cli_stop_signal() == 0 else { return }
      let outcome = thumbnail(
        inputs[job], to: outputs[job], options: options, render: render, job: job, committer: committer)
      switch outcome {
      case .embedded(let message), .failed(let message): writeLine("inkwell: thumbnail: \(message)")
      case .written, .skipped, .notStarted, .committing: break
      }
      if case .committing = outcome { return }
      shared.outcomes[job] = outcome
    }
    committer.wait()
    // Each file's bytes were synced before it got its name; the names are synced once for all.
    OutputFileWriter.syncDirectory(directory)
    for folder in folders { OutputFileWriter.syncDirectory(folder) }
    var (written, embedded, skipped, failed, notStarted) = (0, 0, 0, 0, 0)
    for outcome in outcomes {
      switch outcome {
      case .written: written += 1
      case .embedded: embedded += 1
      case .skipped: skipped += 1
      case .failed: failed += 1
      case .notStarted, .committing: notStarted += 1
      }
    }
    if let report = options.report {
      try writeReport(to: report, inputs: inputs, outputs: outputs, outcomes: UnsafeBufferPointer(outcomes))
    }
    let seconds = MonotonicTime.seconds(since: start)
    var summary = "thumbnail: \(written) written, \(failed) failed"
    if embedded > 0 { summary += ", \(embedded) from their own thumbnails" }
    if options.skipExisting { summary += ", \(skipped) skipped" }
    if notStarted > 0 { summary += ", \(notStarted) not started" }
    summary += " in \(formatted(seconds, digits: 2)) s"
    if written > 0, seconds > 0 {
      summary +=
        " (\(formatted(Double(written) / seconds, digits: 1)) documents/s on \(workers) thread"
        + (workers == 1 ? ")" : "s)")
    }
    writeLine(summary)
    let stop = inkwell_cli_stop_signal()
    if stop != 0 {
      // Stopped: the exit status a shell gives a process the signal ended (128 + its number).
      throw CommandError(
        message:
          "thumbnail: stopped by signal \(stop); \(notStarted) of \(inputs.count) documents not started",
        status: 128 + stop)
    }
    if failed > 0 { throw CommandError(message: "thumbnail: \(failed) of \(inputs.count) documents failed") }
  }

  /// Whether `bytes` decode as a PNG of at most `maxPixels` pixels, 8 or 16 bits a sample.
  static func isPNG(_ bytes: [UInt8], maxPixels: Int) -> Bool {
    (try? PNGImage.decode(bytes, maxPixels: maxPixels)) != nil
      || (try? PNGImage16.decode(bytes, maxPixels: maxPixels)) != nil
  }

  /// Writes one JSON object a line, in the inputs' order: `input`, `output`, `status` (`written`,
  /// `embedded`: the document's own thumbnail, `skipped`, `failed`, or `not started` after a
  /// SIGINT or SIGTERM) and, for `embedded` and `failed`, `message`. The file appears whole or not at all; `-` is standard output.
  static func writeReport(
    to path: String, inputs: [String], outputs: [String], outcomes: UnsafeBufferPointer<Outcome>
  ) throws {
    var bytes: [UInt8] = []
    for (index, outcome) in outcomes.enumerated() {
      var members = [
        JSONMember(key: "input", value: JSONValue(.string(inputs[index]))),
        JSONMember(key: "output", value: JSONValue(.string(outputs[index]))),
      ]
      let status: String
      var message: String?
      switch outcome {
      case .written: status = "written"
      case .skipped: status = "skipped"
      case .notStarted, .committing: status = "not started"
      case .embedded(let text):
        status = "embedded"
        message = text
      case .failed(let text):
        status = "failed"
        message = text
      }
      members.append(JSONMember(key: "status", value: JSONValue(.string(status))))
      if let message { members.append(JSONMember(key: "message", value: JSONValue(.string(message)))) }
      bytes += JSONWriter.write(JSONValue(.object(members)), style: .compact)
      bytes.append(UInt8(ascii: "\n"))
    }
    do {
      try writeOutput(bytes, to: path)
    } catch {
      throw CommandError(message: "thumbnail: report: \(error.description)")
    }
  }

  /// Keeps memory a document frees for the next one. glibc gives large blocks back to the system
  /// when they are freed (each its own mapping, and the top of the heap past 128 KiB), so every
  /// document faulted its buffers in afresh: 5 441 page faults for the 200 synthetic pages on one
  /// thread, 983 with these limits, and the batch about 7 % faster. What stays is what the largest
  /// document needed.
  static func keepFreedMemory() {
    _ = inkwell_cli_keep_freed_memory(32 << 20, 64 << 20)
  }

  /// Renders `input` into the PNG at `output`, which appears complete or not at all. With a
  /// `committer`, a rendered file is handed to it (`.committing`) and it records the outcome of
  /// job `job`; without one the file is committed here.
  static func thumbnail(
    _ input: String, to output: String, options: Options, render: RenderOptions, job: Int = 0,
    committer: Committer? = nil
  ) -> Outcome {
    if options.skipExisting {
      var status = stat()
      if stat(output, &status) == 0 { return .skipped }
    }
    let bytes: [UInt8]
    do {
      bytes = try readInput(input, maxBytes: options.maxBytes)
    } catch {
      return .failed(error.description)
    }
    let loaded: (format: DocumentFormat, document: Document)?
    do {
      loaded = try OptionValues.document(bytes, path: input, format: options.format)
    } catch {
      if error.category == .incompatibleFormatTooNew, let embedded = error.thumbnailPNG,
        isPNG(embedded, maxPixels: render.maxPixels)
      {
        // Newer than this build, with its own picture: what PaperKit has an app show instead.
        do {
          let writer = try OutputFileWriter(path: output)
          try writer.write(embedded)
          try writer.commit(syncingDirectory: false)
        } catch {
          return .failed("\(input): \(error.description)")
        }
        return .embedded("\(input): \(error); wrote the thumbnail the document carries")
      }
      return .failed("\(input): \(error)")
    }
    guard let document = loaded?.document else {
      return .failed("\(input): not a document Inkwell can read (name its format with --from)")
    }
    let writer: OutputFileWriter
    do {
      writer = try OutputFileWriter(path: output)
    } catch {
      return .failed("\(input): \(error.description)")
    }
    do {
      try document.writePNG(to: writer, options: render, effort: options.pngEffort)
      if let committer {
        committer.commit(writer, input: input, job: job)
        return .committing
      }
      try writer.commit(syncingDirectory: false)
    } catch let error as OutputError {
      writer.discard()
      return .failed("\(input): \(error.description)")
    } catch {
      writer.discard()
      return .failed("\(input): \(error)")
    }
    return .written
  }

  /// The thumbnail's file name for `input`: its last path component with its document suffix (or,
  /// failing one, its last extension) replaced by `.png`.
  static func outputName(for input: String) -> String {
    let name = input.split(separator: "/").last.map(String.init) ?? input
    let bytes = Array(name.utf8)
    for suffix in DocumentFormat.fileSuffixes where bytes.count > suffix.utf8.count {
      let tail = bytes[(bytes.count - suffix.utf8.count)...]
      if zip(tail, suffix.utf8).allSatisfy({ asciiLowercased($0) == $1 }) {
        return String(decoding: bytes[..<(bytes.count - suffix.utf8.count)], as: UTF8.self) + ".png"
      }
    }
    if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
      return String(decoding: bytes[..<dot], as: UTF8.self) + ".png"
    }
    return name + ".png"
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// Each input's output path in `directory`, and the folders below `directory` those paths need
  /// (parents first). Without `root` every output lies in `directory` itself; with it, an input's
  /// folders below `root` are kept (`root/a/b/x.inkwell` → `directory/a/b/x.png`), compared as
  /// written, without following links. An input outside `root`, a `..` in either, and two inputs
  /// that would write the same file are usage errors, found before anything is rendered: the
  /// second of two would replace the first.
  static func outputPaths(for inputs: [String], in directory: String, relativeTo root: String?) throws -> (
    paths: [String], folders: [String]
  ) {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    let rootParts = try root.map { root in
      let parts = try components(of: root)
      return (absolute: root.hasPrefix("/"), parts: parts)
    }
    var firstInput: [String: String] = [:]
    var folders: [String] = []
    var knownFolders: Set<String> = []
    var paths: [String] = []
    paths.reserveCapacity(inputs.count)
    for input in inputs {
      guard input != "-" else {
        throw usageError("'-' cannot be a document here (give a list of paths with --list -)")
      }
      var relative = outputName(for: input)
      if let (absolute, rootParts) = rootParts {
        let parts = try components(of: input)
        guard input.hasPrefix("/") == absolute, parts.count > rootParts.count,
          parts.starts(with: rootParts)
        else {
          throw usageError("'\(input)' is not inside '\(root ?? "")' (--relative-to)")
        }
        var folder = ""
        for part in parts[rootParts.count..<(parts.count - 1)] {
          folder += folder.isEmpty ? part : "/" + part
          if knownFolders.insert(folder).inserted { folders.append(prefix + folder) }
        }
        if !folder.isEmpty { relative = folder + "/" + relative }
      }
      if let earlier = firstInput.updateValue(input, forKey: relative) {
        throw CommandError(
          message: "thumbnail: '\(earlier)' and '\(input)' would both be written to \(prefix + relative)",
          status: 2)
      }
      paths.append(prefix + relative)
    }
    return (paths, folders)
  }

  /// The components of `path` as written, without empty and `.` ones; `..` is a usage error (an
  /// output could land outside the folder).
  static func components(of path: String) throws -> [String] {
    let parts = path.split(separator: "/").map(String.init).filter { $0 != "." }
    guard !parts.contains("..") else {
      throw usageError("'\(path)' has a '..' component, which --relative-to does not follow")
    }
    return parts
  }

  /// The non-empty lines of the list at `path` (`-`: standard input), one document path each.
  static func listedPaths(_ path: String) throws -> [String] {
    let bytes = try FileIO.read(path)
    return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
      let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
      return text.isEmpty ? nil : text
    }
  }

  /// Creates `directory` when it does not exist; fails when it exists as something else.
  static func makeDirectory(_ directory: String) throws {
    var status = stat()
    if stat(directory, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw CommandError(message: "thumbnail: '\(directory)' exists and is not a directory")
      }
      return
    }
    guard mkdir(directory, 0o777) == 0 || errno == EEXIST else {
      let reason = String(cString: strerror(errno))
      throw CommandError(message: "thumbnail: cannot create directory '\(directory)': \(reason)")
    }
  }

  /// Writes `text` and a newline to standard error in one call, so that lines from different
  /// workers never interleave.
  static func writeLine(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }

  static func formatted(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let whole = Int((value * scale).rounded())
    let integer = whole / Int(scale)
    let fraction = String(whole % Int(scale))
    return "\(integer)." + String(repeating: "0", count: digits - fraction.count) + fraction
  }

  static func usageError(_ message: String) -> CommandError {
    CommandError(message: "thumbnail: \(message)\n\(usage)", status: 2)
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var remaining = arguments[...]
    func value(_ flag: String) throws -> String {
      guard let v = remaining.popFirst() else { throw usageError("\(flag) needs a value") }
      return v
    }
    func positive(_ flag: String, _ text: String, upTo limit: Int = Int.max) throws -> Int {
      guard let n = Int(text), n >= 1, n <= limit else {
        throw usageError(
          "\(flag) expects a whole number from 1" + (limit == Int.max ? " up" : " to \(limit)")
            + ", got '\(text)'")
      }
      return n
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-o", "--output":
        options.directory = try value(argument)
      case "--list":
        options.lists.append(try value(argument))
      case "--size":
        let (w, h) = try OptionValues.box(try value(argument), invalid: usageError)
        options.render.sizing = .fit(width: w, height: h)
      case "--threads":
        options.threads = try positive(argument, try value(argument), upTo: 1024)
      case "--max-pixels":
        options.render.maxPixels = try positive(argument, try value(argument))
      case "--max-bytes":
        options.maxBytes = try positive(argument, try value(argument))
      case "--png-effort":
        options.pngEffort = try positive(argument, try value(argument), upTo: 9)
      case "--background":
        options.render.background = try OptionValues.background(try value(argument), invalid: usageError)
      case "--from":
        options.format = try OptionValues.format(try value(argument), invalid: usageError)
      case "--dither":
        options.render.dither = try OptionValues.dither(try value(argument), invalid: usageError)
      case "--skip-existing":
        options.skipExisting = true
      case "--relative-to":
        options.root = try value(argument)
      case "--report":
        options.report = try value(argument)
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw usageError("unknown option '\(argument)'")
        }
        options.inputs.append(argument)
      }
    }
    return options
  }
}

/// Commits rendered thumbnails off the rendering threads. A commit syncs the file's bytes to the
/// disk before naming it, and that wait (0.2–0.35 ms a file on this machine's disk) left the
/// rendering thread idle: the 200 synthetic pages took 1.13× (one thread) and 1.36× (two) the
/// wall time of the same batch with the syncs skipped. Here serial queues (which Dispatch gives
/// threads of their own even while the workers hold every core; one a worker, up to 16, since a
/// disk takes concurrent syncs together) take the files, each to one queue by job, sync and name
/// them and record the outcome in the job's slot; at most `inFlight` files (8 a worker, up to 256)
/// wait at a time, so memory and open files stay bounded when the disk is the slower side.
/// A process killed meanwhile leaves the waiting files unnamed, that is nothing (where the system
/// makes no unnamed files, their temporary files stay, as a render killed while writing leaves
/// its own).
final class Committer: @unchecked Sendable {
  private let outcomes: SharedOutcomes
  private let queues: [DispatchQueue]
  private let group = DispatchGroup()
  private let room: DispatchSemaphore

  fileprivate init(outcomes: SharedOutcomes, queues: Int, inFlight: Int) {
    self.outcomes = outcomes
    self.queues = (0..<Swift.max(1, queues)).map { DispatchQueue(label: "inkwell.thumbnail.commit.\($0)") }
    room = DispatchSemaphore(value: Swift.max(1, inFlight))
  }

  /// Hands over `writer`, whose bytes are all written; job `job`'s outcome is recorded once it is
  /// committed or has failed.
  func commit(_ writer: OutputFileWriter, input: String, job: Int) {
    room.wait()
    let handed = HandedWriter(writer)
    queues[job % queues.count].async(group: group) { [self] in
      let outcome: ThumbnailCommand.Outcome
      do {
        try handed.writer.commit(syncingDirectory: false)
        outcome = .written
      } catch {
        handed.writer.discard()
        outcome = .failed("\(input): \(error)")
        ThumbnailCommand.writeLine("inkwell: thumbnail: \(input): \(error)")
      }
      outcomes.outcomes[job] = outcome
      room.signal()
    }
  }

  /// Returns once every file handed over is committed or has failed.
  func wait() {
    group.wait()
  }
}

/// A writer passed from the rendering thread to a commit queue, used by one thread at a time.
private final class HandedWriter: @unchecked Sendable {
  let writer: OutputFileWriter
  init(_ writer: OutputFileWriter) { self.writer = writer }
}

/// Lets the workers write their own slots of one buffer.
private final class SharedOutcomes: @unchecked Sendable {
  let outcomes: UnsafeMutableBufferPointer<ThumbnailCommand.Outcome>
  init(_ outcomes: UnsafeMutableBufferPointer<ThumbnailCommand.Outcome>) { self.outcomes = outcomes }
}

/// Seconds on the monotonic clock.
enum MonotonicTime {
  static func now() -> timespec {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time
  }

  static func seconds(since start: timespec) -> Double {
    let end = now()
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }
}
