// `inkwell-bench --stream-png FILE -o OUT.png [--threads N]`: a document file to an 8-bit PNG the
// way the command line writes one (bands streamed to the encoder and into an atomic file), timed
// from reading the file to the committed output, with the process's peak resident memory. The
// comparison runs it as a child process for the memory scene, so the peak is that of a process
// doing only this: what a thumbnail farm's worker would hold, not the harness's own data.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@MainActor
enum StreamPNGCommand {
  /// Prints `stream-png ms=<elapsed> peak_kib=<peak>`; returns the process's exit status.
  static func run(path: String, output: String, threads: Int) -> Int32 {
    let start = MonotonicClock.nanoseconds()
    do {
      // The file's bytes are dropped once the document is built.
      let document = try { () throws -> Document? in
        let bytes = try readInput(path, maxBytes: 1 << 32)
        return try DocumentFormat.detect(path: path, bytes: bytes)?.load(bytes)
      }()
      guard let document else {
        print("inkwell-bench: \(path): not a document Inkwell reads", to: &standardError)
        return 1
      }
      var options = RenderOptions(threads: threads)
      // The memory scene is larger than the default guard against accidental huge images.
      options.maxPixels = Int.max
      let writer = try OutputFileWriter(path: output)
      do {
        try document.writePNG(to: writer, options: options)
        try writer.commit()
      } catch {
        writer.discard()
        throw error
      }
    } catch {
      print("inkwell-bench: \(path): \(error)", to: &standardError)
      return 1
    }
    let elapsed = MonotonicClock.milliseconds(from: start, to: MonotonicClock.nanoseconds())
    print("stream-png ms=\(elapsed) peak_kib=\(PeakMemory.peakKiB())")
    return 0
  }
}

/// Runs this executable with `--stream-png` as a child process, one run at a time.
final class StreamPNGChild: @unchecked Sendable {
  let document: String
  let output: String
  let threads: Int
  /// The largest peak any run reported, KiB.
  private(set) var peakKiB = 0
  private(set) var problem: String?

  init(document: String, output: String, threads: Int) {
    self.document = document
    self.output = output
    self.threads = threads
  }

  /// One run; its time in milliseconds as the child measured it, or `nil` when it failed.
  func run() -> Double? {
    let arguments = [Self.executable, "--stream-png", document, "-o", output, "--threads", String(threads)]
    guard let text = runProcess(arguments) else {
      problem = "the child process failed"
      return nil
    }
    var milliseconds: Double?
    for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      if field.hasPrefix("ms=") { milliseconds = Double(field.dropFirst(3)) }
      if field.hasPrefix("peak_kib="), let peak = Int(field.dropFirst(9)) {
        peakKiB = Swift.max(peakKiB, peak)
      }
    }
    unlink(output)
    return milliseconds
  }

  /// This program's own path.
  static let executable: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    return CommandLine.arguments[0]
  }()
}

/// Runs `arguments` (the first is the program), returns what it wrote to standard output, or
/// `nil` when it could not start or exited with a non-zero status.
private func runProcess(_ arguments: [String]) -> String? {
  var pipeEnds: [Int32] = [0, 0]
  guard pipe(&pipeEnds) == 0 else { return nil }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
  var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var process: pid_t = 0
  let status = posix_spawn(&process, arguments[0], &actions, nil, &argv, environ)
  close(pipeEnds[1])
  guard status == 0 else {
    close(pipeEnds[0])
    return nil
  }
  var output: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    output += chunk[..<count]
  }
  close(pipeEnds[0])
  var exitStatus: Int32 = 0
  while waitpid(process, &exitStatus, 0) < 0 && errno == EINTR {}
  guard exitStatus == 0 else { return nil }
  return String(decoding: output, as: UTF8.self)
}
