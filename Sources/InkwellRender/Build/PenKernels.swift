// The pen's per-sample geometry in lanes: the Swift faces of shaders-cpu/pen.c.
//
// A pen stroke is sampled along its spline into tip points, the tip points become discs, and the
// discs' outline is the chain of their capsules' sides and joins. One sample at a time in Swift,
// each stage spent most of its instructions on work that does not depend on the sample before:
// the blends of the spline (SIMD8 lanes split into two SSE2 halves), each disc's tests of
// finiteness and spacing, each join's tangents, sides, cross products and division. pen.c does
// that work four samples at a time, eight at AVX2, each lane with the Swift code's operations in
// its order, so the same floats; what runs in sequence (arc lengths and opacities summed in order,
// the outline's chain) stays in sequence. The Swift code each kernel replaced is kept as its
// reference (`StrokePath.interpolateTipPoints`, `referenceDiscRun`, `referenceOutline`; the
// speeds' is the windowed definition in the tests), and the tests compare them float for float at
// every level. The anchors of the adaptive sampling are counted without a branch (notes: 0.97×
// the build's time, alternating processes).
//
// The outline: `outline(ofDiscs:)` walks the left sides forward and the right sides back, and at
// every disc joins a side to the next (`join`), nearly always with one point, the outer corner or
// the inner crossing. `inkwell_pen_plan_joins` works out the tangents of every capsule and, for
// every join on both sides, that point and the crossing's fractions; the walks keep the chain's
// `entry`, copy runs of planned points, and hand a join whose points depend on more (an outer
// arc, a crossing outside either side or behind the chain's entry, a sharp inner turn; about one
// in a hundred on the notes page) to `join`, which computes what it always did.
//
// Measured on the notes page's build (600 strokes, 38 000 discs; callgrind, a build after a
// warm-up): 25.6 M instructions before the join plan, 22.3 M with it, 19.4 M with the discs too,
// 18.0 M with the tip points, 17.4 M with the speeds (0.68×); the 200 thumbnail pages, mostly
// hairlines, 135.4 → 123.6 M.

import InkwellKernels
import InkwellModel

extension PenBrush {
  /// How one side's join at a disc ends, as the plan has it.
  enum JoinKind: Float {
    /// The outer corner within the arc tolerance: the planned point, and `entry` restarts.
    case corner = 0
    /// The sides' crossing, within both sides: the planned point where it lies at or past the
    /// chain's `entry`, which the fractions say.
    case crossing = 1
    /// Anything else: `join` decides.
    case other = 2
  }

  /// The planned sides and joins of a run of discs: views of a scratch block of
  /// `bytes(discs:)` bytes, in the layout `inkwell_pen_plan_joins` writes.
  struct JoinPlan {
    /// Entries of each array: the discs and the lanes' overrun.
    let stride: Int
    let base: UnsafeMutablePointer<Float>

    /// INKWELL_PEN_PLAN_FLOATS(stride) of the header, in bytes.
    static func bytes(discs count: Int) -> Int {
      (17 * (count + 16) + 16) * MemoryLayout<Float>.stride
    }

    init(scratch: UnsafeMutableRawPointer, discs count: Int) {
      stride = count + 16
      base = scratch.bindMemory(to: Float.self, capacity: 17 * stride + 16)
    }

    /// Capsule `i`'s offset on the left (`side` 0) or the right (1).
    @inline(__always) func offset(_ side: Int, _ i: Int) -> Point {
      Point(x: base[(3 + 2 * side) * stride + i], y: base[(4 + 2 * side) * stride + i])
    }

    /// The crossings' fractions along the previous side and along the next, and the kinds.
    @inline(__always) func along(_ side: Int) -> UnsafeMutablePointer<Float> {
      base + (7 + 3 * side) * stride
    }
    @inline(__always) func alongNext(_ side: Int) -> UnsafeMutablePointer<Float> {
      base + (8 + 3 * side) * stride
    }
    @inline(__always) func kind(_ side: Int) -> UnsafeMutablePointer<Float> { base + (9 + 3 * side) * stride }

    /// The left joins' points, join j's at j.
    var leftPoints: UnsafePointer<Point> {
      UnsafeRawPointer(base + 13 * stride).assumingMemoryBound(to: Point.self)
    }

    /// The right joins' points in the backward walk's order: of `segments` capsules, join j's
    /// at `segments` − 1 − j.
    var rightPoints: UnsafePointer<Point> {
      UnsafeRawPointer(base + 15 * stride + 16).assumingMemoryBound(to: Point.self)
    }
  }

  /// Whether `PenSample` is laid out as the plan reads it: x, y, radius.
  static var discLayoutIsThreeFloats: Bool {
    MemoryLayout<PenSample>.stride == 12 && MemoryLayout<PenSample>.offset(of: \.radius) == 8
      && MemoryLayout<PenSample>.offset(of: \.center) == 0
  }

