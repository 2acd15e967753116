// The alpha profile's nearest-segment search, written once over clang vector types of
// PROFILE_LANES floats and included by inks.c (4 lanes: SSE2 on x86-64, NEON on arm64, both always
// there) and inks_avx2.c (8 lanes, compiled for AVX2 function by function and used when the
// selected level is avx2 or avx512), each of which first defines:
//   PROFILE_LANES          4 or 8
//   PROFILE_KERNEL(name)   the level's name for an entry point, e.g. inkwell_avx2_##name
//   PROFILE_LINKAGE        the entry points' linkage (static, or INKWELL_HIDDEN for another file)
//
// The search runs PROFILE_LANES rows of a column at a time: every lane does the scalar search's
// operations in its order (no contraction in these files), so the floats, and the first nearest
// winning, are the same at every width. A profile's search was most of a pencil page's render
// (59 % of the samples of the mypaint example drawn in pencil at scale 2).

#include "InkwellKernels.h"

#include <math.h>
#include <stdint.h>

#pragma clang fp contract(off)

#define T INKWELL_TILE

typedef float profile_lanes __attribute__((vector_size(PROFILE_LANES * 4)));
typedef int32_t profile_mask __attribute__((vector_size(PROFILE_LANES * 4)));

static inline profile_lanes profile_splat(float v) { return (profile_lanes){0} + v; }

static inline profile_lanes profile_select(profile_mask mask, profile_lanes a, profile_lanes b) {
  return (profile_lanes)((mask & (profile_mask)a) | (~mask & (profile_mask)b));
}

// Lane k's pixel-center coordinate (float)(first + k) + 0.5, as the scalar loop converts it.
static inline profile_lanes profile_centers(int first) {
#if PROFILE_LANES == 8
  const profile_mask lane = {0, 1, 2, 3, 4, 5, 6, 7};
#else
  const profile_mask lane = {0, 1, 2, 3};
#endif
  return __builtin_convertvector(lane + first, profile_lanes) + profile_splat(0.5f);
}

static inline float profile_clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// The value interpolated along the nearest of `count` segments (ax, ay, va, bx, by, vb) to each
// lane's point (qx, qy); the first nearest wins.
static inline __attribute__((always_inline)) profile_lanes nearest_values(const float *segments, int count, profile_lanes qx, profile_lanes qy) {
  profile_lanes best = profile_splat(INFINITY);
  profile_lanes value = profile_splat(count > 0 ? segments[2] : 1.0f);
  for (int k = 0; k < count; k++) {
    const float *s = segments + 6 * k;
    float dx = s[3] - s[0];
    float dy = s[4] - s[1];
    float len2 = dx * dx + dy * dy;
    profile_lanes t = profile_splat(0.0f);
    if (len2 > 0.0f) {
      t = ((qx - profile_splat(s[0])) * profile_splat(dx) + (qy - profile_splat(s[1])) * profile_splat(dy)) /
          profile_splat(len2);
    }
    // clamp01, lane by lane (NaN kept, as v < 0 and v > 1 are both false for it).
    t = profile_select(t < profile_splat(0.0f), profile_splat(0.0f),
                       profile_select(t > profile_splat(1.0f), profile_splat(1.0f), t));
    profile_lanes ex = profile_splat(s[0]) + profile_splat(dx) * t - qx;
    profile_lanes ey = profile_splat(s[1]) + profile_splat(dy) * t - qy;
    profile_lanes d2 = ex * ex + ey * ey;
    profile_mask nearer = d2 < best;
    best = profile_select(nearer, d2, best);
    value = profile_select(nearer, profile_splat(s[2]) + profile_splat(s[5] - s[2]) * t, value);
  }
  return value;
}

// Distance from (qx, qy) to the segment from (ax, ay) to (bx, by).
static float distance_to_segment(float qx, float qy, float ax, float ay, float bx, float by) {
  float dx = bx - ax, dy = by - ay;
  float len2 = dx * dx + dy * dy;
  float t = len2 > 0.0f ? profile_clamp01(((qx - ax) * dx + (qy - ay) * dy) / len2) : 0.0f;
  float ex = ax + dx * t - qx, ey = ay + dy * t - qy;
  return sqrtf(ex * ex + ey * ey);
}

