// The pen outline's join plan (Sources/InkwellRender/Build/PenJoinPlan.swift): the tangent
// offsets of every capsule between neighbouring discs and, at every disc and on both sides, the
// one point the join appends when it appends one, in lanes (pen_lanes.h): four here, eight in
// pen_avx2.c where the selected level is avx2 or avx512.
//
// Every float operation is the one PenBrush's `tangents`, `Side`, `join` and `crossing` make, in
// the same order (no contraction; comparisons as masks, so a NaN compares as it does there), so
// each lane holds the floats the scalar code computes for its disc, at either width. At four
// lanes of SSE2 a join took about 39 instructions a side, most of them register copies of the
// two-operand forms; eight lanes with three-operand AVX forms take a fraction of that.

#include "kernels_internal.h"

#define PEN_LANES 4
#define PEN_KERNEL(name) inkwell_lanes4_##name
#include "pen_lanes.h"

#if defined(__x86_64__)
INKWELL_HIDDEN void inkwell_avx2_pen_plan_joins(const float *discs, size_t count, float *plan, size_t stride,
                                                float arc_tolerance);
#endif

int inkwell_pen_plan_joins_at(inkwell_simd_level level, const float *discs, size_t count, float *plan,
                              size_t stride, float arc_tolerance) {
  if (!inkwell_simd_is_available(level)) return 0;
#if defined(__x86_64__)
  if (level == INKWELL_SIMD_AVX2 || level == INKWELL_SIMD_AVX512) {
    inkwell_avx2_pen_plan_joins(discs, count, plan, stride, arc_tolerance);
    return 1;
  }
#endif
  inkwell_lanes4_pen_plan_joins(discs, count, plan, stride, arc_tolerance);
  return 1;
}

void inkwell_pen_plan_joins(const float *discs, size_t count, float *plan, size_t stride, float arc_tolerance) {
  inkwell_pen_plan_joins_at(inkwell_simd_selected(), discs, count, plan, stride, arc_tolerance);
}
