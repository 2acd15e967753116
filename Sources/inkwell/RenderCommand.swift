// render: one document to one PNG.

import Inkwell

/// `inkwell render INPUT -o OUTPUT.png [--size WxH | --scale S] [--region X,Y,W,H]
/// [--background COLOR | transparent] [--threads N] [--max-pixels N]`.
enum RenderCommand {
  struct Options {
    var input: String?
    var output: String?
    var format: DocumentFormat?
    var render = RenderOptions()
    var pngEffort = PNGBandEncoder.defaultEffort
  }

  static func run(_ arguments: [String]) throws {
    let options = try parse(arguments)
    guard let input = options.input else { throw usageError("missing INPUT") }
    guard let output = options.output else { throw usageError("missing -o OUTPUT") }

    let bytes = try FileIO.read(input)
    let name = input == "-" ? "<stdin>" : input
    guard let format = options.format ?? DocumentFormat.detect(path: input, bytes: bytes) else {
      throw CommandError(message: "\(name): not a document Inkwell can read (name its format with --from)")
    }
    let document: Document
    do {
      document = try format.load(bytes)
    } catch {
      throw CommandError(message: "\(name): \(error)")
    }
    let writer: OutputFileWriter
    do {
      writer = try OutputFileWriter(path: output)
    } catch {
      throw CommandError(message: error.description)
    }
    do {
      try document.writePNG(to: writer, options: options.render, effort: options.pngEffort)
      try writer.commit()
    } catch let error as OutputError {
      throw CommandError(message: error.description)
    } catch {
      writer.discard()
      throw CommandError(message: "\(name): \(error)")
    }
  }

  static func usageError(_ message: String) -> CommandError {
    CommandError(message: "render: \(message)\n\(usage)", status: 2)
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var remaining = arguments[...]
    func value(_ flag: String) throws -> String {
      guard let v = remaining.popFirst() else { throw usageError("\(flag) needs a value") }
      return v
    }
    var sawSize = false
    var sawScale = false
    while let argument = remaining.popFirst() {
      switch argument {
      case "-o", "--output":
        options.output = try value(argument)
      case "--size":
        let text = try value(argument)
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
          throw usageError("--size expects WxH with positive whole numbers, got '\(text)'")
        }
        options.render.sizing = .fit(width: w, height: h)
        sawSize = true
      case "--scale":
        let text = try value(argument)
        guard let s = Double(text), s.isFinite, s > 0 else {
          throw usageError("--scale expects a positive number, got '\(text)'")
        }
        options.render.sizing = .scale(s)
        sawScale = true
      case "--region":
        let text = try value(argument)
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Float($0) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
          x.isFinite, y.isFinite, w.isFinite, h.isFinite, w > 0, h > 0
        else {
          throw usageError("--region expects X,Y,W,H with a positive width and height, got '\(text)'")
        }
        options.render.region = Rect(x: x, y: y, width: w, height: h)
      case "--background":
        let text = try value(argument)
        guard let color = Color(parsing: text) else {
          throw usageError(
            "--background expects #rrggbb, #rrggbbaa, a color name or 'transparent', got '\(text)'")
        }
        options.render.background = color
      case "--threads":
        let text = try value(argument)
        guard let n = Int(text), n >= 1, n <= 1024 else {
          throw usageError("--threads expects a whole number from 1 to 1024, got '\(text)'")
        }
        options.render.threads = n
      case "--max-pixels":
        let text = try value(argument)
        guard let n = Int(text), n >= 1 else {
          throw usageError("--max-pixels expects a positive whole number, got '\(text)'")
        }
        options.render.maxPixels = n
      case "--png-effort":
        let text = try value(argument)
        guard let n = Int(text), (1...9).contains(n) else {
          throw usageError(
            "--png-effort expects a whole number from 1 (fastest) to 9 (smallest), got '\(text)'")
        }
        options.pngEffort = n
      case "--from":
        let text = try value(argument)
        guard let format = DocumentFormat(name: text) else {
          let known = DocumentFormat.allCases.map(\.name).joined(separator: ", ")
          throw usageError("unknown format '\(text)' (known: \(known))")
        }
        options.format = format
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw usageError("unknown option '\(argument)'")
        }
        guard options.input == nil else { throw usageError("more than one INPUT ('\(argument)')") }
        options.input = argument
      }
    }
    if sawSize && sawScale { throw usageError("--size and --scale cannot be combined") }
    return options
  }
}