// The segments that may be the nearest to some pixel center of the block [px, px + size)² (pixel
// coordinates), copied in order to `kept`; returns how many. Every center lies within h (half
// the centers' diagonal) of the block's middle c, so a segment's distance to any center is within
// h of its distance d to c: one with d − h beyond the least d + h of the others is farther from
// every center than that one and never wins the search, which keeps the first of equals, so the
// values come out the same. Each distance is widened by 10⁻³ of itself and 10⁻⁵ of the largest
// coordinate, against rounding. The Swift side prunes per tile with corner distances
// (`PaintKernels.keepPossiblyNearest`); within a tile, an 8 × 8 block leaves a pencil's segments
// within 10 px beyond its nearest instead of a tile's diagonal, for one distance a segment.
static int keep_possibly_nearest(const float *segments, int count, float px, float py, float size,
                                 float *kept, float *distances) {
  const float cx = px + 0.5f * size, cy = py + 0.5f * size;
  const float h = (size - 1.0f) * 0.70710678f * 1.001f;
  const float block_magnitude = fabsf(cx) + fabsf(cy) + size;
  float bound = INFINITY;
  for (int k = 0; k < count; k++) {
    const float *s = segments + 6 * k;
    float magnitude = block_magnitude + fabsf(s[0]) + fabsf(s[1]) + fabsf(s[3]) + fabsf(s[4]);
    float d = distance_to_segment(cx, cy, s[0], s[1], s[3], s[4]);
    distances[k] = d;
    float farthest = d * 1.001f + h + magnitude * 1e-5f;
    bound = farthest < bound ? farthest : bound;
  }
  int n = 0;
  for (int k = 0; k < count; k++) {
    const float *s = segments + 6 * k;
    float magnitude = block_magnitude + fabsf(s[0]) + fabsf(s[1]) + fabsf(s[3]) + fabsf(s[4]);
    float nearest = distances[k] * 0.999f - h - magnitude * 1e-5f;
    // A distance that is not a number keeps its segment, and so does every one when the bound is
    // not finite. The first is always kept: the search starts from its value, which stands where
    // no distance is below infinity (all overflowing), as in the search over every segment.
    if (k > 0 && nearest > bound) continue;
    __builtin_memcpy(kept + 6 * n, s, 6 * sizeof(float));
    n++;
  }
  return n;
}

// Searched 8 × 8 pixels at a time with the segments that may win there, when a tile has more
// than PROFILE_FEW of them and at most PROFILE_MANY (a stack buffer's worth; more are searched
// whole).
#define PROFILE_BLOCK 8
#define PROFILE_FEW 4
#define PROFILE_MANY 512

// Calls `apply(coverage lanes, values)` for every group of four rows of the block [bx, bx + size)
// × [by, by + size) of the tile in which some pixel's coverage is not at or below 0 (NaN
// included, as the scalar loop's skip), with the profile's value at each of its pixels; pixels at
// or below 0 keep their coverage.
#define FOR_EACH_PROFILED_GROUP(coverage, x0, y0, bx, by, size, segments, count, apply)                  \
  for (int x = (bx); x < (bx) + (size); x++) {                                                            \
    const profile_lanes qx = profile_splat((float)(x0 + x) + 0.5f);                                       \
    for (int y = (by); y < (by) + (size); y += PROFILE_LANES) {                                           \
      float *cell = (coverage) + x * T + y;                                                               \
      profile_lanes m;                                                                                    \
      __builtin_memcpy(&m, cell, sizeof m);                                                               \
      profile_mask covered = ~(m <= profile_splat(0.0f));                                                 \
      if (!__builtin_reduce_or(covered)) continue;                                                        \
      profile_lanes qy = profile_centers(y0 + y);                                                         \
      profile_lanes value = nearest_values(segments, count, qx, qy);                                      \
      profile_lanes result = apply;                                                                       \
      m = profile_select(covered, result, m);                                                             \
      __builtin_memcpy(cell, &m, sizeof m);                                                               \
    }                                                                                                     \
  }

// Whether any pixel of the block has coverage not at or below 0.
static int block_has_coverage(const float *coverage, int bx, int by) {
  for (int x = bx; x < bx + PROFILE_BLOCK; x++) {
    for (int y = by; y < by + PROFILE_BLOCK; y++) {
      if (!(coverage[x * T + y] <= 0.0f)) return 1;
    }
  }
  return 0;
}

// The tile, whole or block by block with each block's own segments.
#define FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, apply)                                 \
  if ((count) <= PROFILE_FEW || (count) > PROFILE_MANY) {                                                 \
    FOR_EACH_PROFILED_GROUP(coverage, x0, y0, 0, 0, T, segments, count, apply)                            \
  } else {                                                                                                \
    float kept[6 * PROFILE_MANY], distances[PROFILE_MANY];                                                \
    for (int bx = 0; bx < T; bx += PROFILE_BLOCK) {                                                       \
      for (int by = 0; by < T; by += PROFILE_BLOCK) {                                                     \
        if (!block_has_coverage(coverage, bx, by)) continue;                                              \
        int n = keep_possibly_nearest(segments, count, (float)(x0 + bx), (float)(y0 + by),                \
                                      (float)PROFILE_BLOCK, kept, distances);                             \
        FOR_EACH_PROFILED_GROUP(coverage, x0, y0, bx, by, PROFILE_BLOCK, kept, n, apply)                  \
      }                                                                                                   \
    }                                                                                                     \
  }

PROFILE_LINKAGE void PROFILE_KERNEL(paint_profile)(float *coverage, int x0, int y0, const float *segments, int count) {
  // m' = m · α(nearest point of the stroke's spine)
  FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, m * value)
}

static inline profile_lanes threshold_lanes(profile_lanes m, profile_lanes t) {
  // m' = max(m − t, 0) / (1 − t), with t the threshold at the nearest spine point; t ≥ 1: 0
  profile_lanes d = m - t;
  profile_lanes scaled = d / (profile_splat(1.0f) - t);
  scaled = profile_select(scaled < profile_splat(0.0f), profile_splat(0.0f),
                          profile_select(scaled > profile_splat(1.0f), profile_splat(1.0f), scaled));
  return profile_select((d > profile_splat(0.0f)) & (t < profile_splat(1.0f)), scaled, profile_splat(0.0f));
}

PROFILE_LINKAGE void PROFILE_KERNEL(paint_threshold_profile)(float *coverage, int x0, int y0, const float *segments,
                                     int count) {
  FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, threshold_lanes(m, value))
}

#undef T
