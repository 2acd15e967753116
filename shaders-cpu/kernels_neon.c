// NEON kernels: 4 lanes on arm64, where NEON is the baseline (no target attribute) and frintm
// rounds toward −∞. See lanes.h.

#if defined(__aarch64__)

#define LANES 4
#define KERNEL(name) inkwell_neon_##name
#define LANES_FLOOR 1
#define LANES_RESOLVE 1
#include "lanes.h"

const inkwell_kernel_table inkwell_neon_kernels = {
    .accumulate_line = inkwell_scalar_accumulate_line,
    .accumulate_lines = inkwell_neon_accumulate_lines,
    .add_backdrop = inkwell_neon_add_backdrop,
    .resolve_coverage = inkwell_neon_resolve_coverage,
    .composite_mask = inkwell_neon_composite_mask,
    .fill_coverage = inkwell_neon_fill_coverage,
    .fill_lines = inkwell_neon_fill_lines,
    .composite_solid = inkwell_neon_composite_solid,
    .fill_tile = inkwell_neon_fill_tile,
    .resolve_srgb8 = inkwell_neon_resolve_srgb8,
    .resolve_srgb8_blocks = inkwell_neon_resolve_srgb8_blocks,
    .encode_srgb8 = inkwell_neon_encode_srgb8,
    .resolve_srgb8_dithered = inkwell_neon_resolve_srgb8_dithered,
};

#endif
