// inks: the contact sheet of every ink, and the golden scenes of each.
//
// The sheet has one row per ink (in InkType order) and four cells per row, left to right:
//   pressure ramp    a gentle wave drawn from force 0 to force 1
//   tilt sweep       a straight line from upright (altitude π/2) to nearly flat (0.2), the pen
//                    pointing down the page (azimuth π/2)
//   direction sweep  a circle: every direction of travel once
//   self-overlap     a looping curve that crosses itself twice
// docs/inks.md shows it and holds its legend.

import Inkwell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inkwell inks -o SHEET.png [--scale S] [--scenes DIR [--sample DOCUMENT]]`.
enum InksCommand {
  static let cellWidth: Float = 160
  static let cellHeight: Float = 90

  /// The sheet's width, color and seed for each ink.
  static func sheetInk(_ type: InkType) -> Ink {
    switch type {
    case .pen: return Ink(type: .pen, color: Color(parsing: "#1a1a2e")!, width: 6)
    case .pencil: return Ink(type: .pencil, color: Color(parsing: "#2b2b2b")!, width: 5)
    case .marker: return Ink(type: .marker, color: Color(parsing: "#ffc400")!, width: 18)
    case .monoline: return Ink(type: .monoline, color: Color(parsing: "#111111")!, width: 4)
    case .fountainPen: return Ink(type: .fountainPen, color: Color(parsing: "#1f3c88")!, width: 9)
    case .watercolor: return Ink(type: .watercolor, color: Color(parsing: "#2a7fd4")!, width: 20)
    case .crayon: return Ink(type: .crayon, color: Color(parsing: "#c8322a")!, width: 10)
    case .reed: return Ink(type: .reed, color: Color(parsing: "#101010")!, width: 12)
    }
  }

  static func point(
    _ x: Float, _ y: Float, t: Float, width: Float, force: Float = 1, azimuth: Float = 0,
    altitude: Float = .pi / 2
  ) -> StrokePoint {
    StrokePoint(
      location: Point(x: x, y: y), timeOffset: t, size: Size(width: width, height: width), force: force,
      azimuth: azimuth, altitude: altitude)
  }

  /// The four cells' strokes for `ink`, with the cell's top-left corner at (x0, y0).
  enum Cell: String, CaseIterable {
    case pressureRamp = "pressure-ramp"
    case tiltSweep = "tilt-sweep"
    case directionSweep = "direction-sweep"
    case selfOverlap = "self-overlap"
    case straight
    case curve
  }

  static func strokes(_ cell: Cell, ink: Ink, x0: Float, y0: Float, seed: UInt32) -> [Stroke] {
    let w = ink.width
    let cx = x0 + cellWidth / 2
    let cy = y0 + cellHeight / 2
    var points: [StrokePoint] = []
    switch cell {
    case .pressureRamp:
      for i in 0...40 {
        let u = Float(i) / 40
        let x = x0 + 18 + u * (cellWidth - 36)
        points.append(
          point(x, cy + 10 * FloatMath.sin(u * 2 * .pi), t: u * 0.8, width: w, force: u))
      }
    case .tiltSweep:
      for i in 0...30 {
        let u = Float(i) / 30
        points.append(
          point(
            x0 + 18 + u * (cellWidth - 36), cy, t: u * 0.6, width: w, force: 0.8, azimuth: .pi / 2,
            altitude: .pi / 2 - u * (.pi / 2 - 0.2)))
      }
    case .directionSweep:
      let r: Float = 30
      for i in 0...48 {
        let a = -Float.pi / 2 + 2 * .pi * Float(i) / 48
        points.append(
          point(
            cx + r * FloatMath.cos(a), cy + r * FloatMath.sin(a), t: Float(i) * 0.02, width: w, force: 0.8))
      }
    case .selfOverlap:
      // A prolate cycloid: two loops, each crossing the path.
      for i in 0...60 {
        let theta = 4 * Float.pi * Float(i) / 60
        let x = cx - 25 + 4 * theta - 18 * FloatMath.sin(theta)
        let y = cy + 22 * FloatMath.cos(theta) - 4
        points.append(point(x, y, t: Float(i) * 0.015, width: w, force: 0.8))
      }
    case .straight:
      for i in 0...6 {
        let u = Float(i) / 6
        points.append(point(x0 + 18 + u * (cellWidth - 36), cy - 15, t: u * 0.4, width: w, force: 0.8))
      }
      var second: [StrokePoint] = []
      for i in 0...6 {
        let u = Float(i) / 6
        second.append(point(x0 + 30 + u * 100, y0 + 60 + u * 18, t: u * 0.4, width: w, force: 0.8))
      }
      return [
        Stroke(ink: ink, path: StrokePath(controlPoints: points), randomSeed: seed),
        Stroke(ink: ink, path: StrokePath(controlPoints: second), randomSeed: seed &+ 1),
      ]
    case .curve:
      for i in 0...40 {
        let u = Float(i) / 40
        let x = x0 + 18 + u * (cellWidth - 36)
        points.append(point(x, cy + 25 * FloatMath.sin(u * 3 * .pi), t: u * 0.8, width: w, force: 0.8))
      }
    }
    return [Stroke(ink: ink, path: StrokePath(controlPoints: points), randomSeed: seed)]
  }

  static let sheetCells: [Cell] = [.pressureRamp, .tiltSweep, .directionSweep, .selfOverlap]

  /// The contact sheet as a document.
  static func sheet() -> Document {
    var strokes: [Stroke] = []
    for (row, type) in InkType.allCases.enumerated() {
      for (column, cell) in sheetCells.enumerated() {
        strokes += Self.strokes(
          cell, ink: sheetInk(type), x0: Float(column) * cellWidth, y0: Float(row) * cellHeight,
          seed: UInt32(row * 16 + column + 1))
      }
    }
    return Document(
      bounds: Rect(
        x: 0, y: 0, width: cellWidth * Float(sheetCells.count),
        height: cellHeight * Float(InkType.allCases.count)),
      drawing: Drawing(strokes: strokes))
  }

  /// One golden scene: `cell` drawn with `type`'s sheet ink on a single cell.
  static func scene(_ cell: Cell, type: InkType) -> Document {
    Document(
      bounds: Rect(x: 0, y: 0, width: cellWidth, height: cellHeight),
      drawing: Drawing(strokes: strokes(cell, ink: sheetInk(type), x0: 0, y0: 0, seed: 7)))
  }

  static func run(_ arguments: [String]) throws {
    var output: String?
    var scenes: String?
    var sample: String?
    var scale: Double = 1
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-o", "--output":
        output = remaining.popFirst()
        if output == nil { throw usageError("-o needs a value") }
      case "--scale":
        guard let text = remaining.popFirst(), let s = Double(text), s.isFinite, s > 0 else {
          throw usageError("--scale expects a positive number")
        }
        scale = s
      case "--scenes":
        scenes = remaining.popFirst()
        if scenes == nil { throw usageError("--scenes needs a directory") }
      case "--sample":
        sample = remaining.popFirst()
        if sample == nil { throw usageError("--sample needs a document") }
      default:
        throw usageError("unknown argument '\(argument)'")
      }
    }
    guard output != nil || scenes != nil else { throw usageError("missing -o SHEET.png") }
    if let output {
      let image = try sheet().render(RenderOptions(sizing: .scale(scale)))
      try FileIO.write(try image.pngData(), to: output)
    }
    if let scenes {
      let handwriting = try sample.map { try NativeFormat.decode(FileIO.read($0)) }
      for type in InkType.allCases {
        for cell in Cell.allCases {
          let bytes = try NativeFormat.encode(scene(cell, type: type))
          try makeDirectory("\(scenes)/\(suite(type))")
          try FileIO.write(bytes, to: "\(scenes)/\(suite(type))/\(cell.rawValue).inkwell.json")
        }
        if let handwriting {
          let ink = sheetInk(type)
          let document = RenderCommand.reinked(
            handwriting, type: type, color: ink.color, width: handwritingWidth(type))
          try FileIO.write(
            try NativeFormat.encode(document), to: "\(scenes)/\(suite(type))/handwriting.inkwell.json")
        }
      }
      try FileIO.write(
        try NativeFormat.encode(markerOverTextScene()), to: "\(scenes)/ink-marker/over-text.inkwell.json")
      try makeDirectory("\(scenes)/ink-stamp")
      try FileIO.write(
        try NativeFormat.encode(stampScene()), to: "\(scenes)/ink-stamp/roll-sweep.inkwell.json")
    }
  }

  /// The golden suite of an ink: `ink-` and its name in kebab case.
  static func suite(_ type: InkType) -> String {
    "ink-" + type.rawValue.flatMap { $0.isUppercase ? ["-"] + $0.lowercased() : [$0] }
  }

  /// The width each ink re-inks the handwriting sample with (it was recorded at 2).
  static func handwritingWidth(_ type: InkType) -> Float {
    switch type {
    case .pen: return 2
    case .pencil: return 2.5
    case .marker: return 10
    case .monoline: return 1.5
    case .fountainPen: return 3.5
    case .watercolor: return 8
    case .crayon: return 4
    case .reed: return 4
    }
  }

  /// The marker over "text" (pen scribbles) on the light page and on a dark panel (a wide
  /// monoline stroke): one highlight across each, a second across the first on the right.
  static func markerOverTextScene() -> Document {
    func scribble(_ x0: Float, _ y: Float, color: Color) -> Stroke {
      let points = (0...24).map { i -> StrokePoint in
        let u = Float(i) / 24
        return point(
          x0 + u * 110, y + 5 * FloatMath.sin(u * 9 * .pi) - 2 * FloatMath.cos(u * 23), t: u * 0.5,
          width: 2.2,
          force: 0.8)
      }
      return Stroke(ink: Ink(type: .pen, color: color, width: 2.2), path: StrokePath(controlPoints: points))
    }
    func straight(
      _ type: InkType, _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, color: Color, width: Float
    )
      -> Stroke
    {
      let points = (0...8).map { i -> StrokePoint in
        let u = Float(i) / 8
        return point(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u, t: u * 0.4, width: width)
      }
      return Stroke(ink: Ink(type: type, color: color, width: width), path: StrokePath(controlPoints: points))
    }
    let marker = Color(parsing: "#ffd900")!
    return Document(
      bounds: Rect(x: 0, y: 0, width: 280, height: 100),
      drawing: Drawing(strokes: [
        scribble(15, 35, color: .black), scribble(15, 68, color: .black),
        straight(.monoline, 170, 50, 250, 50, color: Color(parsing: "#1f1f24")!, width: 90),
        scribble(150, 35, color: .white), scribble(150, 68, color: .white),
        straight(.marker, 10, 35, 130, 35, color: marker, width: 16),
        straight(.marker, 145, 35, 265, 35, color: marker, width: 16),
        straight(.marker, 145, 68, 265, 68, color: marker, width: 16),
        straight(.marker, 200, 15, 215, 90, color: marker, width: 16),
      ]))
  }

  /// The stamp example's scene: monoline strokes (the golden harness draws them with StampInk)
  /// whose roll turns a full circle along a line and around a curve.
  static func stampScene() -> Document {
    var line: [StrokePoint] = []
    var curve: [StrokePoint] = []
    for i in 0...20 {
      let u = Float(i) / 20
      var p = point(15 + u * 190, 30, t: u, width: 16)
      p.rollAngle = u * 2 * .pi
      line.append(p)
      var q = point(15 + u * 190, 80 + 18 * FloatMath.sin(u * 2 * .pi), t: u, width: 12)
      q.rollAngle = -u * 4 * .pi
      curve.append(q)
    }
    let ink = Ink(type: .monoline, color: Color(parsing: "#7a2e9e")!, width: 16)
    return Document(
      bounds: Rect(x: 0, y: 0, width: 220, height: 110),
      drawing: Drawing(strokes: [
        Stroke(ink: ink, path: StrokePath(controlPoints: line)),
        Stroke(
          ink: Ink(type: .monoline, color: Color(parsing: "#d0501f")!, width: 12),
          path: StrokePath(controlPoints: curve)),
      ]))
  }

  static func makeDirectory(_ path: String) throws {
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw CommandError(message: "cannot create directory '\(path)'")
    }
  }

  static func usageError(_ message: String) -> CommandError {
    CommandError(message: "inks: \(message)\n\(usage)", status: 2)
  }
}
