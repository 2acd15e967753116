// Output: putting finished bytes at their destination without ever leaving a half-written file.
//
// A path is written atomically: the bytes go to a temporary file made by mkstemp in the same
// directory (`.<name>.XXXXXX`, so rename stays within one file system), are flushed with fsync,
// get the permissions a new file would get (0666 & ~umask; mkstemp creates 0600), and are renamed
// over the target. Any failure unlinks the temporary file, so the target keeps its old contents
// and the directory gains nothing. A symbolic link to a regular file is followed, and the file
// it names is replaced, so the link survives.
//
// `OutputFileWriter`, which streams a render that may take seconds, first asks for a file with no
// name at all (Linux's O_TMPFILE, through CInkwellOutput): a process killed before the commit,
// even by SIGKILL, leaves nothing in the directory, where a named temporary file would stay. The
// commit links it in under the target's name when that is free, or under a fresh temporary name
// renamed over the old file. Where the system or the file system makes no unnamed files, it uses
// mkstemp as above.
//
// A target that exists and is not a regular file (a character device such as /dev/null or
// /dev/full, a FIFO) is opened and written in place: renaming over a device would replace the
// device node with a file. `-` means standard output, written once the caller has all bytes.
//
// Errors name the path and carry the OS reason (strerror). Plain libc system calls rather than
// Foundation: the core does without it, and these few calls say exactly what happens on disk.

import CInkwellOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why output could not be written. The description is one line naming the destination.
public enum OutputError: Error, CustomStringConvertible, Equatable {
  /// Writing `path` failed with the OS error `code`; `reason` is its text. `-` is standard output.
  case cannotWrite(path: String, reason: String, code: Int32)

  public var description: String {
    switch self {
    case .cannotWrite(let path, let reason, _):
      if path == "-" { return "cannot write to standard output: \(reason)" }
      return "cannot write '\(path)': \(reason)"
    }
  }

  init(path: String, code: Int32) {
    self = .cannotWrite(path: path, reason: String(cString: strerror(code)), code: code)
  }
}

/// Writes `bytes` to `path`: atomically replacing a regular file (or creating it), in place for a
/// device or FIFO, or to standard output for `-`.
///
/// Standard output gets `EPIPE` as an error only if the process ignores `SIGPIPE`; by default the
/// signal ends the process first.
public func writeOutput(_ bytes: [UInt8], to path: String) throws(OutputError) {
  try bytes.withUnsafeBytes { bytes in
    Result { () throws(OutputError) in try writeOutput(bytes, to: path) }
  }.get()
}

/// Writes `bytes` to `path`; see `writeOutput(_:to:)` for `[UInt8]`.
public func writeOutput(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputError) {
  try writeOutput(bytes, to: path, failingAt: nil)
}

/// Points in an atomic replacement where tests make it fail, as a full disk or a failing rename
/// would, to check that nothing is left behind and the old target survives.
enum AtomicWriteStage {
  case afterWritingTemporaryFile
  case beforeRename
}

func writeOutput(_ bytes: UnsafeRawBufferPointer, to path: String, failingAt stage: AtomicWriteStage?)
  throws(OutputError)
{
  if path == "-" {
    try writeAll(bytes, to: STDOUT_FILENO, path: path)
    return
  }
  guard let (directoryPrefix, name) = splitPath(path) else {
    throw OutputError(path: path, code: path.isEmpty ? ENOENT : EISDIR)
  }
  var status = stat()
  if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
    try writeInPlace(bytes, to: path)
    return
  }
  if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let target = resolvedPath(path),
    let (targetPrefix, targetName) = splitPath(target)
  {
    try replaceAtomically(
      directoryPrefix: targetPrefix, name: targetName, reportingAs: path, with: bytes, failingAt: stage)
    return
  }
  try replaceAtomically(
    directoryPrefix: directoryPrefix, name: name, reportingAs: path, with: bytes, failingAt: stage)
}

/// Replaces `directoryPrefix + name` (the prefix empty or ending in `/`) through a temporary file.
private func replaceAtomically(
  directoryPrefix: String, name: String, reportingAs shownPath: String, with bytes: UnsafeRawBufferPointer,
  failingAt stage: AtomicWriteStage?
) throws(OutputError) {
  let path = directoryPrefix + name
  var template = Array("\(directoryPrefix).\(name).XXXXXX".utf8CString)
  let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  guard descriptor >= 0 else { throw OutputError(path: shownPath, code: errno) }
  let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }

  var openDescriptor: Int32? = descriptor
  var renamed = false
  defer {
    if let openDescriptor { close(openDescriptor) }
    if !renamed { unlink(temporaryPath) }
  }
  try writeAll(bytes, to: descriptor, path: shownPath)
  if stage == .afterWritingTemporaryFile { throw OutputError(path: shownPath, code: ENOSPC) }
  guard fsync(descriptor) == 0, fchmod(descriptor, 0o666 & ~currentUmask()) == 0 else {
    throw OutputError(path: shownPath, code: errno)
  }
  openDescriptor = nil
  guard close(descriptor) == 0 || errno == EINTR else {
    throw OutputError(path: shownPath, code: errno)
  }
  if stage == .beforeRename { throw OutputError(path: shownPath, code: EIO) }
  guard rename(temporaryPath, path) == 0 else { throw OutputError(path: shownPath, code: errno) }
  renamed = true
  syncDirectoryEntries(directoryPrefix.isEmpty ? "." : directoryPrefix)
}

