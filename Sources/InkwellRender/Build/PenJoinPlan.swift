// The pen outline's sides and joins, worked out four discs at a time before the outline is
// walked.
//
// `outline(ofDiscs:)` walks the left sides forward and the right sides back, and at every disc
// joins a side to the next (`join`): nearly always with one point, the outer corner or the inner
// crossing. Taken one join at a time, each join's tangents, sides, cross products and division
// waited on one another and on the chain's appends: on the notes page three quarters of the
// outline's time went to the two walks and a sixth to the tangents. `inkwell_pen_plan_joins`
// (shaders-cpu/pen.c) works out the tangents of every capsule and, for every join on both sides,
// the one point it would append and the crossing's fractions, in lanes, each lane with the scalar
// code's operations in the same order, so the same floats. The walks then append those points and
// keep the chain's `entry`; a join whose points depend on more (an outer arc, a crossing outside
// either side or behind the chain's entry, a sharp inner turn) takes `join`, which computes what
// it always did. `referenceOutline(ofDiscs:)` is the scalar outline the tests compare with.

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
