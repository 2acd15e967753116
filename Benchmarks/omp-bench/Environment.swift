// What the run ran on, printed above the table.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum Environment {
  /// The CPU model as /proc/cpuinfo names it, or "unknown".
  static var cpuModel: String {
    guard let bytes = try? readInput("/proc/cpuinfo", maxBytes: 1 << 22) else { return "unknown" }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingPrefix(" ").description
      }
    }
    return "unknown"
  }

  /// Processors online (what `nproc` reports without affinity limits).
  static var processors: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// An environment variable, or nil.
  static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
