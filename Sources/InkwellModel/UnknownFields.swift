/// Members of a document record that this build does not understand, kept so that loading and
/// saving a file written by a newer build loses nothing.
///
/// Each value is its compact JSON text (UTF-8, no whitespace), the form both native encodings carry:
/// JSON writes it back in place, the binary format stores the text. The model never interprets it.
public struct UnknownFields: Hashable, Sendable {
  /// One preserved member: its key and its value as compact JSON text.
  public struct Field: Hashable, Sendable {
    public var name: String
    public var json: [UInt8]

    public init(name: String, json: [UInt8]) {
      self.name = name
      self.json = json
    }
  }

  /// The members in the order they were read.
  public var fields: [Field]

  public init(_ fields: [Field] = []) {
    self.fields = fields
  }

  public var isEmpty: Bool { fields.isEmpty }

  /// The compact JSON text of the member named `name`, if there is one.
  public subscript(name: String) -> [UInt8]? {
    fields.first { $0.name == name }?.json
  }
}