/// Devices and FIFOs: open without creating or truncating, and write.
private func writeInPlace(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputError) {
  let descriptor = open(path, O_WRONLY | O_CLOEXEC)
  guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
  var closed = false
  defer { if !closed { close(descriptor) } }
  try writeAll(bytes, to: descriptor, path: path)
  closed = true
  guard close(descriptor) == 0 || errno == EINTR else { throw OutputError(path: path, code: errno) }
}

/// Writes every byte, resuming after partial writes and interrupted calls.
private func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String)
  throws(OutputError)
{
  guard let base = bytes.baseAddress else { return }
  var offset = 0
  while offset < bytes.count {
    let written = write(descriptor, base + offset, bytes.count - offset)
    if written > 0 {
      offset += written
    } else if written < 0 && errno == EINTR {
      continue
    } else {
      throw OutputError(path: path, code: written < 0 ? errno : EIO)
    }
  }
}

/// Makes a finished rename durable. Best effort: some file systems refuse fsync on directories,
/// and the new file is complete either way.
private func syncDirectoryEntries(_ path: String) {
  let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  _ = fsync(descriptor)
  close(descriptor)
}

/// Splits a path after its last `/` into a directory prefix (empty, or ending in `/`) and a name;
/// nil when the path is empty or ends in `/`. Works on bytes, as the kernel does.
private func splitPath(_ path: String) -> (directoryPrefix: String, name: String)? {
  let bytes = Array(path.utf8)
  let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
  guard nameStart < bytes.count else { return nil }
  return (
    String(decoding: bytes[..<nameStart], as: UTF8.self), String(decoding: bytes[nameStart...], as: UTF8.self)
  )
}

private func resolvedPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// The process umask. Read from /proc on Linux, because `umask(2)` can only be read by setting it,
/// and another thread creating a file in that window would get the wrong permissions.
private func currentUmask() -> mode_t {
  if let mask = umaskFromProcStatus() { return mask }
  let mask = umask(0o022)
  umask(mask)
  return mask
}

private func umaskFromProcStatus() -> mode_t? {
  let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var contents: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    contents += chunk[0..<count]
  }
  for line in contents.split(separator: UInt8(ascii: "\n")) {
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("Umask:") else { continue }
    let digits = text.dropFirst("Umask:".count).filter { $0 != " " && $0 != "\t" }
    return mode_t(digits, radix: 8)
  }
  return nil
}

/// Output written piece by piece, with the same guarantees as `writeOutput`: a regular file
/// appears, complete, only at `commit()` (a temporary file beside it is renamed into place), and
/// nothing is left behind after `discard()` or a failure; standard output receives nothing until
/// `commit()` (the pieces are held in memory until then); a device or FIFO is written as pieces
/// arrive. Lets an encoder stream a large image without holding the whole file.
public final class OutputFileWriter {
  private enum Destination {
    case standardOutput([UInt8])
    case device(Int32)
    case temporary(descriptor: Int32, temporaryPath: String, directoryPrefix: String, finalPath: String)
    /// A file with no name yet (`inkwell_open_unnamed`), named at `commit()`.
    case unnamed(descriptor: Int32, directoryPrefix: String, finalPath: String)
    case finished
  }

  /// The path as given, used in error messages.
  public let path: String
  private var destination: Destination

  /// Opens `path` for writing (`-` for standard output).
  public init(path: String) throws(OutputError) {
    self.path = path
    if path == "-" {
      destination = .standardOutput([])
      return
    }
    guard var (directoryPrefix, name) = splitPath(path) else {
      throw OutputError(path: path, code: path.isEmpty ? ENOENT : EISDIR)
    }
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
      destination = .device(descriptor)
      return
    }
    if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let target = resolvedPath(path),
      let (targetPrefix, targetName) = splitPath(target)
    {
      (directoryPrefix, name) = (targetPrefix, targetName)
    }
    // A file without a name, where the system makes one: a process killed before `commit()`
    // leaves nothing behind, where a named temporary file would stay.
    let unnamed = inkwell_open_unnamed(directoryPrefix.isEmpty ? "." : directoryPrefix, 0o600)
    if unnamed >= 0 {
      destination = .unnamed(
        descriptor: unnamed, directoryPrefix: directoryPrefix, finalPath: directoryPrefix + name)
      return
    }
    var template = Array("\(directoryPrefix).\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw OutputError(path: path, code: errno) }
    let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    destination = .temporary(
      descriptor: descriptor, temporaryPath: temporaryPath, directoryPrefix: directoryPrefix,
      finalPath: directoryPrefix + name)
  }

