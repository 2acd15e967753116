// The pen's per-sample geometry in lanes (pen_lanes.h): four here, eight in pen_avx2.c where the
// selected level is avx2 or avx512. Sources/InkwellRender/Build/PenKernels.swift has the design
// and the measurements.
//
// The speeds (PenBrush's `speedScales`): each step's distance over its time and whether it is
// valid and fast, a group of steps at a time, and the running counts in order.
//
// The tip points (StrokePath's `interpolateTipPoints`): each parameter's segment and basis
// weights a group at a time, then each sample's blend of its segment's four control points as one
// eight-float vector, clamped and written as six floats. In Swift the blend's SIMD8 lanes ran as
// two SSE2 halves, about 87 instructions a sample.
//
// The discs (PenBrush's `discs`): each sample's center through the map, its distance from the disc
// before (the spacing test and the arc length's step) and its radius from width, pressure table
// and speed scale, a group of samples at a time; a group in which every sample is kept (nearly
// all) writes its discs, and its arc lengths and opacities are summed in order, one at a time, as
// the Swift loop sums them; any other group goes sample by sample. One sample at a time the loop
// took about 100 instructions a disc, most of them its tests of finiteness and spacing.
//
// The join plan (PenBrush's `outline(ofDiscs:)`): the tangent offsets of every
// capsule between neighbouring discs and, at every disc and on both sides, the one point the join
// appends when it appends one.
//
// Every float operation is the one PenBrush's `tangents`, `Side`, `join` and `crossing` make, in
// the same order (no contraction; comparisons as masks, so a NaN compares as it does there), so
// each lane holds the floats the scalar code computes for its disc, at either width. At four
// lanes of SSE2 a join took about 39 instructions a side, most of them register copies of the
// two-operand forms; eight lanes with three-operand AVX forms take a fraction of that.

#include "kernels_internal.h"

#include <stdatomic.h>

#define PEN_LANES 4
#define PEN_KERNEL(name) inkwell_lanes4_##name
#include "pen_lanes.h"

// One width's kernels, as `inkwell_pen_kernels_for` picks them.
typedef struct {
  void (*plan_joins)(const float *discs, size_t count, float *plan, size_t stride, float arc_tolerance);
  void (*tip_points)(const float *lanes, size_t knots, const float *parameters, size_t count, float *out);
  void (*speeds)(const float *points, size_t n, float steady, float *speeds, int32_t *valid_counts,
                 int32_t *fast_counts);
  void (*discs)(const float *points, const inkwell_pen_disc_params *q, inkwell_pen_disc_run *run, float *arcs,
                float *discs);
} pen_kernels;

static const pen_kernels lanes4_pen = {
    .plan_joins = inkwell_lanes4_pen_plan_joins,
    .tip_points = inkwell_lanes4_pen_tip_points,
    .speeds = inkwell_lanes4_pen_speeds,
    .discs = inkwell_lanes4_pen_discs,
};

#if defined(__x86_64__)
INKWELL_HIDDEN void inkwell_avx2_pen_plan_joins(const float *discs, size_t count, float *plan, size_t stride,
                                                float arc_tolerance);
INKWELL_HIDDEN void inkwell_avx2_pen_tip_points(const float *lanes, size_t knots, const float *parameters,
                                                size_t count, float *out);
INKWELL_HIDDEN void inkwell_avx2_pen_speeds(const float *points, size_t n, float steady, float *speeds,
                                            int32_t *valid_counts, int32_t *fast_counts);
INKWELL_HIDDEN void inkwell_avx2_pen_discs(const float *points, const inkwell_pen_disc_params *q,
                                           inkwell_pen_disc_run *run, float *arcs, float *discs);

static const pen_kernels avx2_pen = {
    .plan_joins = inkwell_avx2_pen_plan_joins,
    .tip_points = inkwell_avx2_pen_tip_points,
    .speeds = inkwell_avx2_pen_speeds,
    .discs = inkwell_avx2_pen_discs,
};
#endif

// Eight lanes for avx2 and avx512, four for the other levels; NULL where `level` cannot run.
static const pen_kernels *pen_kernels_for(inkwell_simd_level level) {
  if (!inkwell_simd_is_available(level)) return NULL;
#if defined(__x86_64__)
  if (level == INKWELL_SIMD_AVX2 || level == INKWELL_SIMD_AVX512) return &avx2_pen;
#endif
  return &lanes4_pen;
}

// The selected level's kernels, looked up once.
static const pen_kernels *selected_pen(void) {
  static const pen_kernels *_Atomic selected = NULL;
  const pen_kernels *kernels = atomic_load_explicit(&selected, memory_order_acquire);
  if (kernels == NULL) {
    kernels = pen_kernels_for(inkwell_simd_selected());
    atomic_store_explicit(&selected, kernels, memory_order_release);
  }
  return kernels;
}

int inkwell_pen_plan_joins_at(inkwell_simd_level level, const float *discs, size_t count, float *plan,
                              size_t stride, float arc_tolerance) {
  const pen_kernels *kernels = pen_kernels_for(level);
  if (kernels == NULL) return 0;
  kernels->plan_joins(discs, count, plan, stride, arc_tolerance);
  return 1;
}

void inkwell_pen_plan_joins(const float *discs, size_t count, float *plan, size_t stride, float arc_tolerance) {
  selected_pen()->plan_joins(discs, count, plan, stride, arc_tolerance);
}

int inkwell_pen_tip_points_at(inkwell_simd_level level, const float *lanes, size_t knots, const float *parameters,
                              size_t count, float *out) {
  const pen_kernels *kernels = pen_kernels_for(level);
  if (kernels == NULL) return 0;
  kernels->tip_points(lanes, knots, parameters, count, out);
  return 1;
}

void inkwell_pen_tip_points(const float *lanes, size_t knots, const float *parameters, size_t count, float *out) {
  selected_pen()->tip_points(lanes, knots, parameters, count, out);
}

int inkwell_pen_speeds_at(inkwell_simd_level level, const float *points, size_t n, float steady, float *speeds,
                          int32_t *valid_counts, int32_t *fast_counts) {
  const pen_kernels *kernels = pen_kernels_for(level);
  if (kernels == NULL) return 0;
  kernels->speeds(points, n, steady, speeds, valid_counts, fast_counts);
  return 1;
}

void inkwell_pen_speeds(const float *points, size_t n, float steady, float *speeds, int32_t *valid_counts,
                        int32_t *fast_counts) {
  selected_pen()->speeds(points, n, steady, speeds, valid_counts, fast_counts);
}

int inkwell_pen_discs_at(inkwell_simd_level level, const float *points, const inkwell_pen_disc_params *params,
                         inkwell_pen_disc_run *run, float *arcs, float *discs) {
  const pen_kernels *kernels = pen_kernels_for(level);
  if (kernels == NULL) return 0;
  kernels->discs(points, params, run, arcs, discs);
  return 1;
}

void inkwell_pen_discs(const float *points, const inkwell_pen_disc_params *params, inkwell_pen_disc_run *run,
                       float *arcs, float *discs) {
  selected_pen()->discs(points, params, run, arcs, discs);
}
