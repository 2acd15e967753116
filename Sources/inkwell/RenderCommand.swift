// render: one document to one PNG.

import Inkwell

/// `inkwell render INPUT -o OUTPUT.png [--size WxH | --scale S] [--region X,Y,W,H]
/// [--background COLOR | transparent] [--threads N] [--max-pixels N]
/// [--format png8|png16|png-pq|png-hlg|exr|exr-float] [--color-space srgb|p3] [--headroom H]
/// [--tone-map clip|reinhard|bt2390] [--color C [--exposure E]] [--max-exposure E]
/// [--appearance light|dark] [--dither ordered|none] [--ink TYPE] [--width W] [--png-effort 1-9]`.
enum RenderCommand {
  struct Options {
    var input: String?
    var output: String?
    var format: DocumentFormat?
    var render = RenderOptions()
    /// The image format; `nil` infers it from the output's extension (`.exr`), else PNG 8-bit.
    var imageFormat: ImageFormat?
    var inkColor: Color?
    var exposure: Float?
    var pngEffort = PNGBandEncoder.defaultEffort
    /// Re-ink every stroke with another type or width (`--color` recolors through the options).
    var ink: InkType?
    var inkWidth: Float?
  }

  /// `document` with every stroke drawn in `type`, `color` and `width` (those given): a width
  /// scales each point's recorded size by the same factor as the ink's, so pressure and shape
  /// survive.
  static func reinked(_ document: Document, type: InkType?, color: Color? = nil, width: Float?) -> Document {
    var document = document
    document.drawing.strokes = document.drawing.strokes.map { stroke in
      var stroke = stroke
      if let type { stroke.ink.type = type }
      if let color { stroke.ink.color = color }
      if let width {
        let factor = stroke.ink.width > 0 ? width / stroke.ink.width : 1
        stroke.ink.width = width
        stroke.path.controlPoints = stroke.path.controlPoints.map { p in
          var p = p
          p.size = Size(width: p.size.width * factor, height: p.size.height * factor)
          return p
        }
      }
      return stroke
    }
    return document
  }

  static func run(_ arguments: [String]) throws {
    let options = try parse(arguments)
    guard let input = options.input else { throw usageError("missing INPUT") }
    guard let output = options.output else { throw usageError("missing -o OUTPUT") }

    let bytes = try FileIO.read(input)
    let name = input == "-" ? "<stdin>" : input
    let loaded: (format: DocumentFormat, document: Document)?
    do {
      loaded = try OptionValues.document(bytes, path: input, format: options.format)
    } catch {
      throw CommandError(message: "\(name): \(error)")
    }
    guard var document = loaded?.document else {
      throw CommandError(message: "\(name): not a document Inkwell can read (name its format with --from)")
    }
    if options.ink != nil || options.inkWidth != nil {
      document = reinked(document, type: options.ink, width: options.inkWidth)
    }
    let imageFormat = options.imageFormat ?? ImageFormat(path: output) ?? .png8
    if imageFormat == .png8 && options.render.colorSpace == .sRGB {
      try stream(document, to: output, options: options, name: name)
      return
    }
    let image: [UInt8]
    do {
      image = try document.encode(options.render, as: imageFormat)
    } catch {
      throw CommandError(message: "\(name): \(error)")
    }
    try FileIO.write(image, to: output)
  }

  /// 8-bit sRGB PNG, rendered and encoded band by band into the output.
  static func stream(_ document: Document, to output: String, options: Options, name: String) throws {
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
        let (w, h) = try OptionValues.box(try value(argument), invalid: usageError)
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
        options.render.background = try OptionValues.background(try value(argument), invalid: usageError)
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
      case "--from":
        options.format = try OptionValues.format(try value(argument), invalid: usageError)
      case "--format":
        let text = try value(argument)
        guard let f = ImageFormat(name: text) else {
          throw usageError(
            "--format expects one of \(ImageFormat.names.joined(separator: ", ")), got '\(text)'")
        }
        options.imageFormat = f
      case "--color-space":
        let text = try value(argument)
        switch text.lowercased() {
        case "srgb": options.render.colorSpace = .sRGB
        case "p3", "display-p3": options.render.colorSpace = .displayP3
        default: throw usageError("--color-space expects srgb or p3, got '\(text)'")
        }
      case "--headroom":
        let text = try value(argument)
        guard let h = Float(text), h.isFinite, h >= 1 else {
          throw usageError("--headroom expects a number at least 1 (1 = SDR white), got '\(text)'")
        }
        options.render.headroom = h
      case "--tone-map":
        let text = try value(argument)
        guard let mapper = ToneMapper(rawValue: text.lowercased()) else {
          let known = ToneMapper.allCases.map(\.rawValue).joined(separator: ", ")
          throw usageError("--tone-map expects one of \(known), got '\(text)'")
        }
        options.render.toneMapper = mapper
      case "--color":
        let text = try value(argument)
        guard let color = Color(parsing: text) else {
          throw usageError("--color expects #rrggbb, #rrggbbaa or a color name, got '\(text)'")
        }
        options.inkColor = color
      case "--png-effort":
        let text = try value(argument)
        guard let n = Int(text), (1...9).contains(n) else {
          throw usageError(
            "--png-effort expects a whole number from 1 (fastest) to 9 (smallest), got '\(text)'")
        }
        options.pngEffort = n
      case "--ink":
        let text = try value(argument)
        guard let type = InkType(rawValue: text) else {
          let known = InkType.allCases.map(\.rawValue).joined(separator: ", ")
          throw usageError("unknown ink '\(text)' (known: \(known))")
        }
        options.ink = type
      case "--width":
        let text = try value(argument)
        guard let w = Float(text), w.isFinite, w > 0 else {
          throw usageError("--width expects a positive number, got '\(text)'")
        }
        options.inkWidth = w
      case "--exposure":
        let text = try value(argument)
        guard let e = Float(text), e.isFinite, e >= 1 else {
          throw usageError("--exposure expects a linear exposure of at least 1 (1 = SDR), got '\(text)'")
        }
        options.exposure = e
      case "--max-exposure":
        let text = try value(argument)
        guard let e = Float(text), e.isFinite, e >= 1 else {
          throw usageError("--max-exposure expects a linear exposure of at least 1, got '\(text)'")
        }
        options.render.maximumLinearExposure = e
      case "--appearance":
        let text = try value(argument)
        guard let a = Appearance(rawValue: text.lowercased()) else {
          throw usageError("--appearance expects light or dark, got '\(text)'")
        }
        options.render.appearance = a
      case "--dither":
        options.render.dither = try OptionValues.dither(try value(argument), invalid: usageError)
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw usageError("unknown option '\(argument)'")
        }
        guard options.input == nil else { throw usageError("more than one INPUT ('\(argument)')") }
        options.input = argument
      }
    }
    if sawSize && sawScale { throw usageError("--size and --scale cannot be combined") }
    if options.exposure != nil && options.inkColor == nil {
      throw usageError("--exposure needs --color (the color to recolor every stroke with)")
    }
    if var color = options.inkColor {
      color.linearExposure = options.exposure ?? 1
      options.render.inkColor = color
    }
    return options
  }
}