  /// Fills `plan` for `discs` (at least two, none inside a neighbour), at the selected level or
  /// at `level`, which must be available (the tests run each).
  @inline(__always)
  static func planJoins(
    of discs: UnsafeMutableBufferPointer<PenSample>, into plan: JoinPlan, level: SIMDLevel? = nil
  ) {
    // A disc is its center's x and y and its radius, three floats (`discLayoutIsThreeFloats`).
    let floats = UnsafeRawPointer(discs.baseAddress!).assumingMemoryBound(to: Float.self)
    if let level {
      let planned = inkwell_pen_plan_joins_at(
        level.c, floats, discs.count, plan.base, plan.stride, arcTolerance)
      precondition(planned != 0, "the join plan at \(level), which this machine cannot run")
    } else {
      inkwell_pen_plan_joins(floats, discs.count, plan.base, plan.stride, arcTolerance)
    }
  }
}

extension PenBrush {
  /// `path.interpolateTipPoints(at:into:scratch:)` by `inkwell_pen_tip_points` (the selected
  /// level, or `level`): the same floats, with the same scratch (`tipPointScratchBytes`).
  static func interpolateTipPoints(
    of path: StrokePath, at parameters: UnsafeBufferPointer<Float>,
    into out: UnsafeMutablePointer<StrokePath.TipPoint>,
    scratch: UnsafeMutableRawPointer, level: SIMDLevel? = nil
  ) {
    let n = path.count
    guard n > 1, n < Int(Int32.max), let base = parameters.baseAddress else {
      path.interpolateTipPoints(at: parameters, into: out, scratch: scratch)
      return
    }
    let lanes = scratch.bindMemory(to: SIMD8<Float>.self, capacity: n + 2)
    path.writeTipLanes(into: lanes)
    let floats = UnsafeRawPointer(lanes).assumingMemoryBound(to: Float.self)
    let tips = UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self)
    if let level {
      let ran = inkwell_pen_tip_points_at(level.c, floats, n, base, parameters.count, tips)
      precondition(ran != 0, "the tip points at \(level), which this machine cannot run")
    } else {
      inkwell_pen_tip_points(floats, n, base, parameters.count, tips)
    }
  }
}

extension PenBrush {
  /// The speeds between consecutive `points` and their running counts (`inkwell_pen_speeds`, at
  /// the selected level or `level`): for k < n − 1, `speeds[k]` (0 where the speed is not valid),
  /// and the counts of the valid and of the fast (above `steadySpeed`) speeds among 0…k.
  static func speedRun(
    of points: UnsafeBufferPointer<StrokePath.TipPoint>, speeds: UnsafeMutablePointer<Float>,
    validCounts: UnsafeMutablePointer<Int32>, fastCounts: UnsafeMutablePointer<Int32>, level: SIMDLevel?
  ) {
    guard let base = points.baseAddress else { return }
    let tips = UnsafeRawPointer(base).assumingMemoryBound(to: Float.self)
    if let level {
      let ran = inkwell_pen_speeds_at(
        level.c, tips, points.count, steadySpeed, speeds, validCounts, fastCounts)
      precondition(ran != 0, "the speeds at \(level), which this machine cannot run")
    } else {
      inkwell_pen_speeds(tips, points.count, steadySpeed, speeds, validCounts, fastCounts)
    }
  }
}

extension PenBrush {
  /// Whether `StrokePath.TipPoint` is laid out as `inkwell_pen_discs` reads it: six floats,
  /// location x and y, time, width, force, opacity.
  static var tipPointLayoutIsSixFloats: Bool {
    typealias Tip = StrokePath.TipPoint
    return MemoryLayout<Tip>.stride == 24 && MemoryLayout<Tip>.offset(of: \.location) == 0
      && MemoryLayout<Tip>.offset(of: \.timeOffset) == 8 && MemoryLayout<Tip>.offset(of: \.width) == 12
      && MemoryLayout<Tip>.offset(of: \.force) == 16 && MemoryLayout<Tip>.offset(of: \.opacity) == 20
  }

  /// The discs of `points` before the taper (`inkwell_pen_discs`): how many, the arc length to the
  /// last and the sum of their opacities.
  static func discRun(
    of points: UnsafeBufferPointer<StrokePath.TipPoint>, through m: AffineTransform, scale: Float,
    inkWidth: Float, speedScales: UnsafeMutableBufferPointer<Float>?, arcs: UnsafeMutableBufferPointer<Float>,
    into discs: UnsafeMutableBufferPointer<PenSample>, level: SIMDLevel? = nil
  ) -> (count: Int, arc: Float, opacitySum: Float) {
    guard let base = points.baseAddress, !points.isEmpty else { return (0, 0, 0) }
    var run = inkwell_pen_disc_run()
    pressureTable.withUnsafeBufferPointer { pressure in
      var params = inkwell_pen_disc_params(
        count: points.count, map: (m.a, m.b, m.c, m.d, m.tx, m.ty), scale: scale, ink_width: inkWidth,
        minimum_spacing: sampleSpacing / 3, pressure: pressure.baseAddress!,
        speed_scales: speedScales.map { UnsafePointer($0.baseAddress!) })
      let tips = UnsafeRawPointer(base).assumingMemoryBound(to: Float.self)
      let out = UnsafeMutableRawPointer(discs.baseAddress!).assumingMemoryBound(to: Float.self)
      if let level {
        let ran = inkwell_pen_discs_at(level.c, tips, &params, &run, arcs.baseAddress!, out)
        precondition(ran != 0, "the discs at \(level), which this machine cannot run")
      } else {
        inkwell_pen_discs(tips, &params, &run, arcs.baseAddress!, out)
      }
    }
    return (run.count, run.arc, run.opacity_sum)
  }
}
