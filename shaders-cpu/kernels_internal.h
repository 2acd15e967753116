// Shared between the kernel files; not part of the module's interface.

#ifndef INKWELL_KERNELS_INTERNAL_H
#define INKWELL_KERNELS_INTERNAL_H

#include "InkwellKernels.h"

#define INKWELL_HIDDEN __attribute__((visibility("hidden")))

// Linear-light value at which each 8-bit sRGB code begins (index 0 is never compared against).
INKWELL_HIDDEN extern const float inkwell_srgb_threshold[256];

// The coarse index of the vector sRGB encoders. A non-negative float's bit pattern orders like the
// float, so for v in [2^-13, 1) the upper 16 bits (exponent and 7 mantissa bits) name a bucket
// `(bits >> 16) − INKWELL_SRGB8_FIRST_BUCKET` of relative width 2^-7, narrower than the gap between
// any two thresholds there, so a bucket holds at most one threshold. Each entry is
// (code at the bucket start << 17) | (low 16 bits of its threshold, or 0x10000 when it has none),
// and the code of v is that base plus (low 16 bits of v >= the stored low bits). Values are first
// clamped into [2^-13, largest float below 1]: below 2^-13 (and NaN) every code is 0, the first
// threshold being 1.5e-4; at or above the last threshold (0.9955) every code is 255.
#define INKWELL_SRGB8_FIRST_BUCKET (114 << 7)
#define INKWELL_SRGB8_BUCKETS (13 << 7)
#define INKWELL_SRGB8_LOWEST 0x1p-13f
#define INKWELL_SRGB8_HIGHEST 0x1.fffffep-1f
INKWELL_HIDDEN extern const uint32_t inkwell_srgb8_buckets[INKWELL_SRGB8_BUCKETS];

// The dithered 8-bit resolve's tables (resolve.c): the 8 × 8 Bayer ranks, and per dither offset
// (the 64 ranks, then plain rounding) the linear value at which each 8-bit code starts.
INKWELL_HIDDEN extern const uint8_t inkwell_bayer8[64];
INKWELL_HIDDEN const float *inkwell_srgb_dither_starts(void);
// Per dither rank (64 rows of INKWELL_DITHER_BUCKETS), the dithered code as bucket entries of the
// form of inkwell_srgb8_buckets, over [2^-20, 1): a row's start of code 1 comes down to 2.4e-6.
// NULL if some bucket of some row would hold two code starts (then the two-start way is used).
#define INKWELL_DITHER_FIRST_BUCKET 0x3580
#define INKWELL_DITHER_BUCKETS 0x0A00
#define INKWELL_DITHER_LOWEST 0x1p-20f
INKWELL_HIDDEN const uint32_t *inkwell_srgb_dither_buckets(void);

// The scalar kernels (kernels.c); the single-line accumulation is shared by every level, and the
// vector levels hand it the pieces their short-piece path does not take.
INKWELL_HIDDEN void inkwell_scalar_accumulate_line(float *cells, float x0, float y0, float x1,
                                                   float y1);
INKWELL_HIDDEN void inkwell_scalar_accumulate_lines(float *cells, const float *lines, size_t count);
INKWELL_HIDDEN void inkwell_scalar_accumulate_row(float *cells, int row, float xa, float xb, float dy);

// Turns a piece (clamped into the tile) to run downwards, `*dir` −1 when it ran upwards, and
// gives the rows it spans: floor(y0) up to ceil(y1) ≤ INKWELL_TILE, the ceiling taken without a
// library call. The scalar loop and the vector levels' row splitter both start here, so that they
// cut a piece into the same rows with the same floats.
static inline __attribute__((always_inline)) void inkwell_orient_piece(float *x0, float *y0, float *x1,
                                                                       float *y1, float *dir, int *r0,
                                                                       int *r1) {
  *dir = 1.0f;
  if (*y0 > *y1) {
    float t = *y0;
    *y0 = *y1;
    *y1 = t;
    t = *x0;
    *x0 = *x1;
    *x1 = t;
    *dir = -1.0f;
  }
  *r0 = (int)*y0;
  *r1 = (int)*y1;
  if ((float)*r1 < *y1) *r1 += 1;
  if (*r1 > INKWELL_TILE) *r1 = INKWELL_TILE;
}

// Asks for the cache lines of `bytes` bytes of an image row at address `row`, for writing (the
// 8-bit resolve and the one-color tile fill ask a few rows ahead of their stores). The address is
// an integer: it may lie past the image (the last rows, the last tile), and a prefetch never
// faults.
static inline __attribute__((always_inline)) void inkwell_prefetch_row(uintptr_t row, intptr_t bytes) {
  for (intptr_t offset = 0; offset < bytes; offset += 64) {
    __builtin_prefetch((const void *)(row + offset), 1, 3);
  }
  __builtin_prefetch((const void *)(row + bytes - 1), 1, 3);
}

// Each vector level's table, defined in its own file, built only where the architecture has it.
#if defined(__x86_64__)
INKWELL_HIDDEN extern const inkwell_kernel_table inkwell_sse2_kernels;
INKWELL_HIDDEN extern const inkwell_kernel_table inkwell_avx2_kernels;
INKWELL_HIDDEN extern const inkwell_kernel_table inkwell_avx512_kernels;
// Shared by the avx512 table.
INKWELL_HIDDEN void inkwell_avx2_resolve_srgb8(const float *tile, int width, int height, uint8_t *out,
                                               intptr_t out_stride);
INKWELL_HIDDEN void inkwell_avx2_resolve_srgb8_blocks(const float *tile, uint32_t blocks, uint32_t clean_pixel,
                                                     uint8_t *out, intptr_t out_stride);
INKWELL_HIDDEN void inkwell_avx2_encode_srgb8(const float *linear, uint8_t *codes, size_t count);
INKWELL_HIDDEN int inkwell_avx2_resolve_srgb8_dithered(const float *tile, const float matrix[9], float knee,
                                                       int origin_x, int origin_y, int dither, uint32_t blocks,
                                                       const uint8_t *clean, intptr_t clean_stride, uint8_t *out,
                                                       intptr_t out_stride);
// Grain and the alpha profile's search at 8 lanes (inks_avx2.c).
INKWELL_HIDDEN void inkwell_avx2_paint_grain(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                                             const float params[4]);
INKWELL_HIDDEN void inkwell_avx2_paint_profile(float *coverage, int x0, int y0, const float *segments, int count);
INKWELL_HIDDEN void inkwell_avx2_paint_threshold_profile(float *coverage, int x0, int y0, const float *segments,
                                                         int count);
#endif
#if defined(__aarch64__)
INKWELL_HIDDEN extern const inkwell_kernel_table inkwell_neon_kernels;
#endif

#endif
