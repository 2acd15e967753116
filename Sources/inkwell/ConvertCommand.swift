enum ConvertCommand {
  static func run(_ arguments: [String]) throws {
    throw CommandError(message: "convert: not yet available")
  }
}
