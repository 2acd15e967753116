/// Decodes the text of an InkML `<trace>` into one row of numbers per point (W3C InkML 2011,
/// §3.2.1 "Trace").
///
/// Points are separated by commas, values within a point by whitespace, or by nothing where the
/// next value's first character ends the previous one (`10-3`, `1.5.5`). Each value may carry a
/// prefix: `!` explicit, `'` first difference, `"` second difference. A prefix sets the channel's
/// mode for that value and the values of that channel that follow, until another prefix; a channel
/// starts explicit. `T` and `F` are 1 and 0. `*` repeats: the previous value in explicit mode, the
/// previous difference in the difference modes. `?` (a value not known) keeps the previous value.
/// Regular channels must all be present; intermittent ones may be left off the end of a point and
/// then keep their previous value (initially the channel's default).
struct InkMLTraceDecoder {
  enum Mode {
    case explicit
    case firstDifference
    case secondDifference
  }

  private struct ChannelState {
    var value: Double
    var velocity: Double = 0
    var acceleration: Double = 0
    var mode = Mode.explicit
    var hasValue = false
  }

  /// Why a trace's text cannot be decoded, and the byte (within the text) where.
  struct Failure: Error {
    var failure: ImportFailure
    var offset: Int
  }

  let regularCount: Int
  let channelNames: [String]
  private var states: [ChannelState]

  /// `defaults` has one value per channel, regular channels first.
  init(channelNames: [String], regularCount: Int, defaults: [Double]) {
    self.channelNames = channelNames
    self.regularCount = regularCount
    self.states = defaults.map { ChannelState(value: $0) }
  }

  /// The points of `text`, each with one value per channel.
  mutating func decode(_ text: [UInt8]) throws(Failure) -> [[Double]] {
    var points: [[Double]] = []
    var index = 0
    var channel = 0
    var pointStart = 0
    var sawAnything = false

    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    func finishPoint(at offset: Int) throws(Failure) {
      guard channel >= regularCount else {
        throw Failure(
          failure: .wrongValueCount(
            expected: regularCount == states.count ? "\(regularCount)" : "\(regularCount)...\(states.count)",
            found: channel, channels: channelNames.joined(separator: " ")),
          offset: pointStart)
      }
      points.append(states.map(\.value))
      channel = 0
      pointStart = offset
    }

    while true {
      while index < text.count, isSpace(text[index]) { index += 1 }
      guard index < text.count else { break }
      sawAnything = true
      if text[index] == UInt8(ascii: ",") {
        try finishPoint(at: index + 1)
        index += 1
        continue
      }
      let tokenStart = index
      var mode: Mode?
      switch text[index] {
      case UInt8(ascii: "!"): mode = .explicit
      case UInt8(ascii: "'"): mode = .firstDifference
      case UInt8(ascii: "\""): mode = .secondDifference
      default: break
      }
      if mode != nil {
        index += 1
        while index < text.count, isSpace(text[index]) { index += 1 }
      }
      guard channel < states.count else {
        throw Failure(
          failure: .wrongValueCount(
            expected: regularCount == states.count ? "\(regularCount)" : "\(regularCount)...\(states.count)",
            found: channel + 1, channels: channelNames.joined(separator: " ")),
          offset: pointStart)
      }
      if let mode { states[channel].mode = mode }
      guard index < text.count else {
        throw Failure(failure: .invalidTraceValue(token(text, tokenStart)), offset: tokenStart)
      }
      let byte = text[index]
      switch byte {
      case UInt8(ascii: "T"), UInt8(ascii: "F"):
        index += 1
        apply(byte == UInt8(ascii: "T") ? 1 : 0, to: channel)
      case UInt8(ascii: "*"):
        index += 1
        repeatPrevious(channel)
      case UInt8(ascii: "?"):
        index += 1
      default:
        let numberStart = index
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < text.count, isDigit(text[index]) {
          index += 1
          digits += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
          index += 1
          while index < text.count, isDigit(text[index]) {
            index += 1
            digits += 1
          }
        }
        if digits > 0, index < text.count,
          text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")
        {
          var exponentEnd = index + 1
          if exponentEnd < text.count,
            text[exponentEnd] == UInt8(ascii: "+") || text[exponentEnd] == UInt8(ascii: "-")
          {
            exponentEnd += 1
          }
          if exponentEnd < text.count, isDigit(text[exponentEnd]) {
            index = exponentEnd
            while index < text.count, isDigit(text[index]) { index += 1 }
          }
        }
        let numberText = String(decoding: text[numberStart..<index], as: UTF8.self)
        guard digits > 0, let value = Double(numberText), value.isFinite else {
          throw Failure(failure: .invalidTraceValue(token(text, tokenStart)), offset: tokenStart)
        }
        apply(value, to: channel)
      }
      guard states[channel].value.isFinite else {
        throw Failure(failure: .invalidTraceValue(token(text, tokenStart)), offset: tokenStart)
      }
      channel += 1
    }
    if sawAnything { try finishPoint(at: text.count) }
    return points
  }

  private mutating func apply(_ number: Double, to channel: Int) {
    var state = states[channel]
    switch state.mode {
    case .explicit:
      let velocity = state.hasValue ? number - state.value : 0
      state.acceleration = velocity - state.velocity
      state.velocity = velocity
      state.value = number
    case .firstDifference:
      state.acceleration = number - state.velocity
      state.velocity = number
      state.value += number
    case .secondDifference:
      state.acceleration = number
      state.velocity += number
      state.value += state.velocity
    }
    state.hasValue = true
    states[channel] = state
  }

  private mutating func repeatPrevious(_ channel: Int) {
    var state = states[channel]
    switch state.mode {
    case .explicit:
      state.velocity = 0
    case .firstDifference:
      state.value += state.velocity
    case .secondDifference:
      state.velocity += state.acceleration
      state.value += state.velocity
    }
    state.hasValue = true
    states[channel] = state
  }

  /// The token at `start`, up to the next space or comma, for messages.
  private func token(_ text: [UInt8], _ start: Int) -> String {
    var end = start
    while end < text.count, end - start < 24,
      ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ",")].contains(text[end])
    {
      end += 1
    }
    return String(decoding: text[start..<end], as: UTF8.self)
  }
}
