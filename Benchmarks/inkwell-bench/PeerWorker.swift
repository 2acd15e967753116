// A peer engine in a Python process (Benchmarks/peers/fill.py --serve ENGINE FILE), driven one
// line at a time, so its timed runs interleave with Inkwell's in the harness's own loop while its
// paths are built only once. The peer times itself (fill + flush); the harness reads the number.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One running peer, or why it could not start.
final class PeerWorker {
  let engine: String
  private(set) var version = ""
  private(set) var problem: String?
  private var process: pid_t = 0
  private var toChild: Int32 = -1
  private var fromChild: Int32 = -1
  private var pending: [UInt8] = []

  /// Starts `python script --serve engine file`; `waitUntilReady` then waits while it builds its
  /// paths (so several workers can build theirs at the same time).
  init(engine: String, python: String, script: String, polygonFile: String) {
    self.engine = engine
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    guard pipe(&input) == 0, pipe(&output) == 0 else {
      problem = "pipe: " + String(cString: strerror(errno))
      return
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
    let arguments = [python, script, "--serve", engine, polygonFile]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let status = posix_spawnp(&process, python, &actions, nil, &argv, environ)
    close(input[0])
    close(output[1])
    toChild = input[1]
    fromChild = output[0]
    guard status == 0 else {
      problem = "cannot start \(python): " + String(cString: strerror(status))
      process = 0
      return
    }
  }

  /// Waits for the worker's first line: "ready VERSION" or "unavailable: WHY".
  func waitUntilReady() {
    guard problem == nil, version.isEmpty else { return }
    guard let line = readLine() else {
      problem = "the worker exited before it was ready"
      return
    }
    if line.hasPrefix("ready") {
      version = String(line.dropFirst(6))
    } else {
      problem = line.hasPrefix("unavailable: ") ? String(line.dropFirst(13)) : line
    }
  }

  var isReady: Bool { problem == nil }

  /// One timed fill of every document, in milliseconds as the peer measured it.
  func run() -> Double? {
    guard isReady, send("run"), let line = readLine(), line.hasPrefix("ms ") else { return nil }
    return Double(line.dropFirst(3))
  }

  /// Writes the peer's first document to `path` as PNG.
  func writeImage(to path: String) -> Bool {
    isReady && send("write " + path) && readLine() == "ok"
  }

  /// The worker's peak resident memory (VmHWM) in KiB, or 0.
  var peakRSSKiB: Int {
    guard process > 0, let bytes = try? readInput("/proc/\(process)/status", maxBytes: 1 << 16) else {
      return 0
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
    }
    return 0
  }

  /// Asks the worker to quit and waits for it.
  func stop() {
    if toChild >= 0 {
      _ = send("quit")
      close(toChild)
      toChild = -1
    }
    if fromChild >= 0 {
      close(fromChild)
      fromChild = -1
    }
    if process > 0 {
      var status: Int32 = 0
      waitpid(process, &status, 0)
      process = 0
    }
  }

  deinit { stop() }

  private func send(_ command: String) -> Bool {
    guard toChild >= 0 else { return false }
    let bytes = Array((command + "\n").utf8)
    return bytes.withUnsafeBytes { write(toChild, $0.baseAddress, $0.count) } == bytes.count
  }

  private func readLine() -> String? {
    while true {
      if let newline = pending.firstIndex(of: 10) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(fromChild, $0.baseAddress, $0.count) }
      if count <= 0 {
        if count < 0 && errno == EINTR { continue }
        problem = problem ?? "the worker exited"
        return nil
      }
      pending += chunk[..<count]
    }
  }
}
