// The paint stages that run a vector of pixels at a time, written once over clang vector types of
// PAINT_LANES floats and included by inks.c (4 lanes: SSE2 on x86-64, NEON on arm64, both always
// there) and inks_avx2.c (8 lanes, compiled for AVX2 function by function and used when the
// selected level is avx2 or avx512), each of which first defines:
//   PAINT_LANES          4 or 8
//   PAINT_KERNEL(name)   the level's name for an entry point, e.g. inkwell_avx2_##name
//   PAINT_LINKAGE        the entry points' linkage (static, or INKWELL_HIDDEN for another file)
//
// Every lane does its scalar twin's operations (Sources/InkwellRender/Paint/PaintReference.swift)
// in their order (no contraction in these files), so the floats are the same at every width.

#include "InkwellKernels.h"

#include <math.h>
#include <stdint.h>

#pragma clang fp contract(off)

#define T INKWELL_TILE

// PAINT_LANES floats, and a comparison's mask (all ones or all zeros a lane), shared by both
// stages.
typedef float paint_lanes __attribute__((vector_size(PAINT_LANES * 4)));
typedef int32_t paint_mask __attribute__((vector_size(PAINT_LANES * 4)));

static inline paint_lanes paint_splat(float v) { return (paint_lanes){0} + v; }

static inline paint_lanes paint_select(paint_mask mask, paint_lanes a, paint_lanes b) {
  return (paint_lanes)((mask & (paint_mask)a) | (~mask & (paint_mask)b));
}

// Lane k's pixel-center coordinate (float)(first + k) + 0.5, as the scalar loop converts it.
static inline paint_lanes paint_centers(int first) {
#if PAINT_LANES == 8
  const paint_mask lane = {0, 1, 2, 3, 4, 5, 6, 7};
#else
  const paint_mask lane = {0, 1, 2, 3};
#endif
  return __builtin_convertvector(lane + first, paint_lanes) + paint_splat(0.5f);
}

// Grain runs PAINT_LANES rows of a column at a time, each lane doing the operations of its scalar
// twin (`PaintReference.grain`) in their order: the same floats, for every pixel whose coverage is
// above 0; the others keep theirs. Two value noises of four hashes each, a pixel at a time, had
// been about a third of a watercolor thumbnail's instructions; at 8 lanes (AVX2) the hash's 32-bit
// multiplies take one instruction each, where SSE2 has none.
// Lattice coordinates are clamped to ±10⁹, so that the conversion to int32 is always defined; the
// floor is the truncation, one lower where that lies above: `floorf` on the clamped range, where
// every float of 2^23 or more is whole (it can differ in the sign of a zero, which no weight or
// lattice index sees).
typedef uint32_t grain_words __attribute__((vector_size(PAINT_LANES * 4)));

static inline paint_lanes grain_clamp01(paint_lanes v) {
  paint_lanes zero = paint_splat(0.0f), one = paint_splat(1.0f);
  return paint_select(v < zero, zero, paint_select(v > one, one, v));
}

