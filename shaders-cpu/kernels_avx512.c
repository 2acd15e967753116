// AVX-512 kernels: 16 lanes (avx512f), so a tile column is two vectors, for coverage and
// compositing; the 8-bit resolve and encoder are the AVX2 ones (AVX-512 CPUs all have AVX2, and
// the resolve runs once per tile). Never the default: see include/InkwellKernels.h. See lanes.h.

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)

#define LANES 16
#define KERNEL(name) inkwell_avx512_##name
#define LANES_FLOOR 1
#define LANES_RESOLVE 0
#include "lanes.h"

#pragma clang attribute pop

const inkwell_kernel_table inkwell_avx512_kernels = {
    .accumulate_line = inkwell_scalar_accumulate_line,
    .accumulate_lines = inkwell_avx512_accumulate_lines,
    .add_backdrop = inkwell_avx512_add_backdrop,
    .resolve_coverage = inkwell_avx512_resolve_coverage,
    .composite_mask = inkwell_avx512_composite_mask,
    .fill_coverage = inkwell_avx512_fill_coverage,
    .fill_lines = inkwell_avx512_fill_lines,
    .composite_solid = inkwell_avx512_composite_solid,
    .fill_tile = inkwell_avx512_fill_tile,
    .resolve_srgb8 = inkwell_avx2_resolve_srgb8,
    .resolve_srgb8_blocks = inkwell_avx2_resolve_srgb8_blocks,
    .encode_srgb8 = inkwell_avx2_encode_srgb8,
    .resolve_srgb8_dithered = inkwell_avx2_resolve_srgb8_dithered,
};

#endif
