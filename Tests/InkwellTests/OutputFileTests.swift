import CInkwellOutput
import Glibc
import Testing

@testable import Inkwell

/// A fresh directory under /tmp, removed with its files when the test ends.
private final class ScratchDirectory {
  let path: String

  init() {
    var template = Array("/tmp/inkwell-output-test.XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(created != nil, "mkdtemp failed")
    path = String(cString: created!)
  }

  deinit {
    chmod(path, 0o700)
    for name in entries() { unlink("\(path)/\(name)") }
    rmdir(path)
  }

  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Names in the directory, hidden ones (temporary files) included.
  func entries() -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }
}

private func fileMode(_ path: String) -> mode_t? {
  var status = stat()
  guard stat(path, &status) == 0 else { return nil }
  return status.st_mode
}

private func createFile(_ path: String, contents: [UInt8]) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(descriptor >= 0)
  _ = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  close(descriptor)
}

private let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

@Test func atomicWriteCreatesTheFileAndNothingElse() throws {
  let scratch = ScratchDirectory()
  let target = scratch.file("out.png")
  try writeOutput(payload, to: target)
  #expect(try readInput(target, maxBytes: 1 << 20) == payload)
  #expect(scratch.entries() == ["out.png"])

  let mask = umask(0o022)
  umask(mask)
  #expect(fileMode(target).map { $0 & 0o7777 } == 0o666 & ~mask)
}

@Test func atomicWriteReplacesAnExistingFile() throws {
  let scratch = ScratchDirectory()
  let target = scratch.file("out.png")
  createFile(target, contents: Array("old contents".utf8))
  try writeOutput(payload, to: target)
  #expect(try readInput(target, maxBytes: 1 << 20) == payload)
  try writeOutput([], to: target)
  #expect(try readInput(target, maxBytes: 1 << 20) == [])
  #expect(scratch.entries() == ["out.png"])
}

@Test func writeFollowsASymbolicLinkToAFile() throws {
  let scratch = ScratchDirectory()
  createFile(scratch.file("real.png"), contents: [1, 2, 3])
  symlink("real.png", scratch.file("link.png"))
  try writeOutput(payload, to: scratch.file("link.png"))
  #expect(try readInput(scratch.file("real.png"), maxBytes: 1 << 20) == payload)
  var status = stat()
  lstat(scratch.file("link.png"), &status)
  #expect(status.st_mode & S_IFMT == S_IFLNK)
  #expect(scratch.entries() == ["link.png", "real.png"])
}

@Test func missingDirectoryFailsAndLeavesNothing() {
  let scratch = ScratchDirectory()
  let target = scratch.file("missing/out.png")
  #expect(throws: OutputError.cannotWrite(path: target, reason: "No such file or directory", code: ENOENT)) {
    try writeOutput(payload, to: target)
  }
  #expect(scratch.entries() == [])
}

@Test func directoryTargetFails() {
  let scratch = ScratchDirectory()
  #expect(throws: OutputError.self) { try writeOutput(payload, to: scratch.path) }
  #expect(throws: OutputError.self) { try writeOutput(payload, to: scratch.path + "/") }
  #expect(scratch.entries() == [])
}

@Test(.enabled(if: access("/dev/full", W_OK) == 0))
func devFullReportsNoSpace() {
  do {
    try writeOutput(payload, to: "/dev/full")
    Issue.record("writing /dev/full succeeded")
  } catch {
    #expect(error.description == "cannot write '/dev/full': No space left on device")
  }
  #expect(fileMode("/dev/full").map { $0 & S_IFMT } == S_IFCHR)
}

@Test func devNullIsWrittenInPlace() throws {
  try writeOutput(payload, to: "/dev/null")
  #expect(fileMode("/dev/null").map { $0 & S_IFMT } == S_IFCHR)
}

