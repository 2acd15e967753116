// Grain and the alpha profile's search at 8 lanes (paint_lanes.h), compiled for AVX2 function by
// function and used when the selected level is avx2 or avx512. FMA is not enabled; the grain's
// hash multiplies eight 32-bit lanes in one instruction (SSE2 has no such multiply).

#include "kernels_internal.h"

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

#define PAINT_LANES 8
#define PAINT_KERNEL(name) inkwell_avx2_##name
#define PAINT_LINKAGE INKWELL_HIDDEN
#include "paint_lanes.h"

#pragma clang attribute pop

#endif