static inline grain_words grain_hash_lanes(paint_mask x, paint_mask y, uint32_t seed) {
  grain_words h = ((grain_words){0} + seed) * 0x9E3779B9u;
  h ^= (grain_words)x * 0x85EBCA6Bu;
  h ^= (grain_words)y * 0xC2B2AE35u;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

static inline paint_lanes grain_lattice_floor(paint_lanes u) {
  paint_lanes low = paint_splat(-1.0e9f), high = paint_splat(1.0e9f);
  paint_lanes c = paint_select(u < low, low, paint_select(u > high, high, u));
  paint_lanes t = __builtin_convertvector(__builtin_convertvector(c, paint_mask), paint_lanes);
  return paint_select(t > c, t - paint_splat(1.0f), t);
}

static inline paint_lanes grain_noise_lanes(paint_lanes u, paint_lanes v, uint32_t seed) {
  paint_lanes fu = grain_lattice_floor(u);
  paint_lanes fv = grain_lattice_floor(v);
  paint_mask iu = __builtin_convertvector(fu, paint_mask);
  paint_mask iv = __builtin_convertvector(fv, paint_mask);
  paint_lanes tu = grain_clamp01(u - fu);
  paint_lanes tv = grain_clamp01(v - fv);
  paint_lanes su = tu * tu * (paint_splat(3.0f) - paint_splat(2.0f) * tu);
  paint_lanes sv = tv * tv * (paint_splat(3.0f) - paint_splat(2.0f) * tv);
  const paint_lanes scale = paint_splat(1.0f / 16777216.0f);
  paint_mask one = (paint_mask){0} + 1;
  // Below 2^24 after the shift: the conversion through int32 is exact.
  paint_lanes n00 = __builtin_convertvector((paint_mask)(grain_hash_lanes(iu, iv, seed) >> 8), paint_lanes) * scale;
  paint_lanes n10 =
      __builtin_convertvector((paint_mask)(grain_hash_lanes(iu + one, iv, seed) >> 8), paint_lanes) * scale;
  paint_lanes n01 =
      __builtin_convertvector((paint_mask)(grain_hash_lanes(iu, iv + one, seed) >> 8), paint_lanes) * scale;
  paint_lanes n11 =
      __builtin_convertvector((paint_mask)(grain_hash_lanes(iu + one, iv + one, seed) >> 8), paint_lanes) * scale;
  paint_lanes top = n00 + (n10 - n00) * su;
  paint_lanes bottom = n01 + (n11 - n01) * su;
  return top + (bottom - top) * sv;
}

PAINT_LINKAGE void PAINT_KERNEL(paint_grain)(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]) {
  const float bite = params[0], depth = params[1], octave = params[2], weight = params[3],
              contrast = params[4], gain = params[5];
  const uint32_t seed2 = seed ^ 0x5BD1E995u;
  const paint_lanes zero = paint_splat(0.0f), one = paint_splat(1.0f);
  for (int x = 0; x < T; x++) {
    float px = (float)(x0 + x) + 0.5f;
    for (int y = 0; y < T; y += PAINT_LANES) {
      float *cell = coverage + x * T + y;
      paint_lanes mk;
      __builtin_memcpy(&mk, cell, sizeof mk);
      paint_mask keep = mk <= zero;
      if (__builtin_reduce_and(keep)) continue;
      // (float)(y0 + y + k) + 0.5f for each lane k, as the scalar loop converts each row.
      paint_lanes py = paint_centers(y0 + y);
      paint_lanes u = paint_splat(m[0] * px) + paint_splat(m[2]) * py + paint_splat(m[4]);
      paint_lanes v = paint_splat(m[1] * px) + paint_splat(m[3]) * py + paint_splat(m[5]);
      paint_lanes n1 = grain_noise_lanes(u, v, seed);
      paint_lanes n2 = grain_noise_lanes(u * paint_splat(octave) + paint_splat(17.31f),
                                         v * paint_splat(octave) + paint_splat(5.77f), seed2);
      // n = clamp(½ + (n1·(1 − w) + n2·w − ½)·contrast)
      paint_lanes n = grain_clamp01(paint_splat(0.5f) + (n1 * paint_splat(1.0f - weight) +
                                                         n2 * paint_splat(weight) - paint_splat(0.5f)) *
                                                            paint_splat(contrast));
      // m' = clamp((m − bite·(1 − n))·gain) · (1 − depth·(1 − n)): the bite eats thin coverage
      // at the edges (broken edges) and flecks the interior, the depth shades it (tooth).
      paint_lanes bitten = grain_clamp01((mk - paint_splat(bite) * (one - n)) * paint_splat(gain));
      paint_lanes result = bitten * (one - paint_splat(depth) * (one - n));
      result = paint_select(keep, mk, result);
      __builtin_memcpy(cell, &result, sizeof result);
    }
  }
}

// The alpha profile's nearest-segment search runs PAINT_LANES rows of a column at a time; the
// first nearest wins in every lane, as in the scalar search. A profile's search was most of a
// pencil page's render (59 % of the samples of the mypaint example drawn in pencil at scale 2).

