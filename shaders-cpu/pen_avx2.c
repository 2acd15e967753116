// The pen outline's join plan at 8 lanes (pen_lanes.h), compiled for AVX2 function by function and
// used when the selected level is avx2 or avx512. FMA is not enabled. See pen.c.

#include "kernels_internal.h"

#if defined(__x86_64__)

#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

#define PEN_LANES 8
#define PEN_GATHER_AVX2 1
#define PEN_KERNEL(name) inkwell_avx2_##name
#include "pen_lanes.h"

#pragma clang attribute pop

#endif
