// The comparison's table, the targets of issue 6 checked against it, and its JSON rows.

/// One target: a measured ratio, the limit it must stay within, and whether it did.
struct TargetCheck {
  let name: String
  let scene: String
  /// What the ratio divides, in words.
  let formula: String
  let ratio: Double
  let limit: Double
  /// `true` when the ratio must be at least the limit (speed-ups); otherwise at most.
  var atLeast = false

  var passes: Bool { atLeast ? ratio >= limit : ratio <= limit }
}

enum ComparisonReport {
  /// Scenes on which Inkwell must match Blend2D.
  static let blend2dScenes = ["notes", "sketch", "highlighter", "big"]
  /// Scenes on which two threads must be 1.8× one.
  static let scalingScenes = ["notes", "sketch", "big"]
  /// Blend2D's own 2-thread speed-up on this machine class, from the issue.
  static let blend2dTwoThreadSpeedUp = 1.8
  /// The huge scene's memory limit: 256 MB in MiB.
  static let hugeRSSLimitMiB = 256e6 / 1_048_576

  static func table(_ rows: [ComparisonRow]) -> String {
    let sceneWidth = Swift.max(5, rows.map(\.scene.count).max() ?? 5) + 2
    var lines = [
      pad("scene", sceneWidth) + pad("engine", 17) + pad("mode", 11) + pad("thr", 4, left: true)
        + pad("runs", 5, left: true) + pad("median ms", 11, left: true) + pad("min–max", 22, left: true)
        + pad("× blend2d", 10, left: true)
        + pad("RSS MiB", 9, left: true) + pad("(growth)", 9, left: true) + "  note"
    ]
    for row in rows {
      let summary = row.summary
      let blend2d = median(rows, scene: row.scene, engine: "blend2d")
      let ratio = summary.flatMap { s in blend2d.map { s.median / $0 } }
      let spread = summary.map { fixed($0.minimum, 2) + "–" + fixed($0.maximum, 2) } ?? "-"
      lines.append(
        pad(row.scene, sceneWidth) + pad(row.engine, 17) + pad(row.mode + "/" + row.stage, 11)
          + pad(String(row.threads), 4, left: true) + pad(String(row.samples.count), 5, left: true)
          + pad(fixed(summary?.median ?? .nan, 2), 11, left: true)
          + pad(spread, 22, left: true) + pad(fixed(ratio ?? .nan, 2), 10, left: true)
          + pad(row.peakRSSKiB > 0 ? fixed(Double(row.peakRSSKiB) / 1024, 1) : "-", 9, left: true)
          + pad(
            row.baselineRSSKiB > 0 ? "+" + fixed(Double(row.peakRSSKiB - row.baselineRSSKiB) / 1024, 1) : "",
            9, left: true)
          + "  " + row.note)
    }
    return lines.joined(separator: "\n")
  }

  static func median(
    _ rows: [ComparisonRow], scene: String, engine: String, mode: String = "fill", stage: String? = nil,
    threads: Int = 1
  ) -> Double? {
    rows.first {
      $0.scene == scene && $0.engine == engine && $0.mode == mode && (stage == nil || $0.stage == stage)
        && $0.threads == threads
    }?.summary?.median
  }

