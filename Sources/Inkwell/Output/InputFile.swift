// Input: reading a whole document from a path or standard input, bounded by a size limit so a
// wrong path (a huge file, /dev/zero) fails fast instead of exhausting memory.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an input could not be read. The description is one line naming the source.
public enum InputError: Error, CustomStringConvertible, Equatable {
  case noSuchFile(path: String)
  case isDirectory(path: String)
  case permissionDenied(path: String)
  /// The input holds more than `limit` bytes; a regular file is refused before it is read.
  case tooLarge(path: String, limit: Int)
  /// Any other OS error; `reason` is its strerror text.
  case readFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .noSuchFile(let path):
      return "cannot read \(shown(path)): No such file or directory"
    case .isDirectory(let path):
      return "cannot read \(shown(path)): Is a directory"
    case .permissionDenied(let path):
      return "cannot read \(shown(path)): Permission denied"
    case .tooLarge(let path, let limit):
      return "cannot read \(shown(path)): larger than the limit of \(limit) bytes"
    case .readFailed(let path, let reason):
      return "cannot read \(shown(path)): \(reason)"
    }
  }

  init(path: String, code: Int32) {
    switch code {
    case ENOENT: self = .noSuchFile(path: path)
    case EISDIR: self = .isDirectory(path: path)
    case EACCES, EPERM: self = .permissionDenied(path: path)
    default: self = .readFailed(path: path, reason: String(cString: strerror(code)))
    }
  }
}

private func shown(_ path: String) -> String {
  path == "-" ? "standard input" : "'\(path)'"
}

/// Reads all of `path`, or standard input for `-`, refusing inputs over `maxBytes` bytes.
///
/// A regular file's size is checked before reading; a pipe or device is read until it passes the
/// limit or ends.
public func readInput(_ path: String, maxBytes: Int) throws(InputError) -> [UInt8] {
  if path == "-" {
    return try readAll(from: STDIN_FILENO, path: path, maxBytes: maxBytes)
  }
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { throw InputError(path: path, code: errno) }
  defer { close(descriptor) }
  return try readAll(from: descriptor, path: path, maxBytes: maxBytes)
}

private func readAll(from descriptor: Int32, path: String, maxBytes: Int) throws(InputError) -> [UInt8] {
  var status = stat()
  guard fstat(descriptor, &status) == 0 else { throw InputError(path: path, code: errno) }
  let kind = status.st_mode & S_IFMT
  if kind == S_IFDIR { throw .isDirectory(path: path) }
  var bytes: [UInt8] = []
  if kind == S_IFREG {
    guard Int(status.st_size) <= maxBytes else { throw .tooLarge(path: path, limit: maxBytes) }
    bytes.reserveCapacity(Int(status.st_size))
  }

  var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count == 0 { return bytes }
    if count < 0 {
      if errno == EINTR { continue }
      throw InputError(path: path, code: errno)
    }
    guard count <= maxBytes - bytes.count else { throw .tooLarge(path: path, limit: maxBytes) }
    bytes += chunk[0..<count]
  }
}
