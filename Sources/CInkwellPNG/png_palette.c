/* The palette of an RGBA8 image: see include/CInkwellPNGBands.h.
 *
 * One pass in raster order. A pixel equal to the one before takes its index without a lookup
 * (paper between strokes: nine pixels in ten of a thumbnail), sixteen pixels a step while they
 * last; any other pixel looks its color up in an open-addressed table of 1024 slots, at most a
 * quarter full, so a lookup rarely probes twice. The 257th color ends the pass. */

#include "CInkwellPNGBands.h"

#include <stdbool.h>
#include <string.h>

enum { PALETTE_SLOTS = 1024, PALETTE_LIMIT = 256, RUN_STEP = 16 };

typedef uint32_t words4 __attribute__((vector_size(16)));

static inline uint32_t slot_of(uint32_t key) { return (key * 0x9E3779B1u) >> 22; }

/* Whether the RUN_STEP pixels at `pixels`, masked, all equal `key`. */
static inline bool run_continues(const uint8_t *pixels, uint32_t mask, uint32_t key) {
  words4 all = (words4){0, 0, 0, 0} == (words4){0, 0, 0, 0};
  for (int k = 0; k < RUN_STEP / 4; k++) {
    words4 w;
    memcpy(&w, pixels + 16 * k, sizeof w);
    all &= (w & mask) == key;
  }
  return (all[0] & all[1] & all[2] & all[3]) != 0;
}

int inkwell_png_index_colors(const uint8_t *rgba, size_t stride, uint32_t width, uint32_t height,
                             int with_alpha, uint8_t *indices, uint8_t *palette) {
  if (rgba == NULL || indices == NULL || palette == NULL || width == 0 || height == 0) return 0;
  /* The alpha byte, wherever it sits in a word, is kept only with alpha. */
  const uint8_t mask_bytes[4] = {0xff, 0xff, 0xff, with_alpha ? 0xff : 0};
  uint32_t mask;
  memcpy(&mask, mask_bytes, sizeof mask);

  uint32_t keys[PALETTE_SLOTS];
  uint8_t entry_of[PALETTE_SLOTS];
  bool used[PALETTE_SLOTS];
  memset(used, 0, sizeof used);
  int count = 0;

  /* The first pixel's color opens the palette, so every later pixel has one before it. */
  uint32_t previous;
  memcpy(&previous, rgba, sizeof previous);
  previous &= mask;
  uint8_t previous_index = 0;
  {
    const uint32_t s = slot_of(previous);
    used[s] = true;
    keys[s] = previous;
    entry_of[s] = 0;
    memcpy(palette, &previous, 4);
    if (!with_alpha) palette[3] = 0xff;
    count = 1;
  }

  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    uint8_t *out = indices + (size_t)y * width;
    for (uint32_t x = 0; x < width;) {
      /* A block of RUN_STEP pixels of the color before takes its index whole; any other block, or
       * the row's last few pixels, goes a pixel at a time. */
      uint32_t end = width - x < RUN_STEP ? width : x + RUN_STEP;
      if (end - x == RUN_STEP && run_continues(row + 4 * (size_t)x, mask, previous)) {
        memset(out + x, previous_index, RUN_STEP);
        x = end;
        continue;
      }
      for (; x < end; x++) {
        uint32_t key;
        memcpy(&key, row + 4 * (size_t)x, sizeof key);
        key &= mask;
        if (key != previous) {
          uint32_t s = slot_of(key);
          while (used[s] && keys[s] != key) s = (s + 1) & (PALETTE_SLOTS - 1);
          if (!used[s]) {
            if (count == PALETTE_LIMIT) return 0;
            used[s] = true;
            keys[s] = key;
            entry_of[s] = (uint8_t)count;
            memcpy(palette + 4 * count, &key, 4);
            if (!with_alpha) palette[4 * count + 3] = 0xff;
            count++;
          }
          previous = key;
          previous_index = entry_of[s];
        }
        out[x] = previous_index;
      }
    }
  }
  return count;
}
