// format-bench: the binary native format against compact JSON, on the same documents.
//
// For each document (the examples, the golden documents, and the corpus recordings the importers
// read, converted), it reports the size of compact JSON (no whitespace) and of the binary form, and
// the median and spread of load times over repeated runs (decode from bytes in memory to the model).
// Every document must be at least 5× smaller, and the set must load at least 10× faster.
// Run from the package root: `swift run -c release format-bench [FILE…]`.

import Inkwell

#if canImport(Glibc)
  import Glibc
#endif

let defaultInputs = [
  "examples/mypaint-painting.inkwell.json", "examples/bdalab-handwriting.inkwell.json",
  "golden/handwriting/bdalab-cursive.inkwell.json", "golden/pen/curve.inkwell.json",
  "golden/pen/pressure-ramp.inkwell.json", "golden/pen/straight.inkwell.json",
  "golden/pen/translucent-self-crossing-loop.inkwell.json",
  "../shared/corpus/libmypaint/painting30sec.dat",
  "../shared/corpus/bdalab-handwriting-sample/jack_18-07-2014_M_0006_Doe_12-10-2020.svc",
  "../shared/corpus/bdalab-handwriting-sample/signal.svc",
  "../shared/corpus/bdalab-handwriting-sample/signal.json",
]

func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let elapsed = try clock.measure(body)
  return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
}

/// Median and interquartile spread of `runs` timings of `body`, in microseconds.
func timing(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, low: Double, high: Double) {
  var samples: [Double] = []
  for _ in 0..<runs { samples.append(try nanoseconds(body) / 1000) }
  samples.sort()
  return (samples[runs / 2], samples[runs / 4], samples[runs * 3 / 4])
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

func fixed(_ value: Double, _ digits: Int = 1) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return String(rounded)
}

var arguments = Array(CommandLine.arguments.dropFirst())
// `--profile FILE`: decode FILE's binary form in a loop, for a profiler.
if arguments.first == "--profile", arguments.count == 2 {
  let document = try NativeFormat.decode(try readInput(arguments[1], maxBytes: 1 << 28))
  let binary = try BinaryFormat.encode(document)
  for _ in 0..<5000 { _ = try BinaryFormat.decode(binary) }
  exit(0)
}
let inputs = arguments.isEmpty ? defaultInputs : arguments
var totalJSON = 0
var totalBinary = 0
var totalJSONTime = 0.0
var totalBinaryTime = 0.0
var worstSize = Double.infinity
var worstSpeed = Double.infinity
print(
  "document                                   json B  binary B  size×  json load µs (IQR)      binary load µs (IQR)   speed×"
)
for path in inputs {
  guard let bytes = try? readInput(path, maxBytes: 1 << 28) else {
    print("\(path): skipped (cannot read)")
    continue
  }
  guard let format = DocumentFormat.detect(path: path, bytes: bytes), let document = try? format.load(bytes)
  else {
    print("\(path): skipped (cannot load)")
    continue
  }
  let json = try NativeFormat.encode(document, style: .compact)
  let binary = try BinaryFormat.encode(document)
  guard try NativeFormat.encode(BinaryFormat.decode(binary)) == NativeFormat.encode(document) else {
    print("\(path): ROUND TRIP MISMATCH")
    exit(1)
  }
  let runs = 41
  let jsonTime = try timing(runs: runs) { _ = try NativeFormat.decode(json) }
  let binaryTime = try timing(runs: runs) { _ = try BinaryFormat.decode(binary) }
  let sizeRatio = Double(json.count) / Double(binary.count)
  let speedRatio = jsonTime.median / binaryTime.median
  worstSize = min(worstSize, sizeRatio)
  worstSpeed = min(worstSpeed, speedRatio)
  totalJSON += json.count
  totalBinary += binary.count
  totalJSONTime += jsonTime.median
  totalBinaryTime += binaryTime.median
  let name = String(path.split(separator: "/").last ?? "")
  print(
    pad(name, 40), pad(String(json.count), 8), pad(String(binary.count), 8), pad(fixed(sizeRatio), 6),
    pad("\(fixed(jsonTime.median)) (\(fixed(jsonTime.low))–\(fixed(jsonTime.high)))", 25),
    pad("\(fixed(binaryTime.median)) (\(fixed(binaryTime.low))–\(fixed(binaryTime.high)))", 22),
    fixed(speedRatio))
}
let totalSize = Double(totalJSON) / Double(max(totalBinary, 1))
let totalSpeed = totalJSONTime / max(totalBinaryTime, 1e-9)
print(
  "total: json \(totalJSON) B, binary \(totalBinary) B, \(fixed(totalSize))× smaller; load \(fixed(totalSpeed))× faster;",
  "worst document \(fixed(worstSize))× smaller, \(fixed(worstSpeed))× faster")
var peak = rusage()
getrusage(RUSAGE_SELF.rawValue, &peak)
print("peak resident memory: \(peak.ru_maxrss / 1024) MiB")
// Load speed is judged on the whole set: the smallest documents (a few hundred bytes) are dominated
// by fixed costs and scheduler noise on a shared machine.
let passed = worstSize >= 5 && totalSpeed >= 10
print(
  passed ? "requirements met (every document >= 5× smaller, the set >= 10× faster)" : "REQUIREMENTS NOT MET")
exit(passed ? 0 : 1)
