import InkwellFormat

/// Helpers shared by the importer tests.
enum ImporterTesting {
  /// The kind of `DocumentError` that `body` throws; `nil` when it succeeds or throws another error.
  static func failureKind(_ body: () throws -> Any) -> DocumentError.Kind? {
    do {
      _ = try body()
      return nil
    } catch let error as DocumentError {
      return error.kind
    } catch {
      return nil
    }
  }
}
