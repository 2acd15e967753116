// convert: any readable format → the native format.

import InkwellFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// Whole-file reads and writes through the C library; `-` is standard input or output. Kept apart
/// so that atomic output can replace `write` later without touching the command.
enum FileIO {
  static func read(_ path: String) throws -> [UInt8] {
    guard let file = path == "-" ? fdopen(dup(0), "rb") : fopen(path, "rb") else {
      throw CommandError(message: "\(path): cannot open: \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      bytes.append(contentsOf: chunk[..<count])
      if count < chunk.count { break }
    }
    if ferror(file) != 0 { throw CommandError(message: "\(path): read error") }
    return bytes
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    guard let file = path == "-" ? fdopen(dup(1), "wb") : fopen(path, "wb") else {
      throw CommandError(message: "\(path): cannot create: \(String(cString: strerror(errno)))")
    }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    let flushed = fflush(file) == 0
    let closed = fclose(file) == 0
    guard written == bytes.count, flushed, closed else {
      throw CommandError(message: "\(path): write error: \(String(cString: strerror(errno)))")
    }
  }
}
