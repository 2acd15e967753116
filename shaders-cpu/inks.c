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
// also leaves out, block
// by block, segments that cannot be the nearest, which the twin searches anyway. Grain and the
// profile's search are written once over a vector width (paint_lanes.h), instantiated here at 4
// lanes and in inks_avx2.c at 8; the tests hold every width to the same bits.

#include "kernels_internal.h"

#include <math.h>

#pragma clang fp contract(off)

#define T INKWELL_TILE

static inline float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// The vector paint stages at 4 lanes (paint_lanes.h), the width every build has; the selected
// level picks them or inks_avx2.c's 8 lanes.
#undef T
#define PAINT_LANES 4
#define PAINT_KERNEL(name) inkwell_lanes4_##name
#define PAINT_LINKAGE static
#include "paint_lanes.h"
#define T INKWELL_TILE

// One lane of the grain's 4-lane form: the hash and the noise that `PaintReference` holds the
// grain to.
uint32_t inkwell_grain_hash(int32_t x, int32_t y, uint32_t seed) {
  return grain_hash_lanes((paint_mask){0} + x, (paint_mask){0} + y, seed)[0];
}

float inkwell_value_noise(float u, float v, uint32_t seed) {
  return grain_noise_lanes(paint_splat(u), paint_splat(v), seed)[0];
}

void inkwell_paint_threshold(float *coverage, float threshold, float inverse_span) {
  for (int i = 0; i < INKWELL_TILE_PIXELS; i++) {
    // m' = max(m − t, 0) / (1 − t)
    float d = coverage[i] - threshold;
    coverage[i] = d > 0.0f ? clamp01(d * inverse_span) : 0.0f;
  }
}

static const inkwell_paint_table lanes4_paint = {
    .grain = inkwell_lanes4_paint_grain,
    .profile = inkwell_lanes4_paint_profile,
    .threshold_profile = inkwell_lanes4_paint_threshold_profile,
};

#if defined(__x86_64__)
static const inkwell_paint_table avx2_paint = {
    .grain = inkwell_avx2_paint_grain,
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

void inkwell_paint_grain(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]) {
  inkwell_paint_kernels_for(inkwell_simd_selected())->grain(coverage, x0, y0, m, seed, params);
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
  const paint_lanes one = paint_splat(1.0f);
  const paint_lanes cr = paint_splat(color[0]), cg = paint_splat(color[1]),
                      cb = paint_splat(color[2]), ca = paint_splat(color[3]);
  // Four rows of a column at a time, each lane the scalar formula in its order. Where a group's
  // coverage is all zero, every channel comes back as it was (Sc·0·(1 − Da) + Dc·1 + Sc·0·Dc, with
  // finite colors and a tile free of −0 and NaN, the rasterizer's contract), so the group is
  // skipped: a marker stroke covers a small part of most tiles it reaches, and the whole tile
  // had been a sixth of a marker thumbnail's render.
  for (int i = 0; i < INKWELL_TILE_PIXELS; i += PAINT_LANES) {
    paint_lanes m;
    __builtin_memcpy(&m, coverage + i, sizeof m);
    paint_mask touched = m != paint_splat(0.0f);
    if (!(touched[0] | touched[1] | touched[2] | touched[3])) continue;
    paint_lanes dr, dg, db, da;
    __builtin_memcpy(&dr, r + i, sizeof dr);
    __builtin_memcpy(&dg, g + i, sizeof dg);
    __builtin_memcpy(&db, b + i, sizeof db);
    __builtin_memcpy(&da, a + i, sizeof da);
    paint_lanes sa = ca * m;
    paint_lanes sr = cr * m, sg = cg * m, sb = cb * m;
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
