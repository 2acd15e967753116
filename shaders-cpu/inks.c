// Ink paint kernels: what an ink does to a primitive's coverage before it is composited.
//
// A primitive's coverage m (0…1 per pixel, exact area, after clip and knockout) passes through the
// ink's paint stages in a fixed order, each optional: alpha profile, grain, threshold. The color is
// then composited once through the result with the usual source-over
//   Dc' = Sc·m' + Dc·(1 − Sa·m'),
// so every stage is a map m → m' on the mask and no stage touches color.
//
// Grain is value noise on a lattice in the stroke's own coordinates (before its transform and the
// view), hashed from the lattice point and the stroke's seed: it moves and scales with the drawing
// and never depends on tiles, threads or time. Every function has a scalar Swift twin in
// Sources/InkwellRender/Paint/PaintReference.swift, operation for operation; the profile's search
// (profile_lanes.h, instantiated here at 4 lanes and in inks_avx2.c at 8) also leaves out, block
// by block, segments that cannot be the nearest, which the twin searches anyway, and the tests
// hold every width to the same bits.

#include "kernels_internal.h"

#include <math.h>

#pragma clang fp contract(off)

#define T INKWELL_TILE

static inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// Grain runs four rows of a column at a time, each lane doing the operations of its scalar twin
// (`PaintReference.grain`) in their order (no contraction in this file): the same floats, for
// every pixel whose coverage is above 0; the others keep theirs. Two value noises of four hashes
// each, a pixel at a time, had been about a third of a watercolor thumbnail's instructions.
// Lattice coordinates are clamped to ±10⁹, so that the conversion to int32 is always defined; the
// floor is the truncation, one lower where that lies above: `floorf` on the clamped range, where
// every float of 2^23 or more is whole (it can differ in the sign of a zero, which no weight or
// lattice index sees).
typedef float grain_lanes __attribute__((vector_size(16)));
typedef int32_t grain_ints __attribute__((vector_size(16)));
typedef uint32_t grain_words __attribute__((vector_size(16)));

static inline grain_lanes grain_splat(float v) { return (grain_lanes){v, v, v, v}; }

static inline grain_lanes grain_select(grain_ints mask, grain_lanes a, grain_lanes b) {
  return (grain_lanes)((mask & (grain_ints)a) | (~mask & (grain_ints)b));
}

static inline grain_lanes grain_clamp01(grain_lanes v) {
  grain_lanes zero = grain_splat(0.0f), one = grain_splat(1.0f);
  return grain_select(v < zero, zero, grain_select(v > one, one, v));
}