// The value interpolated along the nearest of `count` segments (ax, ay, va, bx, by, vb) to each
// lane's point (qx, qy); the first nearest wins.
static inline __attribute__((always_inline)) paint_lanes nearest_values(const float *segments, int count,
                                                                         paint_lanes qx, paint_lanes qy) {
  paint_lanes best = paint_splat(INFINITY);
  paint_lanes value = paint_splat(count > 0 ? segments[2] : 1.0f);
  for (int k = 0; k < count; k++) {
    const float *s = segments + 6 * k;
    float dx = s[3] - s[0];
    float dy = s[4] - s[1];
    float len2 = dx * dx + dy * dy;
    paint_lanes t = paint_splat(0.0f);
    if (len2 > 0.0f) {
      t = ((qx - paint_splat(s[0])) * paint_splat(dx) + (qy - paint_splat(s[1])) * paint_splat(dy)) /
          paint_splat(len2);
    }
    // clamp01, lane by lane (NaN kept, as v < 0 and v > 1 are both false for it).
    t = paint_select(t < paint_splat(0.0f), paint_splat(0.0f),
                       paint_select(t > paint_splat(1.0f), paint_splat(1.0f), t));
    paint_lanes ex = paint_splat(s[0]) + paint_splat(dx) * t - qx;
    paint_lanes ey = paint_splat(s[1]) + paint_splat(dy) * t - qy;
    paint_lanes d2 = ex * ex + ey * ey;
    paint_mask nearer = d2 < best;
    best = paint_select(nearer, d2, best);
    value = paint_select(nearer, paint_splat(s[2]) + paint_splat(s[5] - s[2]) * t, value);
  }
  return value;
}

// A segment with what the search computes from it worked out once: its start and value there,
// its direction, squared length and change of value, each as `nearest_values` computes it.
typedef struct {
  float ax, ay, va, dx, dy, len2, dv, unused;
} profile_segment;

static inline profile_segment prepared_segment(const float *s) {
  float dx = s[3] - s[0];
  float dy = s[4] - s[1];
  return (profile_segment){s[0], s[1], s[2], dx, dy, dx * dx + dy * dy, s[5] - s[2], 0.0f};
}

// `nearest_values` over prepared segments (the same operations on the same floats): a block's
// kept segments are searched by every group of its pixels.
static inline __attribute__((always_inline)) paint_lanes nearest_prepared(const profile_segment *segments,
                                                                           int count, paint_lanes qx,
                                                                           paint_lanes qy) {
  paint_lanes best = paint_splat(INFINITY);
  paint_lanes value = paint_splat(count > 0 ? segments[0].va : 1.0f);
  for (int k = 0; k < count; k++) {
    const profile_segment s = segments[k];
    paint_lanes t = paint_splat(0.0f);
    if (s.len2 > 0.0f) {
      t = ((qx - paint_splat(s.ax)) * paint_splat(s.dx) + (qy - paint_splat(s.ay)) * paint_splat(s.dy)) /
          paint_splat(s.len2);
    }
    t = paint_select(t < paint_splat(0.0f), paint_splat(0.0f),
                       paint_select(t > paint_splat(1.0f), paint_splat(1.0f), t));
    paint_lanes ex = paint_splat(s.ax) + paint_splat(s.dx) * t - qx;
    paint_lanes ey = paint_splat(s.ay) + paint_splat(s.dy) * t - qy;
    paint_lanes d2 = ex * ex + ey * ey;
    paint_mask nearer = d2 < best;
    best = paint_select(nearer, d2, best);
    value = paint_select(nearer, paint_splat(s.va) + paint_splat(s.dv) * t, value);
  }
  return value;
}

