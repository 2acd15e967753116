// Inkwell's per-pixel kernels.
//
// The rasterizer works on square tiles of INKWELL_TILE × INKWELL_TILE pixels. For each primitive
// that touches a tile it accumulates exact signed area into a cell buffer, turns the running sum
// into coverage under a fill rule, and composites a premultiplied linear-light color into a planar
// float tile (four planes: red, green, blue, alpha). A finished tile is resolved to 8-bit sRGB.
//
// Every function here has a scalar Swift twin in Sources/InkwellRender/Raster/KernelReference.swift;
// the tests hold the two equal. Floating-point contraction is off in these files so that the
// compiler never fuses a multiply and an add that the reference computes separately.

#ifndef INKWELL_KERNELS_H
#define INKWELL_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Tile side, in pixels.
#define INKWELL_TILE 32
/// Floats between the starts of two rows of the cell buffer: the tile's 32 cells, the cell just
/// past the right edge (a line at x = 32 lands there), and padding to a 32-byte multiple.
#define INKWELL_CELL_STRIDE 40
/// Floats in one plane of a color tile.
#define INKWELL_TILE_PIXELS (INKWELL_TILE * INKWELL_TILE)

typedef enum {
  INKWELL_FILL_NONZERO = 0,
  INKWELL_FILL_EVENODD = 1,
} inkwell_fill_rule;

/// Adds the exact signed area of the line from (x0, y0) to (x1, y1), in tile pixels, to `cells`
/// (rows of INKWELL_CELL_STRIDE floats). A line going down (y increasing) adds positive winding to
/// the pixels on its right. Coordinates are clamped into 0…INKWELL_TILE.
void inkwell_accumulate_line(float *cells, float x0, float y0, float x1, float y1);

/// Adds `winding` to the first cell of each row, so every pixel of the tile starts from it.
void inkwell_add_backdrop(float *cells, float winding);

/// Running sum of each row of `cells` → coverage 0…1 under `rule`, written to `coverage`
/// (INKWELL_TILE_PIXELS floats, row-major). Clears `cells` for the next primitive.
void inkwell_resolve_coverage(float *cells, float *coverage, inkwell_fill_rule rule);

/// Source-over of a premultiplied color through a coverage mask:
///   Dc' = Sc·m + Dc·(1 − Sa·m)   for each plane c of the planar tile, with m the coverage.
void inkwell_composite_mask(float *tile, const float *coverage, const float color[4]);

/// Source-over of a premultiplied color over the whole tile at constant coverage `m`:
///   Dc' = Sc·m + Dc·(1 − Sa·m).
void inkwell_composite_solid(float *tile, const float color[4], float m);

/// Fills every pixel of the planar tile with `color`.
void inkwell_fill_tile(float *tile, const float color[4]);

/// Converts `width` × `height` pixels of the planar tile (premultiplied, linear) to straight-alpha
/// 8-bit sRGB RGBA at `out`, whose rows are `out_stride` bytes apart. Color is unpremultiplied,
/// clamped to 0…1 and rounded to the nearest 8-bit sRGB code; alpha is rounded to 8 bits.
void inkwell_resolve_srgb8(const float *tile, int width, int height, uint8_t *out,
                           intptr_t out_stride);

/// The linear-light threshold at which 8-bit sRGB code `k` begins (k in 1…255): the smallest
/// linear value that rounds to `k`, as a float. Exposed for the reference implementation's tests.
float inkwell_srgb8_threshold(int k);

/// Clips a coverage mask by another: m' = m · c, per pixel.
void inkwell_coverage_intersect(float *coverage, const float *clip);

/// Cuts an erased area out of a coverage mask: m' = m · (1 − e), per pixel.
void inkwell_coverage_subtract(float *coverage, const float *erased);

/// Sets every pixel of a coverage mask to `m`.
void inkwell_coverage_fill(float *coverage, float m);

// Ink paint stages (shaders-cpu/inks.c): maps of a coverage mask m → m' applied before compositing.

/// A 32-bit hash of lattice point (x, y) and `seed`, for grain.
uint32_t inkwell_grain_hash(int32_t x, int32_t y, uint32_t seed);

/// Smooth value noise in 0…1 at (u, v) for `seed`: hashed lattice values blended with smoothstep
/// weights.
float inkwell_value_noise(float u, float v, uint32_t seed);

/// Grain: for the pixel centers of the tile at (x0, y0), (u, v) = m·(x + ½, y + ½) (layout a, b, c,
/// d, tx, ty, mapping pixels to grain cells), with params = {bite, depth, o, w, contrast, gain},
///   n = clamp(½ + (noise(u, v)·(1 − w) + noise(o·u + 17.31, o·v + 5.77)·w − ½)·contrast, 0, 1)
///   m' = clamp((m − bite·(1 − n))·gain, 0, 1) · (1 − depth·(1 − n)).
void inkwell_paint_grain(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]);

/// Threshold: m' = max(m − t, 0) · inverse_span, clamped to 1, with inverse_span = 1 / (1 − t).
void inkwell_paint_threshold(float *coverage, float threshold, float inverse_span);

/// Alpha profile: m' = m · α, where α is interpolated along the nearest of `count` segments
/// (6 floats each: ax, ay, αa, bx, by, αb, pixels) to the pixel center; the first nearest wins.
void inkwell_paint_profile(float *coverage, int x0, int y0, const float *segments, int count);

/// Threshold along the spine: t interpolated along the nearest segment (as for the profile, the
/// values being thresholds), then m' = max(m − t, 0)/(1 − t), clamped to 1; 0 where t ≥ 1.
void inkwell_paint_threshold_profile(float *coverage, int x0, int y0, const float *segments,
                                     int count);

/// Multiply of a premultiplied color through a coverage mask (the marker's blend), with
/// Sc = color·m, Sa = alpha·m:
///   Dc' = Sc·(1 − Da) + Dc·(1 − Sa) + Sc·Dc,   Da' = Sa + Da·(1 − Sa).
void inkwell_composite_multiply(float *tile, const float *coverage, const float color[4]);

#ifdef __cplusplus
}
#endif

#endif
