// Mask kernels: combining a fill's coverage with a clip path's and an eraser's. Separate from
// kernels.c because only masked strokes reach them.

#include "InkwellKernels.h"

#pragma clang fp contract(off)

void inkwell_coverage_intersect(float *coverage, const float *clip) {
  // m' = m · c
  for (int i = 0; i < INKWELL_TILE_PIXELS; i++) coverage[i] = coverage[i] * clip[i];
}

void inkwell_coverage_subtract(float *coverage, const float *erased) {
  // m' = m · (1 − e)
  for (int i = 0; i < INKWELL_TILE_PIXELS; i++) coverage[i] = coverage[i] * (1.0f - erased[i]);
}

void inkwell_coverage_fill(float *coverage, float m) {
  for (int i = 0; i < INKWELL_TILE_PIXELS; i++) coverage[i] = m;
}
