import InkwellFormat
import Testing

@Suite struct FormatJSONTests {
  @Test(arguments: [
    ("null", JSONValue.Content.null),
    ("true", .bool(true)),
    (" false ", .bool(false)),
    ("\"a\\\"b\\\\c\\/d\\n\"", .string("a\"b\\c/d\n")),
    ("\"\\u00e9\\ud83d\\ude00\"", .string("é😀")),
    ("\"é😀\"", .string("é😀")),
    ("-0", .number(JSONNumber(text: "-0")!)),
    ("1.5e-3", .number(JSONNumber(text: "1.5e-3")!)),
    ("[]", .array([])),
    ("{}", .object([])),
  ])
  func readsScalarsAndEmptyContainers(text: String, expected: JSONValue.Content) throws {
    #expect(try JSONReader.parse(Array(text.utf8)).content == expected)
  }

  /// Texts that reach every branch of the number conversions: the one-operation path, float
  /// midpoints (which it leaves to the library), too many digits, exponents out of its range.
  static func numberTexts() -> [String] {
    var texts = [
      "0", "-0", "0.0", "1", "-1", "57.174805", "0.000123", "1e22", "1e23", "-1E-22", "1e-23",
      "9007199254740992", "9007199254740993", "1234567890123456789", "12345678901234567890",
      "0.00000000000000000001234", "1.5e-45", "3.4028235e38", "3.4028236e38", "3.5e38", "1e-50",
      "0.1", "-2.5E+3", "1E0005", "1e00000", "16777217", "0.30000001192092896",
    ]
    var random = SeededGenerator(seed: 42)
    for _ in 0..<20_000 {
      let digits = Int.random(in: 1...12, using: &random)
      var text = Bool.random(using: &random) ? "-" : ""
      text += String(UInt64.random(in: 1...UInt64(9), using: &random))
      for _ in 1..<digits { text += String(UInt64.random(in: 0...9, using: &random)) }
      let point = Int.random(in: 0...digits, using: &random)
      if point > 0, point < digits {
        text.insert(".", at: text.index(text.endIndex, offsetBy: point - digits))
      }
      if Int.random(in: 0..<4, using: &random) == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
      texts.append(text)
    }
    for _ in 0..<5_000 {
      // Sixteen to nineteen digits, as recorders that print a `Double` write them.
      let digits = Int.random(in: 16...19, using: &random)
      var text = String(UInt64.random(in: 1...9, using: &random))
      for _ in 1..<digits { text += String(UInt64.random(in: 0...9, using: &random)) }
      let point = Int.random(in: 1..<digits, using: &random)
      text.insert(".", at: text.index(text.endIndex, offsetBy: point - digits))
      texts.append(text)
    }
    for _ in 0..<5_000 {
      // Halfway between two floats, and the doubles on either side of that.
      let float = Float(bitPattern: UInt32.random(in: 0x0080_0000...0x7F7F_FFFF, using: &random))
      let midpoint = (Double(float) + Double(float.nextUp)) / 2
      texts += [midpoint.description, midpoint.nextUp.description, midpoint.nextDown.description]
    }
    return texts
  }

  @Test func numbersConvertCorrectlyRounded() throws {
    for text in Self.numberTexts() {
      let number = try #require(JSONNumber(text: text), "\(text)")
      let infinity = text.hasPrefix("-") ? -Float.infinity : .infinity
      let float = Float(text) ?? infinity
      let double = Double(text) ?? Double(infinity)
      #expect(number.floatValue.bitPattern == float.bitPattern, "\(text)")
      #expect(number.doubleValue.bitPattern == double.bitPattern, "\(text)")
      #expect(number.text == text)
      let read = try JSONReader.parse(Array("[\(text)]".utf8))
      #expect(read.content == .array([JSONValue(.number(number), offset: 1)]), "\(text)")
    }
  }

