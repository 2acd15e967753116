// Two versions of the AVX2 8-bit resolves, A and B (see `run`), timed on the same tiles in one
// process: each tile is copied into one scratch buffer (as the rasterizer leaves it in its own),
// then resolved by A and by B, the order alternating from tile to tile and round to round, each
// call between two time-stamp counter reads. Paired this finely, the ratio holds on a machine whose
// speed moves by a third over seconds, where whole renders in turn differ by more than the change
// being measured. Both versions write their own image; the two must be the same bytes.
//
// usage: kernel_ab plain|dithered ROUNDS FILE.tiles  (files from inkwell-bench --dump-tiles)

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

void A_resolve(const float *tile, uint32_t blocks, uint32_t clean, uint8_t *out, intptr_t stride);
void B_resolve(const float *tile, uint32_t blocks, uint32_t clean, uint8_t *out, intptr_t stride);
int A_dithered(const float *tile, const float m[9], float knee, int x, int y, int dither, uint32_t blocks,
               const uint8_t *clean, intptr_t clean_stride, uint8_t *out, intptr_t stride);
int B_dithered(const float *tile, const float m[9], float knee, int x, int y, int dither, uint32_t blocks,
               const uint8_t *clean, intptr_t clean_stride, uint8_t *out, intptr_t stride);

enum { TILE = 32, FLOATS = 4 * TILE * TILE, COLUMNS = 64 };

typedef struct {
  uint32_t blocks;
  int32_t x, y;
} tile_head;

static const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static uint8_t white[TILE * TILE * 4];

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// One call of version `b` (0 for A) on tile `i`, into its image; the cycles it took.
static uint64_t timed(int b, int dithered, const float *tile, const tile_head *head, uint8_t *out,
                      intptr_t stride, int *declined) {
  _mm_lfence();
  const uint64_t start = __rdtsc();
  if (dithered) {
    *declined += (b ? B_dithered : A_dithered)(tile, identity, 1.0f, head->x, head->y, 1, head->blocks, white,
                                               TILE * 4, out, stride);
  } else {
    (b ? B_resolve : A_resolve)(tile, head->blocks, 0xffffffffu, out, stride);
  }
  _mm_lfence();
  return __rdtsc() - start;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "plain") && strcmp(argv[1], "dithered"))) {
    fprintf(stderr, "usage: kernel_ab plain|dithered ROUNDS FILE.tiles\n");
    return 2;
  }
  const int dithered = strcmp(argv[1], "dithered") == 0;
  const int rounds = atoi(argv[2]);
  FILE *file = fopen(argv[3], "rb");
  char magic[8];
  uint32_t count = 0;
  if (!file || fread(magic, 1, 8, file) != 8 || memcmp(magic, "INKTILE1", 8) || fread(&count, 4, 1, file) != 1 ||
      count == 0 || rounds < 1) {
    fprintf(stderr, "kernel_ab: %s is not a tile file with tiles, or ROUNDS is not positive\n", argv[3]);
    return 1;
  }
  float *tiles = malloc((size_t)count * FLOATS * sizeof(float));
  tile_head *heads = malloc(count * sizeof(tile_head));
  for (uint32_t i = 0; i < count; i++) {
    if (fread(&heads[i], sizeof(tile_head), 1, file) != 1 ||
        fread(tiles + (size_t)i * FLOATS, sizeof(float), FLOATS, file) != FLOATS) {
      fprintf(stderr, "kernel_ab: %s ends inside tile %u\n", argv[3], i);
      return 1;
    }
  }
  fclose(file);
  memset(white, 0xff, sizeof white);
  // The tiles side by side, COLUMNS to an image row, each version its own image.
  const intptr_t stride = COLUMNS * TILE * 4;
  const size_t image_bytes = (size_t)stride * TILE * ((count + COLUMNS - 1) / COLUMNS);
  uint8_t *images[2] = {calloc(image_bytes, 1), calloc(image_bytes, 1)};
  float *scratch = aligned_alloc(64, FLOATS * sizeof(float));
  double *cycles[2] = {malloc(rounds * sizeof(double)), malloc(rounds * sizeof(double))};
  double *ratios = malloc(rounds * sizeof(double));
  int declined = 0;
  for (int round = -2; round < rounds; round++) {
    uint64_t sum[2] = {0, 0};
    for (uint32_t i = 0; i < count; i++) {
      memcpy(scratch, tiles + (size_t)i * FLOATS, FLOATS * sizeof(float));
      const size_t at = (size_t)(i / COLUMNS) * TILE * stride + (size_t)(i % COLUMNS) * TILE * 4;
      const int first = (int)((i + (uint32_t)round) & 1);
      sum[first] += timed(first, dithered, scratch, &heads[i], images[first] + at, stride, &declined);
      sum[!first] += timed(!first, dithered, scratch, &heads[i], images[!first] + at, stride, &declined);
    }
    if (round >= 0) {
      cycles[0][round] = (double)sum[0];
      cycles[1][round] = (double)sum[1];
      ratios[round] = (double)sum[0] / (double)sum[1];
    }
  }
  qsort(cycles[0], rounds, sizeof(double), compare);
  qsort(cycles[1], rounds, sizeof(double), compare);
  qsort(ratios, rounds, sizeof(double), compare);
  printf("%s %s: %u tiles, %s; A %.3f M cycles, B %.3f M (medians of %d rounds); A/B %.4f, quartiles "
         "%.4f–%.4f%s\n",
         argv[1], argv[3], count, memcmp(images[0], images[1], image_bytes) ? "IMAGES DIFFER" : "same bytes",
         cycles[0][rounds / 2] / 1e6, cycles[1][rounds / 2] / 1e6, rounds, ratios[rounds / 2], ratios[rounds / 4],
         ratios[3 * rounds / 4], declined ? " (some tiles went over the knee and were left)" : "");
  return memcmp(images[0], images[1], image_bytes) ? 1 : 0;
}
