// AVX2 kernels: 8 lanes, compiled for AVX2 function by function (no global -mavx2), used only when
// the CPU and the operating system support it. FMA is not enabled: no kernel multiplies and adds
// in one rounding. The sRGB buckets are looked up with vpgatherdd. See lanes.h.

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

#define LANES 8
#define KERNEL(name) inkwell_avx2_##name
#define LANES_FLOOR 1
#define LANES_GATHER_AVX2 1
#define LANES_RESOLVE 1
#include "lanes.h"

#pragma clang attribute pop

const inkwell_kernel_table inkwell_avx2_kernels = {
    .accumulate_line = inkwell_scalar_accumulate_line,
    .accumulate_lines = inkwell_avx2_accumulate_lines,
    .add_backdrop = inkwell_avx2_add_backdrop,
    .resolve_coverage = inkwell_avx2_resolve_coverage,
    .composite_mask = inkwell_avx2_composite_mask,
    .fill_coverage = inkwell_avx2_fill_coverage,
    .fill_lines = inkwell_avx2_fill_lines,
    .composite_solid = inkwell_avx2_composite_solid,
    .fill_tile = inkwell_avx2_fill_tile,
    .resolve_srgb8 = inkwell_avx2_resolve_srgb8,
    .resolve_srgb8_blocks = inkwell_avx2_resolve_srgb8_blocks,
    .encode_srgb8 = inkwell_avx2_encode_srgb8,
    .resolve_srgb8_dithered = inkwell_avx2_resolve_srgb8_dithered,
};

#endif
