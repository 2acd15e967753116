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


// ---- Resolve (resolve.c): finished float tiles → output samples ---------------------------------
//
// A resolve takes the planar premultiplied tile (linear light, sRGB primaries, values above 1
// kept), converts it to the output's primaries with a 3 × 3 matrix, unpremultiplies, tone maps the
// color to the output's headroom on its largest channel (so channel ratios, and with them hue, are
// kept), rolls compressed colors toward white by how much they were compressed, applies the
// output's transfer function and quantizes. Scalar twins: Sources/InkwellRender/Resolve/
// ResolveReference.swift.

typedef enum {
  /// Content fits the headroom: nothing changes (a final guard still scales any pixel above the
  /// headroom down to it, on its largest channel).
  INKWELL_TONE_NONE = 0,
  /// Largest channel limited to the headroom; no roll toward white.
  INKWELL_TONE_CLIP = 1,
  /// Extended Reinhard above the knee, reaching the headroom exactly at the content's peak.
  INKWELL_TONE_REINHARD = 2,
  /// The BT.2390 EETF (Hermite spline in PQ) above its knee.
  INKWELL_TONE_BT2390 = 3,
} inkwell_tone_curve;

typedef enum {
  INKWELL_TRANSFER_SRGB = 0,
  /// SMPTE ST 2084 / BT.2100 PQ, with 1.0 linear = `sdr_white_nits`.
  INKWELL_TRANSFER_PQ = 1,
  /// BT.2100 HLG with the reference OOTF for a display of `hlg_peak_nits` (γ = 1.2 at 1000 nits).
  INKWELL_TRANSFER_HLG = 2,
  /// No transfer: linear light.
  INKWELL_TRANSFER_LINEAR = 3,
} inkwell_transfer;

/// Everything a resolve needs, precomputed once per render (see ToneMapping.swift).
typedef struct {
  /// Linear sRGB primaries → output primaries, row-major.
  float matrix[9];
  int curve;   // inkwell_tone_curve
  float peak;  // E: content peak, linear (1 = SDR white)
  float headroom; // H: output peak, linear
  float knee;  // largest channels at or below this pass through unchanged
  /// Reinhard: white point of the normalized curve, W = (E − knee) / (H − knee).
  float reinhard_white;
  /// BT.2390, normalized to the source peak in PQ: knee start, target peak, spline tangent scale,
  /// and PQ code of the source peak (absolute).
  float eetf_knee, eetf_target, eetf_tangent, eetf_source_pq;
  /// How far a compressed color rolls toward white: t = path_to_white · (1 − m'/m).
  float path_to_white;
  int transfer;  // inkwell_transfer
  float sdr_white_nits; // PQ and HLG: nits of linear 1.0 (203, BT.2408)
  float hlg_peak_nits;  // HLG nominal peak (1000)
  /// Luminance weights of the output primaries (HLG's OOTF).
  float luma[3];
} inkwell_resolve_params;

/// Tone maps one unpremultiplied linear color (output primaries) in place.
void inkwell_tone_map(const inkwell_resolve_params *params, float rgb[3]);

/// The output transfer function: linear (1 = SDR white) → signal 0…1 (sRGB, PQ, HLG) or linear.
/// HLG takes all three channels (its OOTF mixes them).
void inkwell_transfer_encode(const inkwell_resolve_params *params, float rgb[3]);

/// The inverse of `inkwell_transfer_encode`: signal → linear (1 = SDR white).
void inkwell_transfer_decode(const inkwell_resolve_params *params, float rgb[3]);

/// Resolves `width` × `height` pixels of a planar tile to straight-alpha RGBA float, tone mapped
/// and in the output primaries, still linear (no transfer); rows `out_stride` floats apart.
void inkwell_resolve_f32(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, float *out, intptr_t out_stride);

/// Like `inkwell_resolve_f32`, but premultiplied (for OpenEXR).
void inkwell_resolve_premultiplied_f32(const float *tile, int width, int height,
                                       const inkwell_resolve_params *params, float *out,
                                       intptr_t out_stride);

/// Resolves to straight-alpha RGBA 16-bit samples through the transfer function: each signal
/// clamped to 0…1 and rounded to the nearest of 65 535 steps; rows `out_stride` samples apart.
void inkwell_resolve_u16(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, uint16_t *out, intptr_t out_stride);

/// Resolves to straight-alpha RGBA 8-bit samples through the transfer function. With `dither`
/// nonzero, an 8 × 8 ordered (Bayer) threshold taken from the pixel's position on the canvas
/// (`origin_x` + x, `origin_y` + y) replaces the rounding offset 0.5, so a smooth ramp becomes a
/// fine pattern of neighboring codes instead of bands; signals that are exact codes do not move.
/// Alpha is rounded, never dithered.
void inkwell_resolve_u8(const float *tile, int width, int height, int origin_x, int origin_y,
                        int dither, const inkwell_resolve_params *params, uint8_t *out,
                        intptr_t out_stride);

/// The ordered-dither offset at canvas position (x, y): (rank + 0.5) / 64, in (0, 1).
float inkwell_dither_offset(int x, int y);

#ifdef __cplusplus
}
#endif

#endif