@Test(arguments: [AtomicWriteStage.afterWritingTemporaryFile, .beforeRename])
func failureKeepsTheOldTarget(stage: AtomicWriteStage) {
  let scratch = ScratchDirectory()
  let target = scratch.file("out.png")
  let old = Array("old contents".utf8)
  createFile(target, contents: old)
  #expect(throws: OutputError.self) {
    try payload.withUnsafeBytes { bytes in
      Result { () throws(OutputError) in try writeOutput(bytes, to: target, failingAt: stage) }
    }.get()
  }
  #expect((try? readInput(target, maxBytes: 1 << 20)) == old)
  #expect(scratch.entries() == ["out.png"])
}

// Root ignores directory permissions, so this runs only for other users; the fault-injection test
// above covers the same path everywhere.
@Test(.enabled(if: geteuid() != 0))
func readOnlyDirectoryKeepsTheOldTarget() {
  let scratch = ScratchDirectory()
  let target = scratch.file("out.png")
  createFile(target, contents: [9, 9, 9])
  chmod(scratch.path, 0o555)
  #expect(throws: OutputError.self) { try writeOutput(payload, to: target) }
  #expect((try? readInput(target, maxBytes: 100)) == [9, 9, 9])
  #expect(scratch.entries() == ["out.png"])
}

@Test func readInputReportsTypedErrors() {
  let scratch = ScratchDirectory()
  let missing = scratch.file("nope.json")
  #expect(throws: InputError.noSuchFile(path: missing)) { try readInput(missing, maxBytes: 100) }
  #expect(throws: InputError.isDirectory(path: scratch.path)) { try readInput(scratch.path, maxBytes: 100) }
  createFile(scratch.file("big"), contents: payload)
  #expect(throws: InputError.tooLarge(path: scratch.file("big"), limit: payload.count - 1)) {
    try readInput(scratch.file("big"), maxBytes: payload.count - 1)
  }
  #expect((try? readInput(scratch.file("big"), maxBytes: payload.count)) == payload)
  #expect(
    InputError.noSuchFile(path: "a.json").description == "cannot read 'a.json': No such file or directory")
  #expect(
    InputError.tooLarge(path: "-", limit: 5).description
      == "cannot read standard input: larger than the limit of 5 bytes")
}

@Test(.enabled(if: geteuid() != 0))
func readInputReportsPermissionDenied() {
  let scratch = ScratchDirectory()
  let secret = scratch.file("secret")
  createFile(secret, contents: [1])
  chmod(secret, 0)
  #expect(throws: InputError.permissionDenied(path: secret)) { try readInput(secret, maxBytes: 100) }
}

@Test func readInputLimitsAStream() throws {
  // /dev/zero never ends: the limit is what stops the read.
  #expect(throws: InputError.tooLarge(path: "/dev/zero", limit: 200_000)) {
    try readInput("/dev/zero", maxBytes: 200_000)
  }
}

/// Whether this system makes unnamed files (O_TMPFILE) in `directory`.
func makesUnnamedFiles(in directory: String) -> Bool {
  let descriptor = inkwell_open_unnamed(directory, 0o600)
  guard descriptor >= 0 else { return false }
  close(descriptor)
  return true
}

@Test func streamedWriterShowsNothingBeforeCommitAndReplacesInOneStep() throws {
  let scratch = ScratchDirectory()
  let unnamed = makesUnnamedFiles(in: scratch.path)
  for replacing in [false, true] {
    if replacing { createFile(scratch.file("out.png"), contents: [1, 2, 3]) }
    let writer = try OutputFileWriter(path: scratch.file("out.png"))
    try writer.write(Array(payload[0..<50_000]))
    try writer.write(Array(payload[50_000...]))
    if unnamed {
      // Until the commit, the directory holds what it held before: a process killed now leaves
      // nothing behind.
      #expect(scratch.entries() == (replacing ? ["out.png"] : []))
    }
    try writer.commit()
    #expect(scratch.entries() == ["out.png"])
    #expect(try readInput(scratch.file("out.png"), maxBytes: 1 << 20) == payload)
    let mask = umask(0o022)
    umask(mask)
    #expect(fileMode(scratch.file("out.png")).map { $0 & 0o7777 } == 0o666 & ~mask)
  }
  let discarded = try OutputFileWriter(path: scratch.file("other.png"))
  try discarded.write(payload)
  discarded.discard()
  #expect(scratch.entries() == ["out.png"])
}
