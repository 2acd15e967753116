// The alpha profile's search at 8 lanes (profile_lanes.h), compiled for AVX2 function by function
// and used when the selected level is avx2 or avx512. FMA is not enabled.

#include "kernels_internal.h"

#if defined(__x86_64__)

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

#define PROFILE_LANES 8
#define PROFILE_KERNEL(name) inkwell_avx2_##name
#define PROFILE_LINKAGE INKWELL_HIDDEN
#include "profile_lanes.h"

#pragma clang attribute pop

#endif