// The segments that may be the nearest to some pixel center of the block [px, px + size)² (pixel
// coordinates), prepared in order into `kept`; returns how many. Every center lies within h (half
// the centers' diagonal) of the block's middle c, so a segment's distance to any center is within
// h of its distance d to c: one with d − h beyond the least d + h of the others is farther from
// every center than that one and never wins the search, which keeps the first of equals, so the
// values come out the same. Each distance is widened by 10⁻³ of itself and 10⁻⁵ of the largest
// coordinate, against rounding. The Swift side prunes per tile with corner distances
// (`PaintKernels.keepPossiblyNearest`); within a tile, an 8 × 8 block leaves a pencil's segments
// within 10 px beyond its nearest instead of a tile's diagonal, for one distance a segment.
static int keep_possibly_nearest(const float *segments, int count, float px, float py, float size,
                                 profile_segment *kept, float *distances) {
  const float cx = px + 0.5f * size, cy = py + 0.5f * size;
  const float h = (size - 1.0f) * 0.70710678f * 1.001f;
  const float block_magnitude = fabsf(cx) + fabsf(cy) + size;
  // Each segment's distance to c, PAINT_LANES segments at a time: t is the projection of c onto
  // the segment clamped to it (0 for a segment of no length), the distance |a + t·(b − a) − c|.
  const paint_lanes qx = paint_splat(cx), qy = paint_splat(cy);
  for (int k0 = 0; k0 < count; k0 += PAINT_LANES) {
    paint_lanes ax, ay, bx, by;
    for (int i = 0; i < PAINT_LANES; i++) {
      const float *s = segments + 6 * (k0 + i < count ? k0 + i : count - 1);
      ax[i] = s[0];
      ay[i] = s[1];
      bx[i] = s[3];
      by[i] = s[4];
    }
    paint_lanes dx = bx - ax, dy = by - ay;
    paint_lanes len2 = dx * dx + dy * dy;
    paint_lanes t = ((qx - ax) * dx + (qy - ay) * dy) / len2;
    t = paint_select(t < paint_splat(0.0f), paint_splat(0.0f),
                       paint_select(t > paint_splat(1.0f), paint_splat(1.0f), t));
    t = paint_select(len2 > paint_splat(0.0f), t, paint_splat(0.0f));
    paint_lanes ex = ax + dx * t - qx, ey = ay + dy * t - qy;
    paint_lanes d = __builtin_elementwise_sqrt(ex * ex + ey * ey);
    for (int i = 0; i < PAINT_LANES && k0 + i < count; i++) distances[k0 + i] = d[i];
  }
  float bound = INFINITY;
  for (int k = 0; k < count; k++) {
    const float *s = segments + 6 * k;
    float magnitude = block_magnitude + fabsf(s[0]) + fabsf(s[1]) + fabsf(s[3]) + fabsf(s[4]);
    float farthest = distances[k] * 1.001f + h + magnitude * 1e-5f;
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
    kept[n] = prepared_segment(s);
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
#define FOR_EACH_PROFILED_GROUP(coverage, x0, y0, bx, by, size, search, segments, count, apply)           \
  for (int x = (bx); x < (bx) + (size); x++) {                                                            \
    const paint_lanes qx = paint_splat((float)(x0 + x) + 0.5f);                                           \
    for (int y = (by); y < (by) + (size); y += PAINT_LANES) {                                             \
      float *cell = (coverage) + x * T + y;                                                               \
      paint_lanes m;                                                                                      \
      __builtin_memcpy(&m, cell, sizeof m);                                                               \
      paint_mask covered = ~(m <= paint_splat(0.0f));                                                     \
      if (!__builtin_reduce_or(covered)) continue;                                                        \
      paint_lanes qy = paint_centers(y0 + y);                                                             \
      paint_lanes value = search(segments, count, qx, qy);                                                \
      paint_lanes result = apply;                                                                         \
      m = paint_select(covered, result, m);                                                               \
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
    FOR_EACH_PROFILED_GROUP(coverage, x0, y0, 0, 0, T, nearest_values, segments, count, apply)            \
  } else {                                                                                                \
    profile_segment kept[PROFILE_MANY];                                                                   \
    float distances[PROFILE_MANY];                                                                        \
    for (int bx = 0; bx < T; bx += PROFILE_BLOCK) {                                                       \
      for (int by = 0; by < T; by += PROFILE_BLOCK) {                                                     \
        if (!block_has_coverage(coverage, bx, by)) continue;                                              \
        int n = keep_possibly_nearest(segments, count, (float)(x0 + bx), (float)(y0 + by),                \
                                      (float)PROFILE_BLOCK, kept, distances);                             \
        FOR_EACH_PROFILED_GROUP(coverage, x0, y0, bx, by, PROFILE_BLOCK, nearest_prepared, kept, n, apply) \
      }                                                                                                   \
    }                                                                                                     \
  }

PAINT_LINKAGE void PAINT_KERNEL(paint_profile)(float *coverage, int x0, int y0, const float *segments,
                                               int count) {
  // m' = m · α(nearest point of the stroke's spine)
  FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, m * value)
}

static inline paint_lanes threshold_lanes(paint_lanes m, paint_lanes t) {
  // m' = max(m − t, 0) / (1 − t), with t the threshold at the nearest spine point; t ≥ 1: 0
  paint_lanes d = m - t;
  paint_lanes scaled = d / (paint_splat(1.0f) - t);
  scaled = paint_select(scaled < paint_splat(0.0f), paint_splat(0.0f),
                          paint_select(scaled > paint_splat(1.0f), paint_splat(1.0f), scaled));
  return paint_select((d > paint_splat(0.0f)) & (t < paint_splat(1.0f)), scaled, paint_splat(0.0f));
}

PAINT_LINKAGE void PAINT_KERNEL(paint_threshold_profile)(float *coverage, int x0, int y0,
                                                         const float *segments, int count) {
  FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, threshold_lanes(m, value))
}

#undef T
