import Inkwell
import Testing

@Suite("Golden images")
struct GoldenTests {
  @Test("the manifest lists cases")
  func manifest() throws {
    let cases = try Golden.loadManifest()
    #expect(!cases.isEmpty)
  }

  @Test("renders match their reviewed references", arguments: Golden.cases)
  func matchesReference(_ c: Golden.Case) throws {
    let image = try Golden.render(c)
    #expect(image.width == c.width && image.height == c.height, "size \(image.width)×\(image.height)")
    if let failure = try Golden.check(c, image) {
      Issue.record(Comment(rawValue: "\(c.name): \(failure)"))
    }
  }

  @Test("every golden scene renders identically on 1 and 3 threads", arguments: Golden.cases)
  func threadIndependent(_ c: Golden.Case) throws {
    #expect(try Golden.render(c, threads: 1) == Golden.render(c, threads: 3))
  }
}
