// convert: any readable format → the native format.

import Inkwell

/// `inkwell convert INPUT OUTPUT [--from native|mypaint|svc|signal-json]`: reads INPUT (its format
/// detected from content and extension unless `--from` names it) and writes it as native JSON.
/// `-` reads standard input or writes standard output.
enum ConvertCommand {
  static func run(_ arguments: [String]) throws {
    var positional: [String] = []
    var forcedFormat: DocumentFormat?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--from" {
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
        message: "usage: inkwell convert INPUT OUTPUT [--from native|mypaint|svc|signal-json]", status: 2)
    }
    let (input, output) = (positional[0], positional[1])
    let bytes = try FileIO.read(input)
    guard let format = forcedFormat ?? DocumentFormat.detect(path: input, bytes: bytes) else {
      throw CommandError(message: "\(input): cannot tell the format; name it with --from")
    }
    do {
      let document = try format.load(bytes)
      try FileIO.write(try NativeFormat.encode(document), to: output)
    } catch let error as DocumentError {
      throw CommandError(message: "\(input): \(error)")
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