  @Test func recordsOffsetsOfNestedValues() throws {
    let value = try JSONReader.parse(Array(#"{"a": [1, {"b": null}]}"#.utf8))
    guard case .object(let members) = value.content, case .array(let items) = members[0].value.content
    else {
      Issue.record("unexpected shape")
      return
    }
    #expect(members[0].keyOffset == 1)
    #expect(members[0].value.offset == 6)
    #expect(items[0].offset == 7)
    #expect(items[1].offset == 10)
  }

  @Test func keepsDuplicateKeysInOrder() throws {
    let value = try JSONReader.parse(Array(#"{"a": 1, "a": 2}"#.utf8))
    guard case .object(let members) = value.content else { return }
    #expect(members.map(\.key) == ["a", "a"])
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    var bytes: [UInt8]
    var reason: JSONError.Reason
    var offset: Int
    var testDescription: String { String(decoding: bytes, as: UTF8.self) }

    init(_ text: String, _ reason: JSONError.Reason, at offset: Int) {
      self.init(Array(text.utf8), reason, at: offset)
    }

    init(_ bytes: [UInt8], _ reason: JSONError.Reason, at offset: Int) {
      self.bytes = bytes
      self.reason = reason
      self.offset = offset
    }
  }

  @Test(arguments: [
    Failure("", .unexpectedEnd(expected: "a value"), at: 0),
    Failure("   ", .unexpectedEnd(expected: "a value"), at: 3),
    Failure("[1, 2", .unexpectedEnd(expected: "',' or ']'"), at: 5),
    Failure("[1,]", .unexpectedCharacter(found: "']'", expected: "a value"), at: 3),
    Failure("{\"a\":1,}", .unexpectedCharacter(found: "'}'", expected: "a key"), at: 7),
    Failure("{\"a\" 1}", .unexpectedCharacter(found: "'1'", expected: "':'"), at: 5),
    Failure("{a:1}", .unexpectedCharacter(found: "'a'", expected: "a key"), at: 1),
    Failure("[1 2]", .unexpectedCharacter(found: "'2'", expected: "',' or ']'"), at: 3),
    Failure("01", .leadingZero, at: 0),
    Failure("-01", .leadingZero, at: 1),
    Failure("-", .unexpectedEnd(expected: "a digit"), at: 1),
    Failure("1.", .unexpectedEnd(expected: "a digit"), at: 2),
    Failure("1.e5", .unexpectedCharacter(found: "'e'", expected: "a digit"), at: 2),
    Failure("1e", .unexpectedEnd(expected: "a digit"), at: 2),
    Failure(".5", .unexpectedCharacter(found: "'.'", expected: "a value"), at: 0),
    Failure("+1", .unexpectedCharacter(found: "'+'", expected: "a value"), at: 0),
    Failure("NaN", .nonFiniteNumber("NaN"), at: 0),
    Failure("[Infinity]", .nonFiniteNumber("Infinity"), at: 1),
    Failure("-Infinity", .nonFiniteNumber("-Infinity"), at: 0),
    Failure("1 2", .trailingCharacters, at: 2),
    Failure("{} x", .trailingCharacters, at: 3),
    Failure("tru", .unexpectedEnd(expected: "'true'"), at: 3),
    Failure("nul!", .unexpectedCharacter(found: "'!'", expected: "'null'"), at: 3),
    Failure("\"abc", .unexpectedEnd(expected: "'\"' closing the string"), at: 4),
    Failure("\"a\u{01}\"", .controlCharacterInString, at: 2),
    Failure("\"\\x\"", .invalidEscape, at: 1),
    Failure("\"\\u12G4\"", .invalidEscape, at: 1),
    Failure("\"\\ud800\"", .loneSurrogate, at: 1),
    Failure("\"\\udc00\"", .loneSurrogate, at: 1),
    Failure("\"\\ud800\\u0041\"", .loneSurrogate, at: 1),
    Failure([0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
    Failure([0x22, 0xC0, 0x80, 0x22], .invalidUTF8, at: 1),
    Failure([0x22, 0xE0, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
    Failure([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),
    Failure([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
    Failure([0x22, 0xE2, 0x82], .invalidUTF8, at: 1),
    Failure(
      [0x5B, 0xC3, 0xA9, 0x5D], .unexpectedCharacter(found: "non-ASCII character", expected: "a value"), at: 1
    ),
    Failure([0x5B, 0xFF, 0x5D], .invalidUTF8, at: 1),
  ])
  func rejectsMalformedInput(_ failure: Failure) {
    #expect {
      _ = try JSONReader.parse(failure.bytes)
    } throws: { error in
      guard let error = error as? JSONError else { return false }
      return error.reason == failure.reason && error.location.offset == failure.offset
    }
  }

  @Test func reportsLineAndColumn() {
    let text = "{\n  \"a\": [1,\n  \"é\", x]}"
    #expect {
      _ = try JSONReader.parse(Array(text.utf8))
    } throws: { error in
      guard let error = error as? JSONError else { return false }
      return error.location.line == 3 && error.location.column == 8
        && error.description.hasSuffix("(line 3, column 8, byte 21)")
    }
  }

  @Test func limitsNestingDepth() throws {
    let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONError.self) { _ = try JSONReader.parse(deep) }
    let limit = JSONReader.defaultMaximumDepth
    let atLimit = Array((String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).utf8)
    _ = try JSONReader.parse(atLimit)
    let beyond = Array(("[" + String(decoding: atLimit, as: UTF8.self) + "]").utf8)
    #expect {
      _ = try JSONReader.parse(beyond)
    } throws: { error in
      (error as? JSONError)?.reason == .nestingTooDeep(limit: limit)
    }
  }

  @Test func skipsByteOrderMark() throws {
    #expect(try JSONReader.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).content != .null)
  }

  @Test(arguments: [
    (Float(2), "2"), (Float(-0.0), "-0"), (Float(0.1), "0.1"), (Float(1e-5), "1e-05"),
    (Float(16_777_216), "16777216"), (Float(1e20), "1e+20"), (Float(3.4028235e38), "3.4028235e+38"),
    (Float(-1.5), "-1.5"),
  ])
  func printsFloatsShortestWithoutTrailingZero(value: Float, text: String) {
    #expect(JSONNumber(value)?.text == text)
  }

  @Test func neverPrintsNonFiniteNumbers() {
    #expect(JSONNumber(Float.infinity) == nil)
    #expect(JSONNumber(-Float.infinity) == nil)
    #expect(JSONNumber(Float.nan) == nil)
    #expect(JSONNumber(Double.nan) == nil)
    #expect(JSONNumber(text: "nan") == nil)
    #expect(JSONNumber(text: "1e") == nil)
    #expect(JSONNumber(text: "1e+3") != nil)
  }

  @Test func floatTextRoundTripsExactly() {
    var random = SplitMix64(seed: 42)
    for _ in 0..<20_000 {
      let value = random.anyFiniteFloat()
      guard let number = JSONNumber(value), JSONNumber(text: number.text) != nil else {
        Issue.record("no valid text for \(value)")
        return
      }
      #expect(number.floatValue.bitPattern == value.bitPattern || (value == 0 && number.floatValue == 0))
    }
  }

  @Test func convertsOverflowToInfinityAndIntegersExactly() {
    #expect(JSONNumber(text: "1e39")!.floatValue == .infinity)
    #expect(JSONNumber(text: "-1e39")!.floatValue == -.infinity)
    #expect(JSONNumber(text: "7.0")!.integerValue(as: UInt32.self) == 7)
    #expect(JSONNumber(text: "7e0")!.integerValue(as: UInt32.self) == 7)
    #expect(JSONNumber(text: "7.5")!.integerValue(as: UInt32.self) == nil)
    #expect(JSONNumber(text: "-1")!.integerValue(as: UInt32.self) == nil)
    #expect(JSONNumber(text: "4294967296")!.integerValue(as: UInt32.self) == nil)
    #expect(JSONNumber(text: "1e400")!.integerValue(as: Int.self) == nil)
  }

  @Test func writesCompactAndPrettyLayouts() throws {
    let value = try JSONReader.parse(
      Array(#"{"a": [1, 2], "b": {"c": "x\ny", "d": [[1], []]}, "e": {}}"#.utf8))
    #expect(
      String(decoding: JSONWriter.write(value, style: .compact), as: UTF8.self)
        == #"{"a":[1,2],"b":{"c":"x\ny","d":[[1],[]]},"e":{}}"#)
    let pretty = """
      {
        "a": [1, 2],
        "b": {
          "c": "x\\ny",
          "d": [
            [1],
            []
          ]
        },
        "e": {}
      }

      """
    #expect(String(decoding: JSONWriter.write(value), as: UTF8.self) == pretty)
  }

  @Test func writtenStringsReadBack() throws {
    let text = "quote \" backslash \\ tab \t nul \u{0} bell \u{7} é 😀 /"
    let bytes = JSONWriter.write(JSONValue(.string(text)), style: .compact)
    #expect(try JSONReader.parse(bytes).content == .string(text))
  }

  @Test func stringsOfEveryLengthAndMixReadBack() throws {
    // Plain runs of every length around quotes, backslashes, controls and non-ASCII scalars, so
    // that each lands at every place in the reader's eight-byte words, and each broken byte
    // reported where it is.
    let specials: [String] = ["\"", "\\", "\t", "\u{1}", "é", "😀", "/"]
    var random = SplitMix64(seed: 0x57_21)
    for length in 0..<40 {
      for _ in 0..<12 {
        var text = ""
        for _ in 0..<(1 + random.next() % 4) {
          text += String(repeating: "a", count: Int(random.next() % UInt64(length + 1)))
          text += specials[Int(random.next() % UInt64(specials.count))]
        }
        text += String(repeating: "z", count: length)
        let bytes = JSONWriter.write(JSONValue(.string(text)), style: .compact)
        #expect(try JSONReader.parse(bytes).content == .string(text), "\(text)")
      }
      let plain = Array(String(repeating: "p", count: length).utf8)
      #expect(
        try JSONReader.parse([0x22] + plain + [0x22]).content
          == .string(String(repeating: "p", count: length)))
      for (bad, reason) in [
        (UInt8(0x01), JSONError.Reason.controlCharacterInString), (0x1F, .controlCharacterInString),
        (0x80, .invalidUTF8), (0xFF, .invalidUTF8),
      ] {
        for at in 0...length {
          var broken = [UInt8(0x22)] + plain + [0x22]
          broken.insert(bad, at: 1 + at)
          #expect(throws: JSONError.self) { try JSONReader.parse(broken) }
          do {
            _ = try JSONReader.parse(broken)
          } catch {
            #expect(error.reason == reason && error.location.offset == 1 + at, "\(length) \(at) \(error)")
          }
        }
      }
      #expect(throws: JSONError.self) { try JSONReader.parse([0x22] + plain) }
    }
  }

  @Test func mangledInputNeverTraps() {
    var random = SplitMix64(seed: 7)
    let seed = Array(
      #"{"a": [1, -2.5e3, true, null, "x\u00e9y", {"b": [[], {}]}], "c": "😀"}"#.utf8)
    let alphabet = Array(#"{}[]",:0123456789-+.eE\u tfnrl"#.utf8) + [0x00, 0x80, 0xC3, 0xED, 0xFF]
    for _ in 0..<5_000 {
      var bytes = seed
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let i = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes[i] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: i)
        default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: i)
        }
        if bytes.isEmpty { break }
      }
      _ = try? JSONReader.parse(bytes)
    }
  }
}
