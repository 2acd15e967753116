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

typedef float profile_lanes __attribute__((vector_size(PAINT_LANES * 4)));
typedef int32_t profile_mask __attribute__((vector_size(PAINT_LANES * 4)));

static inline profile_lanes profile_splat(float v) { return (profile_lanes){0} + v; }

static inline profile_lanes profile_select(profile_mask mask, profile_lanes a, profile_lanes b) {
  return (profile_lanes)((mask & (profile_mask)a) | (~mask & (profile_mask)b));
}

// Lane k's pixel-center coordinate (float)(first + k) + 0.5, as the scalar loop converts it.
static inline profile_lanes paint_centers(int first) {
#if PAINT_LANES == 8
  const profile_mask lane = {0, 1, 2, 3, 4, 5, 6, 7};
#else
  const profile_mask lane = {0, 1, 2, 3};
#endif
  return __builtin_convertvector(lane + first, profile_lanes) + profile_splat(0.5f);
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
typedef float grain_lanes __attribute__((vector_size(PAINT_LANES * 4)));
typedef int32_t grain_ints __attribute__((vector_size(PAINT_LANES * 4)));
typedef uint32_t grain_words __attribute__((vector_size(PAINT_LANES * 4)));

static inline grain_lanes grain_splat(float v) { return (grain_lanes){0} + v; }

static inline grain_lanes grain_select(grain_ints mask, grain_lanes a, grain_lanes b) {
  return (grain_lanes)((mask & (grain_ints)a) | (~mask & (grain_ints)b));
}

static inline grain_lanes grain_clamp01(grain_lanes v) {
  grain_lanes zero = grain_splat(0.0f), one = grain_splat(1.0f);
  return grain_select(v < zero, zero, grain_select(v > one, one, v));
}

static inline grain_words grain_hash_lanes(grain_ints x, grain_ints y, uint32_t seed) {
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

static inline grain_lanes grain_lattice_floor(grain_lanes u) {
  grain_lanes low = grain_splat(-1.0e9f), high = grain_splat(1.0e9f);
  grain_lanes c = grain_select(u < low, low, grain_select(u > high, high, u));
  grain_lanes t = __builtin_convertvector(__builtin_convertvector(c, grain_ints), grain_lanes);
  return grain_select(t > c, t - grain_splat(1.0f), t);
}

static inline grain_lanes grain_noise_lanes(grain_lanes u, grain_lanes v, uint32_t seed) {
  grain_lanes fu = grain_lattice_floor(u);
  grain_lanes fv = grain_lattice_floor(v);
  grain_ints iu = __builtin_convertvector(fu, grain_ints);
  grain_ints iv = __builtin_convertvector(fv, grain_ints);
  grain_lanes tu = grain_clamp01(u - fu);
  grain_lanes tv = grain_clamp01(v - fv);
  grain_lanes su = tu * tu * (grain_splat(3.0f) - grain_splat(2.0f) * tu);
  grain_lanes sv = tv * tv * (grain_splat(3.0f) - grain_splat(2.0f) * tv);
  const grain_lanes scale = grain_splat(1.0f / 16777216.0f);
  grain_ints one = (grain_ints){0} + 1;
  // Below 2^24 after the shift: the conversion through int32 is exact.
  grain_lanes n00 = __builtin_convertvector((grain_ints)(grain_hash_lanes(iu, iv, seed) >> 8), grain_lanes) * scale;
  grain_lanes n10 =
      __builtin_convertvector((grain_ints)(grain_hash_lanes(iu + one, iv, seed) >> 8), grain_lanes) * scale;
  grain_lanes n01 =
      __builtin_convertvector((grain_ints)(grain_hash_lanes(iu, iv + one, seed) >> 8), grain_lanes) * scale;
  grain_lanes n11 =
      __builtin_convertvector((grain_ints)(grain_hash_lanes(iu + one, iv + one, seed) >> 8), grain_lanes) * scale;
  grain_lanes top = n00 + (n10 - n00) * su;
  grain_lanes bottom = n01 + (n11 - n01) * su;
  return top + (bottom - top) * sv;
}

PAINT_LINKAGE void PAINT_KERNEL(paint_grain)(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]) {
  const float bite = params[0], depth = params[1], octave = params[2], weight = params[3],
              contrast = params[4], gain = params[5];
  const uint32_t seed2 = seed ^ 0x5BD1E995u;
  const grain_lanes zero = grain_splat(0.0f), one = grain_splat(1.0f);
  for (int x = 0; x < T; x++) {
    float px = (float)(x0 + x) + 0.5f;
    for (int y = 0; y < T; y += PAINT_LANES) {
      float *cell = coverage + x * T + y;
      grain_lanes mk;
      __builtin_memcpy(&mk, cell, sizeof mk);
      grain_ints keep = mk <= zero;
      if (__builtin_reduce_and(keep)) continue;
      // (float)(y0 + y + k) + 0.5f for each lane k, as the scalar loop converts each row.
      grain_lanes py = paint_centers(y0 + y);
      grain_lanes u = grain_splat(m[0] * px) + grain_splat(m[2]) * py + grain_splat(m[4]);
      grain_lanes v = grain_splat(m[1] * px) + grain_splat(m[3]) * py + grain_splat(m[5]);
      grain_lanes n1 = grain_noise_lanes(u, v, seed);
      grain_lanes n2 = grain_noise_lanes(u * grain_splat(octave) + grain_splat(17.31f),
                                         v * grain_splat(octave) + grain_splat(5.77f), seed2);
      // n = clamp(½ + (n1·(1 − w) + n2·w − ½)·contrast)
      grain_lanes n = grain_clamp01(grain_splat(0.5f) + (n1 * grain_splat(1.0f - weight) +
                                                         n2 * grain_splat(weight) - grain_splat(0.5f)) *
                                                            grain_splat(contrast));
      // m' = clamp((m − bite·(1 − n))·gain) · (1 − depth·(1 − n)): the bite eats thin coverage
      // at the edges (broken edges) and flecks the interior, the depth shades it (tooth).
      grain_lanes bitten = grain_clamp01((mk - grain_splat(bite) * (one - n)) * grain_splat(gain));
      grain_lanes result = bitten * (one - grain_splat(depth) * (one - n));
      result = grain_select(keep, mk, result);
      __builtin_memcpy(cell, &result, sizeof result);
    }
  }
}

// The alpha profile's nearest-segment search runs PAINT_LANES rows of a column at a time; the
// first nearest wins in every lane, as in the scalar search. A profile's search was most of a
// pencil page's render (59 % of the samples of the mypaint example drawn in pencil at scale 2).

// The value interpolated along the nearest of `count` segments (ax, ay, va, bx, by, vb) to each
// lane's point (qx, qy); the first nearest wins.
static inline __attribute__((always_inline)) profile_lanes nearest_values(const float *segments, int count,
                                                                         profile_lanes qx, profile_lanes qy) {
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
static inline __attribute__((always_inline)) profile_lanes nearest_prepared(const profile_segment *segments,
                                                                           int count, profile_lanes qx,
                                                                           profile_lanes qy) {
  profile_lanes best = profile_splat(INFINITY);
  profile_lanes value = profile_splat(count > 0 ? segments[0].va : 1.0f);
  for (int k = 0; k < count; k++) {
    const profile_segment s = segments[k];
    profile_lanes t = profile_splat(0.0f);
    if (s.len2 > 0.0f) {
      t = ((qx - profile_splat(s.ax)) * profile_splat(s.dx) + (qy - profile_splat(s.ay)) * profile_splat(s.dy)) /
          profile_splat(s.len2);
    }
    t = profile_select(t < profile_splat(0.0f), profile_splat(0.0f),
                       profile_select(t > profile_splat(1.0f), profile_splat(1.0f), t));
    profile_lanes ex = profile_splat(s.ax) + profile_splat(s.dx) * t - qx;
    profile_lanes ey = profile_splat(s.ay) + profile_splat(s.dy) * t - qy;
    profile_lanes d2 = ex * ex + ey * ey;
    profile_mask nearer = d2 < best;
    best = profile_select(nearer, d2, best);
    value = profile_select(nearer, profile_splat(s.va) + profile_splat(s.dv) * t, value);
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
  const profile_lanes qx = profile_splat(cx), qy = profile_splat(cy);
  for (int k0 = 0; k0 < count; k0 += PAINT_LANES) {
    profile_lanes ax, ay, bx, by;
    for (int i = 0; i < PAINT_LANES; i++) {
      const float *s = segments + 6 * (k0 + i < count ? k0 + i : count - 1);
      ax[i] = s[0];
      ay[i] = s[1];
      bx[i] = s[3];
      by[i] = s[4];
    }
    profile_lanes dx = bx - ax, dy = by - ay;
    profile_lanes len2 = dx * dx + dy * dy;
    profile_lanes t = ((qx - ax) * dx + (qy - ay) * dy) / len2;
    t = profile_select(t < profile_splat(0.0f), profile_splat(0.0f),
                       profile_select(t > profile_splat(1.0f), profile_splat(1.0f), t));
    t = profile_select(len2 > profile_splat(0.0f), t, profile_splat(0.0f));
    profile_lanes ex = ax + dx * t - qx, ey = ay + dy * t - qy;
    profile_lanes d = __builtin_elementwise_sqrt(ex * ex + ey * ey);
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
#define FOR_EACH_PROFILED_GROUP(coverage, x0, y0, bx, by, size, search, segments, count, apply)          \
  for (int x = (bx); x < (bx) + (size); x++) {                                                            \
    const profile_lanes qx = profile_splat((float)(x0 + x) + 0.5f);                                       \
    for (int y = (by); y < (by) + (size); y += PAINT_LANES) {                                             \
      float *cell = (coverage) + x * T + y;                                                               \
      profile_lanes m;                                                                                    \
      __builtin_memcpy(&m, cell, sizeof m);                                                               \
      profile_mask covered = ~(m <= profile_splat(0.0f));                                                 \
      if (!__builtin_reduce_or(covered)) continue;                                                        \
      profile_lanes qy = paint_centers(y0 + y);                                                           \
      profile_lanes value = search(segments, count, qx, qy);                                              \
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

static inline profile_lanes threshold_lanes(profile_lanes m, profile_lanes t) {
  // m' = max(m − t, 0) / (1 − t), with t the threshold at the nearest spine point; t ≥ 1: 0
  profile_lanes d = m - t;
  profile_lanes scaled = d / (profile_splat(1.0f) - t);
  scaled = profile_select(scaled < profile_splat(0.0f), profile_splat(0.0f),
                          profile_select(scaled > profile_splat(1.0f), profile_splat(1.0f), scaled));
  return profile_select((d > profile_splat(0.0f)) & (t < profile_splat(1.0f)), scaled, profile_splat(0.0f));
}

PAINT_LINKAGE void PAINT_KERNEL(paint_threshold_profile)(float *coverage, int x0, int y0,
                                                         const float *segments, int count) {
  FOR_EACH_PROFILED_BLOCK(coverage, x0, y0, segments, count, threshold_lanes(m, value))
}

#undef T
