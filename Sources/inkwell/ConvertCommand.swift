// convert: any readable format → the native format, JSON or binary.

import Inkwell

/// `inkwell convert INPUT OUTPUT [--from FORMAT] [--to json|binary]`: reads INPUT (its format
/// detected from content and extension unless `--from` names it) and writes it as native JSON, or
/// binary when `--to binary` says so or OUTPUT ends in `.inkwell`. `-` reads standard input or
/// writes standard output.
enum ConvertCommand {
  /// The encodings `convert` writes.
  enum Encoding: String {
    case json
    case binary

    /// Binary for `.inkwell`, JSON otherwise (`.inkwell.json`, `.json`, `-`).
    init(path: String) {
      self = path.lowercased().hasSuffix(BinaryFormat.fileExtension) ? .binary : .json
    }
  }

  static func run(_ arguments: [String]) throws {
    var positional: [String] = []
    var forcedFormat: DocumentFormat?
    var encoding: Encoding?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--to" {
        guard let name = remaining.popFirst(), let chosen = Encoding(rawValue: name) else {
          throw CommandError(message: "convert: --to needs 'json' or 'binary'", status: 2)
        }
        encoding = chosen
      } else if argument == "--from" {
        guard let name = remaining.popFirst() else {
          throw CommandError(message: "convert: --from needs a format name", status: 2)
        }
        guard let format = DocumentFormat(name: name) else {
          let known = DocumentFormat.allCases.map(\.name).joined(separator: ", ")
          throw CommandError(message: "convert: unknown format '\(name)' (known: \(known))", status: 2)
        }
        forcedFormat = format
      } else if argument.hasPrefix("--") {
        throw CommandError(message: "convert: unknown option '\(argument)'", status: 2)
      } else {
        positional.append(argument)
      }
    }
    guard positional.count == 2 else {
      throw CommandError(
        message: "usage: inkwell convert INPUT OUTPUT [--from FORMAT] [--to json|binary]", status: 2)
    }
    let (input, output) = (positional[0], positional[1])
    let bytes = try FileIO.read(input)
    do {
      guard let document = try OptionValues.document(bytes, path: input, format: forcedFormat)?.document
      else {
        throw CommandError(message: "\(input): cannot tell the format; name it with --from")
      }
      let encoded: [UInt8]
      switch encoding ?? Encoding(path: output) {
      case .json: encoded = try NativeFormat.encode(document)
      case .binary: encoded = try BinaryFormat.encode(document)
      }
      try FileIO.write(encoded, to: output)
    } catch let error as DocumentError {
      throw CommandError(message: "\(input): \(error) [\(error.category.rawValue)]")
    }
  }
}

/// Whole-file reads and atomic writes for the commands; `-` is standard input or output.
enum FileIO {
  /// Inputs larger than this are refused before they are read whole.
  static let maxInputBytes = 1 << 30

  static func read(_ path: String) throws -> [UInt8] {
    do {
      return try readInput(path, maxBytes: maxInputBytes)
    } catch {
      throw CommandError(message: error.description)
    }
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    do {
      try writeOutput(bytes, to: path)
    } catch {
      throw CommandError(message: error.description)
    }
  }
}
