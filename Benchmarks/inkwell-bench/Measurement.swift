import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads `CLOCK_MONOTONIC`: never steps with wall-clock changes.
enum MonotonicClock {
  /// Nanoseconds since an arbitrary fixed point.
  static func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }

  static func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / 1e6
  }
}

/// The process's peak resident set size.
///
/// `getrusage(RUSAGE_SELF).ru_maxrss` is the portable source, but on Linux it is the maximum over
/// the process's whole life, including the program it was exec'd from: under `swift run`, which
/// execs the harness, it reports the peak of SwiftPM itself (over 100 MiB) before the harness has
/// allocated anything. So on Linux the peak is read from `VmHWM` in /proc/self/status (the same
/// high-water mark, for this program's memory only), and `ru_maxrss` is the fallback.
///
/// Either is process-wide and only grows. Writing `5` to /proc/self/clear_refs resets the high-water
/// mark to the current resident size; the harness does that before each case's warm-up, when the
/// kernel allows it, so each case's peak is its own (on top of what the process already holds).
enum PeakMemory {
  /// Peak resident set size in KiB.
  static func peakKiB() -> Int {
    if let highWaterMark = statusFieldKiB("VmHWM:") { return highWaterMark }
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(RUSAGE_SELF.rawValue, &usage)  // glibc declares RUSAGE_SELF as an enum case
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_maxrss)  // KiB on Linux
  }

  /// Resets the peak to the current resident size; `false` when the kernel does not allow it.
  static func resetPeak() -> Bool {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var command: [UInt8] = Array("5".utf8)
    return command.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) } == 1
  }

  /// A "Name:   1234 kB" line of /proc/self/status, in KiB.
  private static func statusFieldKiB(_ name: String) -> Int? {
    guard let bytes = try? readInput("/proc/self/status", maxBytes: 1 << 16) else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name) {
      return line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
        Int($0)
      }
    }
    return nil
  }
}

/// Median, minimum and maximum of a set of timings, in milliseconds.
struct TimingSummary {
  let median: Double
  let minimum: Double
  let maximum: Double

  init(_ samples: [Double]) {
    precondition(!samples.isEmpty, "no samples to summarize")
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    minimum = sorted[0]
    maximum = sorted[sorted.count - 1]
  }
}