  /// Every target that the rows hold the numbers for.
  static func targets(_ rows: [ComparisonRow], threadCounts: [Int]) -> [TargetCheck] {
    var checks: [TargetCheck] = []
    let scenes = rows.reduce(into: [String]()) { if !$0.contains($1.scene) { $0.append($1.scene) } }
    let most = threadCounts.max() ?? 1
    for scene in scenes {
      let fill1 = median(rows, scene: scene, engine: "inkwell")
      let fill2 = median(rows, scene: scene, engine: "inkwell", threads: 2)
      let blend2d = median(rows, scene: scene, engine: "blend2d")
      if blend2dScenes.contains(scene), let fill1, let blend2d {
        checks.append(
          TargetCheck(
            name: "fill 1 thread ≤ Blend2D 1 thread", scene: scene, formula: "inkwell fill ×1 / blend2d",
            ratio: fill1 / blend2d, limit: 1))
        if let fill2 {
          checks.append(
            TargetCheck(
              name: "fill 2 threads ≤ Blend2D / 1.8", scene: scene,
              formula: "inkwell fill ×2 / (blend2d / 1.8)",
              ratio: fill2 / (blend2d / blend2dTwoThreadSpeedUp), limit: 1))
        }
      }
      if let fill1 {
        for peer in ["skia-n32", "skia-f16", "cairo"] {
          guard let time = median(rows, scene: scene, engine: peer) else { continue }
          checks.append(
            TargetCheck(
              name: "fill 1 thread ≤ ¼ \(peer)", scene: scene, formula: "inkwell fill ×1 / (\(peer) / 4)",
              ratio: fill1 / (time / 4), limit: 1))
        }
      }
      for threads in threadCounts {
        guard
          let ink = median(
            rows, scene: scene, engine: "inkwell", mode: "ink", stage: "pixels", threads: threads),
          let fill = median(rows, scene: scene, engine: "inkwell", threads: threads)
        else { continue }
        checks.append(
          TargetCheck(
            name: "ink ≤ 1.5 × own fill (\(threads) thr)", scene: scene,
            formula: "inkwell ink ×\(threads) / inkwell fill ×\(threads)", ratio: ink / fill, limit: 1.5))
      }
      if let reference = median(rows, scene: scene, engine: "float-rgba-write") {
        for threads in threadCounts {
          guard let fill = median(rows, scene: scene, engine: "inkwell", threads: threads) else { continue }
          checks.append(
            TargetCheck(
              name: "fill-rate ≤ 1.15 × float RGBA write (\(threads) thr)", scene: scene,
              formula: "inkwell fill ×\(threads) / one float RGBA write", ratio: fill / reference, limit: 1.15
            ))
        }
      }
      if scene == "thumbs", let blend2d {
        if let fill = median(rows, scene: scene, engine: "inkwell", threads: most) {
          checks.append(
            TargetCheck(
              name: "thumbs ≤ ½ Blend2D (\(most) thr)", scene: scene,
              formula: "inkwell fill ×\(most) / (blend2d / 2)",
              ratio: fill / (blend2d / 2), limit: 1))
        }
      }
      if scalingScenes.contains(scene), let fill1, let fill2 {
        checks.append(
          TargetCheck(
            name: "2 threads ≥ 1.8 × 1 thread (fill)", scene: scene, formula: "inkwell fill ×1 / ×2",
            ratio: fill1 / fill2, limit: 1.8, atLeast: true))
      }
      if scene == "huge" {
        // Written to PNG as the command line does (bands streamed to the encoder, in a process of
        // its own): the ink/stream rows; without them, the in-memory ink/png rows.
        let inkRows = rows.filter { $0.scene == scene && $0.engine == "inkwell" && $0.mode == "ink" }
        let streamRows = inkRows.filter { $0.stage == "stream" }
        let pngRows = streamRows.isEmpty ? inkRows.filter { $0.stage == "png" } : streamRows
        if let worst = (pngRows.isEmpty ? inkRows : pngRows).map(\.peakRSSKiB).max(), worst > 0 {
          checks.append(
            TargetCheck(
              name: "huge → PNG peak RSS < 256 MB", scene: scene, formula: "peak MiB / 244.1 MiB",
              ratio: Double(worst) / 1024 / hugeRSSLimitMiB, limit: 1))
        }
      }
    }
    return checks
  }

  static func targetLines(_ checks: [TargetCheck]) -> String {
    let sceneWidth = Swift.max(5, checks.map(\.scene.count).max() ?? 5)
    var lines = [
      pad("target", 44) + pad("scene", sceneWidth + 2) + pad("ratio", 8, left: true) + "  result   (ratio is)"
    ]
    for check in checks {
      lines.append(
        pad(check.name, 44) + pad(check.scene, sceneWidth + 2) + pad(fixed(check.ratio, 2), 8, left: true)
          + "  " + (check.passes ? "PASS" : "MISS") + "     " + check.formula
          + (check.atLeast ? " ≥ " : " ≤ ") + fixed(check.limit, 2))
    }
    return lines.joined(separator: "\n")
  }

  /// The rows as JSON objects (without the surrounding array).
  static func jsonRows(_ rows: [ComparisonRow]) -> [String] {
    rows.compactMap { row in
      var fields = [
        "\"scene\": \(ReportJSON.quoted(row.scene))",
        "\"engine\": \(ReportJSON.quoted(row.engine))",
        "\"mode\": \(ReportJSON.quoted(row.mode))",
        "\"stage\": \(ReportJSON.quoted(row.stage))",
        "\"threads\": \(row.threads)",
      ]
      if let summary = row.summary {
        fields += [
          "\"median_ms\": \(fixed(summary.median, 4))",
          "\"min_ms\": \(fixed(summary.minimum, 4))",
          "\"max_ms\": \(fixed(summary.maximum, 4))",
          "\"runs\": \(row.samples.count)",
        ]
      }
      fields.append("\"peak_rss_mb\": \(fixed(Double(row.peakRSSKiB) / 1024, 2))")
      if row.baselineRSSKiB > 0 {
        fields.append("\"baseline_rss_mb\": \(fixed(Double(row.baselineRSSKiB) / 1024, 2))")
      }
      if !row.note.isEmpty { fields.append("\"note\": \(ReportJSON.quoted(row.note))") }
      return "    {" + fields.joined(separator: ", ") + "}"
    }
  }

  static func jsonTargets(_ checks: [TargetCheck]) -> [String] {
    checks.map { check in
      "    {\"target\": \(ReportJSON.quoted(check.name)), \"scene\": \(ReportJSON.quoted(check.scene)), "
        + "\"formula\": \(ReportJSON.quoted(check.formula)), \"ratio\": \(fixed(check.ratio, 4)), "
        + "\"limit\": \(fixed(check.limit, 2)), \"at_least\": \(check.atLeast), "
        + "\"result\": \"\(check.passes ? "PASS" : "MISS")\"}"
    }
  }

  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}
