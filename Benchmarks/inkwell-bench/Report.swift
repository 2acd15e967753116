import CLibPNG
import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the numbers were measured on, written into every report.
struct BenchEnvironment {
  let cpu: String
  let cores: Int
  let flags: String
  let swiftVersion: String
  let libpngVersion: String
  let inkwellVersion = "0.1.0"

  static func current() -> BenchEnvironment {
    #if DEBUG
      let build = "debug"
    #else
      let build = "release"
    #endif
    // The build, the CPU's vector features the kernels can use, and the kernel level that ran
    // (INKWELL_SIMD may force a lower one): "release; cpu sse2 sse4_2 avx avx2 fma; kernels avx2".
    let flags =
      "\(build); cpu \(vectorFeatures().joined(separator: " ")); kernels \(SIMDLevel.selected.rawValue)"
    return BenchEnvironment(
      cpu: cpuModel(), cores: RenderOptions.availableProcessors, flags: flags,
      swiftVersion: compilerVersion, libpngVersion: PNG_LIBPNG_VER_STRING)
  }

  /// The vector features among /proc/cpuinfo's first "flags" (x86) or "Features" (arm64) line that
  /// matter to the kernels, in that list's order; empty where there is no such line.
  private static func vectorFeatures() -> [String] {
    let wanted: Set<Substring> = [
      "sse2", "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "asimd",
    ]
    guard let features = cpuinfoValue(of: ["flags", "Features"]) else { return [] }
    return features.split(separator: " ").filter { wanted.contains($0) }.map(String.init)
  }

  /// The value of the first /proc/cpuinfo line whose key is one of `keys`; `nil` where there is
  /// none (or no /proc/cpuinfo).
  private static func cpuinfoValue(of keys: Set<String>) -> String? {
    guard let bytes = try? readInput("/proc/cpuinfo", maxBytes: 1 << 22) else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, keys.contains(parts[0].trimmingSpaces()) { return parts[1].trimmingSpaces() }
    }
    return nil
  }

  /// The compiler that built the harness, to the minor version.
  static var compilerVersion: String {
    #if compiler(>=6.5)
      return ">=6.5"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #elseif compiler(>=6.1)
      return "6.1"
    #else
      return "6.0"
    #endif
  }

  /// The first "model name" in /proc/cpuinfo; "unknown" where there is none.
  private static func cpuModel() -> String {
    cpuinfoValue(of: ["model name"]) ?? "unknown"
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

/// The table printed to standard output.
enum ReportTable {
  static func render(_ cases: [BenchCase], peakWasReset: Bool) -> String {
    let stages: [Stage] = [.load, .build, .bin, .raster, .encode]
    let caseWidth = cases.map(\.label.count).max() ?? 4
    var header = [pad("case", caseWidth), pad("image", 9, left: true), pad("thr", 4, left: true)]
    header += stages.map { pad($0.rawValue, 8, left: true) }
    header += [pad("total", 9, left: true), pad("min–max", 19, left: true), pad("RSS MiB", 14, left: true)]
    var lines = [header.joined(separator: " ")]
    for benchCase in cases {
      var row = [
        pad(benchCase.label, caseWidth),
        pad("\(benchCase.imageWidth)×\(benchCase.imageHeight)", 9, left: true),
        pad(String(benchCase.threads), 4, left: true),
      ]
      row += stages.map { pad(fixed(benchCase.summary($0)?.median ?? .nan, 2), 8, left: true) }
      let total = benchCase.summary(.total)
      row.append(pad(fixed(total?.median ?? .nan, 2), 9, left: true))
      row.append(
        pad(fixed(total?.minimum ?? .nan, 2) + "–" + fixed(total?.maximum ?? .nan, 2), 19, left: true))
      let peak = fixed(Double(benchCase.peakRSSKiB) / 1024, 1)
      let added = fixed(Double(benchCase.peakRSSKiB - benchCase.baselineRSSKiB) / 1024, 1)
      row.append(pad(peakWasReset ? "\(peak) (+\(added))" : peak, 14, left: true))
      lines.append(row.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
  }

  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}

/// The JSON report, written by hand so the harness needs no Foundation.
enum ReportJSON {
  static func render(
    _ cases: [BenchCase], environment: BenchEnvironment, comparisonRows: [String] = [],
    targets: [String] = [],
    peerVersions: [(String, String)] = []
  ) -> String {
    var results: [String] = []
    let order: [Stage] = [.total, .load, .build, .bin, .raster, .encode]
    for benchCase in cases {
      for stage in order {
        guard let summary = benchCase.summary(stage) else { continue }
        let fields = [
          "\"scene\": \(quoted(benchCase.label))",
          "\"engine\": \"inkwell\"",
          "\"mode\": \"ink\"",
          "\"threads\": \(benchCase.threads)",
          "\"stage\": \(quoted(stage.rawValue))",
          "\"median_ms\": \(fixed(summary.median, 4))",
          "\"min_ms\": \(fixed(summary.minimum, 4))",
          "\"max_ms\": \(fixed(summary.maximum, 4))",
          "\"peak_rss_mb\": \(fixed(Double(benchCase.peakRSSKiB) / 1024, 2))",
        ]
        results.append("    {" + fields.joined(separator: ", ") + "}")
      }
    }
    let peers = peerVersions.map { ",\n      \(quoted($0.0)): \(quoted($0.1))" }.joined()
    return """
      {
        "environment": {
          "cpu": \(quoted(environment.cpu)),
          "cores": \(environment.cores),
          "flags": \(quoted(environment.flags)),
          "versions": {
            "swift": \(quoted(environment.swiftVersion)),
            "libpng": \(quoted(environment.libpngVersion)),
            "inkwell": \(quoted(environment.inkwellVersion))\(peers)
          }
        },
        "results": [
      \((results + comparisonRows).joined(separator: ",\n"))
        ],
        "targets": [
      \(targets.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

/// `value` with exactly `decimals` digits after the point; "-" when it is not finite.
func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((abs(value) * scale).rounded())
  let divisor = Int64(scale)
  let whole = String(scaled / divisor)
  let sign = value < 0 && scaled != 0 ? "-" : ""
  guard decimals > 0 else { return sign + whole }
  let fraction = String(scaled % divisor)
  return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// Why a file could not be written.
struct WriteError: Error, CustomStringConvertible {
  let path: String
  let reason: String
  var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes `bytes` to `path`, replacing what was there.
func writeFile(_ path: String, bytes: [UInt8]) throws(WriteError) {
  guard let file = fopen(path, "wb") else {
    throw WriteError(path: path, reason: String(cString: strerror(errno)))
  }
  let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  let flushed = fclose(file) == 0
  guard written == bytes.count, flushed else { throw WriteError(path: path, reason: "short write") }
}

/// Creates `directory` and every folder above it that is missing.
func makeDirectories(_ directory: String) {
  var path = directory.hasPrefix("/") ? "" : "."
  for component in directory.split(separator: "/") {
    path += "/" + component
    _ = mkdir(path, 0o755)
  }
}
