// SSE2 kernels: 4 lanes, the x86-64 baseline, so no target attribute. SSE2 has no rounding
// instruction (roundps is SSE4.1); floor goes through truncation. See lanes.h.

#if defined(__x86_64__)

#define LANES 4
#define KERNEL(name) inkwell_sse2_##name
#define LANES_FLOOR 0
#define LANES_RESOLVE 1
#include "lanes.h"

const inkwell_kernel_table inkwell_sse2_kernels = {
    .accumulate_line = inkwell_scalar_accumulate_line,
    .accumulate_lines = inkwell_sse2_accumulate_lines,
    .add_backdrop = inkwell_sse2_add_backdrop,
    .resolve_coverage = inkwell_sse2_resolve_coverage,
    .composite_mask = inkwell_sse2_composite_mask,
    .fill_coverage = inkwell_sse2_fill_coverage,
    .fill_lines = inkwell_sse2_fill_lines,
    .composite_solid = inkwell_sse2_composite_solid,
    .fill_tile = inkwell_sse2_fill_tile,
    .resolve_srgb8 = inkwell_sse2_resolve_srgb8,
    .resolve_srgb8_blocks = inkwell_sse2_resolve_srgb8_blocks,
    .encode_srgb8 = inkwell_sse2_encode_srgb8,
    .resolve_srgb8_dithered = inkwell_sse2_resolve_srgb8_dithered,
};

#endif
