enum RenderCommand {
  static func run(_ arguments: [String]) throws {
    throw CommandError(message: "render: not yet available")
  }
}