  deinit { discard() }

  /// Appends `bytes`. After a failure the writer is discarded and later calls fail.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    switch destination {
    case .standardOutput(var held):
      destination = .finished
      held.append(contentsOf: bytes)
      destination = .standardOutput(held)
    case .device(let descriptor), .temporary(let descriptor, _, _, _), .unnamed(let descriptor, _, _):
      do {
        try writeAll(bytes, to: descriptor, path: path)
      } catch {
        discard()
        throw error
      }
    case .finished:
      throw OutputError(path: path, code: EBADF)
    }
  }

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    try bytes.withUnsafeBytes { raw in Result { () throws(OutputError) in try write(raw) } }.get()
  }

  /// Makes the output final: flushes, sets permissions and renames a temporary file into place,
  /// or writes the held bytes to standard output.
  public func commit() throws(OutputError) {
    try commit(syncingDirectory: true)
  }

  /// `commit()`; with `syncingDirectory` false the new name is not made durable here (the file's
  /// bytes still are, before it gets the name): a caller writing many files into one directory
  /// syncs it once afterwards (`syncDirectory(_:)`), instead of once a file.
  public func commit(syncingDirectory: Bool) throws(OutputError) {
    let current = destination
    destination = .finished
    switch current {
    case .standardOutput(let held):
      try held.withUnsafeBytes { raw in
        Result { () throws(OutputError) in try writeAll(raw, to: STDOUT_FILENO, path: path) }
      }.get()
    case .device(let descriptor):
      guard close(descriptor) == 0 || errno == EINTR else { throw OutputError(path: path, code: errno) }
    case .unnamed(let descriptor, let directoryPrefix, let finalPath):
      guard fsync(descriptor) == 0, fchmod(descriptor, 0o666 & ~currentUmask()) == 0 else {
        let code = errno
        close(descriptor)
        throw OutputError(path: path, code: code)
      }
      defer { close(descriptor) }
      try name(descriptor, finalPath: finalPath, directoryPrefix: directoryPrefix)
      if syncingDirectory { syncDirectoryEntries(directoryPrefix.isEmpty ? "." : directoryPrefix) }
    case .temporary(let descriptor, let temporaryPath, let directoryPrefix, let finalPath):
      var renamed = false
      defer { if !renamed { unlink(temporaryPath) } }
      guard fsync(descriptor) == 0, fchmod(descriptor, 0o666 & ~currentUmask()) == 0 else {
        let code = errno
        close(descriptor)
        throw OutputError(path: path, code: code)
      }
      guard close(descriptor) == 0 || errno == EINTR else { throw OutputError(path: path, code: errno) }
      guard rename(temporaryPath, finalPath) == 0 else { throw OutputError(path: path, code: errno) }
      renamed = true
      if syncingDirectory { syncDirectoryEntries(directoryPrefix.isEmpty ? "." : directoryPrefix) }
    case .finished:
      throw OutputError(path: path, code: EBADF)
    }
  }

  /// Names the unnamed file open as `descriptor` `finalPath`: straight away where nothing has that
  /// name (the usual new thumbnail or page), else under a fresh temporary name renamed over the
  /// old file, so that it is replaced in one step.
  private func name(_ descriptor: Int32, finalPath: String, directoryPrefix: String) throws(OutputError) {
    if inkwell_name_unnamed(descriptor, finalPath) == 0 { return }
    guard errno == EEXIST, let name = splitPath(finalPath)?.name else {
      throw OutputError(path: path, code: errno)
    }
    // A free name beside the target: mkstemp finds one; it is given back and taken by the link
    // (another process taking it in between makes the link fail with EEXIST, and the next try
    // finds another).
    for _ in 0..<16 {
      var template = Array("\(directoryPrefix).\(name).XXXXXX".utf8CString)
      let reserved = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard reserved >= 0 else { throw OutputError(path: path, code: errno) }
      close(reserved)
      let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      unlink(temporaryPath)
      guard inkwell_name_unnamed(descriptor, temporaryPath) == 0 else {
        if errno == EEXIST { continue }
        throw OutputError(path: path, code: errno)
      }
      guard rename(temporaryPath, finalPath) == 0 else {
        let code = errno
        unlink(temporaryPath)
        throw OutputError(path: path, code: code)
      }
      return
    }
    throw OutputError(path: path, code: EEXIST)
  }

  /// Makes the names of files renamed into `directory` durable (best effort: some file systems
  /// refuse to sync a directory, and the files are complete either way).
  public static func syncDirectory(_ directory: String) {
    syncDirectoryEntries(directory)
  }

  /// Abandons the output: a temporary file is removed, held bytes are dropped. Safe to repeat.
  public func discard() {
    switch destination {
    case .device(let descriptor):
      close(descriptor)
    case .temporary(let descriptor, let temporaryPath, _, _):
      close(descriptor)
      unlink(temporaryPath)
    case .unnamed(let descriptor, _, _):
      close(descriptor)
    case .standardOutput, .finished:
      break
    }
    destination = .finished
  }
}
