import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One input to benchmark: a document as the bytes a user would load, in a known format.
///
/// Synthetic scenes are encoded to Inkwell's native JSON first, so every scene, generated or read
/// from disk, goes through the same load stage.
struct BenchScene {
  let name: String
  /// Where the scene comes from, for the table's legend.
  let origin: String
  let format: DocumentFormat
  let bytes: [UInt8]
  let strokeCount: Int
  let pointCount: Int
  let canvas: Rect

  init(name: String, origin: String, format: DocumentFormat, bytes: [UInt8]) throws {
    let document = try format.load(bytes)
    self.name = name
    self.origin = origin
    self.format = format
    self.bytes = bytes
    strokeCount = document.drawing.strokes.count
    pointCount = document.drawing.strokes.reduce(0) { $0 + $1.path.count }
    canvas = document.canvas
  }
}

/// Finds the scenes a run measures, and says what it skipped and why.
struct SceneCatalog {
  private(set) var scenes: [BenchScene] = []
  private(set) var notes: [String] = []

  /// Corpus folders under `../shared/corpus`, and the name each one's scenes are prefixed with.
  static let corpusFolders = [("libmypaint", "libmypaint"), ("bdalab-handwriting-sample", "bdalab")]
  static let largestInputBytes = 64 << 20

  mutating func addExamples(in directory: String) {
    guard let names = fileNames(in: directory) else {
      notes.append("no examples folder at '\(directory)': examples skipped (set one with --examples DIR)")
      return
    }
    let documents = names.filter { $0.hasSuffix(NativeFormat.fileExtension) }
    if documents.isEmpty { notes.append("no *\(NativeFormat.fileExtension) in '\(directory)'") }
    for file in documents {
      add(
        name: "examples/" + String(file.dropLast(NativeFormat.fileExtension.count)),
        path: directory + "/" + file, format: .native)
    }
  }

  mutating func addCorpus(in root: String) {
    for (folder, prefix) in Self.corpusFolders {
      let directory = root + "/" + folder
      guard let names = fileNames(in: directory) else {
        notes.append("no corpus folder at '\(directory)': skipped")
        continue
      }
      for file in names {
        let format: DocumentFormat
        if file.hasSuffix(".dat") {
          format = .libmypaintEvents
        } else if file.hasSuffix(".svc") {
          format = .bdalabSVC
        } else {
          continue
        }
        let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(
          separator: ".")
        add(name: prefix + "/" + stem, path: directory + "/" + file, format: format)
      }
    }
  }

  mutating func addSynthetic(_ scene: SyntheticScene) {
    do {
      let bytes = try NativeFormat.encode(scene.document())
      scenes.append(
        try BenchScene(name: scene.name, origin: "synthetic: " + scene.summary, format: .native, bytes: bytes)
      )
    } catch {
      notes.append("synthetic scene \(scene.name) could not be encoded: \(error)")
    }
  }

  private mutating func add(name: String, path: String, format: DocumentFormat) {
    do {
      let bytes = try readInput(path, maxBytes: Self.largestInputBytes)
      scenes.append(try BenchScene(name: name, origin: path, format: format, bytes: bytes))
    } catch {
      notes.append("\(path) skipped: \(error)")
    }
  }
}

/// The names of the entries in `directory`, sorted; `nil` when it cannot be opened.
private func fileNames(in directory: String) -> [String]? {
  guard let stream = opendir(directory) else { return nil }
  defer { closedir(stream) }
  var names: [String] = []
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if !name.hasPrefix(".") { names.append(name) }
  }
  return names.sorted()
}