static inline grain_words grain_hash_lanes(grain_ints x, grain_ints y, uint32_t seed) {
  grain_words h = (grain_words){seed, seed, seed, seed} * 0x9E3779B9u;
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
  grain_ints one = (grain_ints){1, 1, 1, 1};
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

// One lane of the above: the hash and the noise that `PaintReference` holds the grain to.
uint32_t inkwell_grain_hash(int32_t x, int32_t y, uint32_t seed) {
  return grain_hash_lanes((grain_ints){x, x, x, x}, (grain_ints){y, y, y, y}, seed)[0];
}

float inkwell_value_noise(float u, float v, uint32_t seed) {
  return grain_noise_lanes(grain_splat(u), grain_splat(v), seed)[0];
}

void inkwell_paint_grain(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]) {
  const float bite = params[0], depth = params[1], octave = params[2], weight = params[3],
              contrast = params[4], gain = params[5];
  const uint32_t seed2 = seed ^ 0x5BD1E995u;
  const grain_lanes zero = grain_splat(0.0f), one = grain_splat(1.0f);
  for (int x = 0; x < T; x++) {
    float px = (float)(x0 + x) + 0.5f;
    for (int y = 0; y < T; y += 4) {
      float *cell = coverage + x * T + y;
      grain_lanes mk;
      __builtin_memcpy(&mk, cell, sizeof mk);
      grain_ints keep = mk <= zero;
      if (keep[0] & keep[1] & keep[2] & keep[3]) continue;
      // (float)(y0 + y + k) + 0.5f for each lane k, as the scalar loop converts each row.
      grain_lanes py = __builtin_convertvector((grain_ints){y0 + y, y0 + y + 1, y0 + y + 2, y0 + y + 3},
                                               grain_lanes) + grain_splat(0.5f);
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

void inkwell_paint_threshold(float *coverage, float threshold, float inverse_span) {
  for (int i = 0; i < INKWELL_TILE_PIXELS; i++) {
    // m' = max(m − t, 0) / (1 − t)
    float d = coverage[i] - threshold;
    coverage[i] = d > 0.0f ? clamp01(d * inverse_span) : 0.0f;
  }
}

// The profile's search at 4 lanes (profile_lanes.h), the width every build has; the selected level
// picks it or inks_avx2.c's 8 lanes.
#undef T
#define PROFILE_LANES 4
#define PROFILE_KERNEL(name) inkwell_lanes4_##name
#define PROFILE_LINKAGE static
#include "profile_lanes.h"
#define T INKWELL_TILE

static const inkwell_paint_table lanes4_paint = {
    .profile = inkwell_lanes4_paint_profile,
    .threshold_profile = inkwell_lanes4_paint_threshold_profile,
};

#if defined(__x86_64__)
static const inkwell_paint_table avx2_paint = {
    .profile = inkwell_avx2_paint_profile,
    .threshold_profile = inkwell_avx2_paint_threshold_profile,
};
#endif

const inkwell_paint_table *inkwell_paint_kernels_for(inkwell_simd_level level) {
  if (!inkwell_simd_is_available(level)) return NULL;
#if defined(__x86_64__)
  if (level == INKWELL_SIMD_AVX2 || level == INKWELL_SIMD_AVX512) return &avx2_paint;
#endif
  return &lanes4_paint;
}

void inkwell_paint_profile(float *coverage, int x0, int y0, const float *segments, int count) {
  inkwell_paint_kernels_for(inkwell_simd_selected())->profile(coverage, x0, y0, segments, count);
}

void inkwell_paint_threshold_profile(float *coverage, int x0, int y0, const float *segments,
                                     int count) {
  inkwell_paint_kernels_for(inkwell_simd_selected())->threshold_profile(coverage, x0, y0, segments, count);
}

void inkwell_composite_multiply(float *tile, const float *coverage, const float color[4]) {
  float *r = tile, *g = tile + INKWELL_TILE_PIXELS, *b = g + INKWELL_TILE_PIXELS,
        *a = b + INKWELL_TILE_PIXELS;
  const profile_lanes one = profile_splat(1.0f);
  const profile_lanes cr = profile_splat(color[0]), cg = profile_splat(color[1]),
                      cb = profile_splat(color[2]), ca = profile_splat(color[3]);
  // Four rows of a column at a time, each lane the scalar formula in its order. Where a group's
  // coverage is all zero, every channel comes back as it was (Sc·0·(1 − Da) + Dc·1 + Sc·0·Dc, with
  // finite colors and a tile free of −0 and NaN, the rasterizer's contract), so the group is
  // skipped: a marker stroke covers a small part of most tiles it reaches, and the whole tile
  // had been a sixth of a marker thumbnail's render.
  for (int i = 0; i < INKWELL_TILE_PIXELS; i += PROFILE_LANES) {
    profile_lanes m;
    __builtin_memcpy(&m, coverage + i, sizeof m);
    profile_mask touched = m != profile_splat(0.0f);
    if (!(touched[0] | touched[1] | touched[2] | touched[3])) continue;
    profile_lanes dr, dg, db, da;
    __builtin_memcpy(&dr, r + i, sizeof dr);
    __builtin_memcpy(&dg, g + i, sizeof dg);
    __builtin_memcpy(&db, b + i, sizeof db);
    __builtin_memcpy(&da, a + i, sizeof da);
    profile_lanes sa = ca * m;
    profile_lanes sr = cr * m, sg = cg * m, sb = cb * m;
    // Multiply, premultiplied (W3C compositing): Dc' = Sc·(1 − Da) + Dc·(1 − Sa) + Sc·Dc,
    // Da' = Sa + Da·(1 − Sa).
    dr = sr * (one - da) + dr * (one - sa) + sr * dr;
    dg = sg * (one - da) + dg * (one - sa) + sg * dg;
    db = sb * (one - da) + db * (one - sa) + sb * db;
    da = sa + da * (one - sa);
    __builtin_memcpy(r + i, &dr, sizeof dr);
    __builtin_memcpy(g + i, &dg, sizeof dg);
    __builtin_memcpy(b + i, &db, sizeof db);
    __builtin_memcpy(a + i, &da, sizeof da);
  }
}
