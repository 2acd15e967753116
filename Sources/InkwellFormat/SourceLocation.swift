/// A place in a file's bytes, for error messages: the byte offset and the 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line, so a column number matches what an
/// editor shows for UTF-8 text.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// Bytes from the start of the input, starting at 0.
  public var offset: Int
  /// 1-based line number; lines end at `\n`.
  public var line: Int
  /// 1-based column, in Unicode scalars.
  public var column: Int

  public init(offset: Int, line: Int, column: Int) {
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// The location of byte `offset` in `bytes`; offsets past the end are clamped to the end.
  public init(offset: Int, in bytes: [UInt8]) {
    let end = Swift.min(Swift.max(offset, 0), bytes.count)
    var line = 1
    var column = 1
    var index = 0
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        line &+= 1
        column = 1
      } else if byte & 0b1100_0000 != 0b1000_0000 {
        column &+= 1
      }
      index &+= 1
    }
    self.init(offset: end, line: line, column: column)
  }

  /// `line L, column C, byte B`.
  public var description: String { "line \(line), column \(column), byte \(offset)" }
}
