// Two versions of an AVX2 kernel, A and B (see `run`), timed on the same inputs in one process,
// each call between two time-stamp counter reads, the order alternating from input to input and
// round to round. Paired this finely, the ratio holds on a machine whose speed moves by a third
// over seconds, where whole renders in turn differ by more than the change being measured.
//
// plain, dithered: the 8-bit resolves. Each tile is copied into one scratch buffer (as the
// rasterizer leaves it in its own) and resolved by both; each version writes its own image, and
// the two must be the same bytes.
// fill: `fill_lines`. Each call's tile is copied into each version's scratch before its call;
// the two tiles, block bits and (zero) cells after the call must be the same.
//
// usage: kernel_ab plain|dithered ROUNDS FILE.tiles    (inkwell-bench --dump-tiles)
//        kernel_ab fill ROUNDS FILE.fills              (inkwell-bench --dump-fills)

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

void A_fill_lines(float *tile, float *cells, const float *lines, size_t count, float backdrop, int rule,
                  const float color[4], uint32_t *blocks);
void B_fill_lines(float *tile, float *cells, const float *lines, size_t count, float backdrop, int rule,
                  const float color[4], uint32_t *blocks);

enum { TILE = 32, FLOATS = 4 * TILE * TILE, COLUMNS = 64, CELLS = 1184 };

typedef struct {
  uint32_t rule;
  float backdrop;
  float color[4];
  uint32_t count;
} fill_head;

typedef struct {
  fill_head head;
  float *tile, *lines;
} fill_call;

static int compare(const void *a, const void *b);

static void report(const char *kernel, const char *path, uint32_t count, const char *what, int same, double *cycles[2],
                   double *ratios, int rounds, const char *note) {
  qsort(cycles[0], rounds, sizeof(double), compare);
  qsort(cycles[1], rounds, sizeof(double), compare);
  qsort(ratios, rounds, sizeof(double), compare);
  printf("%s %s: %u %s, %s; A %.3f M cycles, B %.3f M (medians of %d rounds); A/B %.4f, quartiles %.4f–%.4f%s\n",
         kernel, path, count, what, same ? "same results" : "RESULTS DIFFER", cycles[0][rounds / 2] / 1e6,
         cycles[1][rounds / 2] / 1e6, rounds, ratios[rounds / 2], ratios[rounds / 4], ratios[3 * rounds / 4], note);
}

// `fill`: FILE.fills read whole, then every call by A and by B, ROUNDS times.
static int run_fills(FILE *file, const char *path, int rounds) {
  uint32_t count = 0;
  if (fread(&count, 4, 1, file) != 1 || count == 0) {
    fprintf(stderr, "kernel_ab: %s holds no calls\n", path);
    return 1;
  }
  fill_call *calls = calloc(count, sizeof(fill_call));
  for (uint32_t i = 0; i < count; i++) {
    fill_call *call = &calls[i];
    if (fread(&call->head, sizeof(fill_head), 1, file) != 1 || call->head.count > (1u << 24)) {
      fprintf(stderr, "kernel_ab: %s ends inside call %u\n", path, i);
      return 1;
    }
    call->tile = malloc(FLOATS * sizeof(float));
    call->lines = malloc((4 * (size_t)call->head.count + 1) * sizeof(float));
    if (fread(call->tile, sizeof(float), FLOATS, file) != FLOATS ||
        fread(call->lines, sizeof(float), 4 * (size_t)call->head.count, file) != 4 * (size_t)call->head.count) {
      fprintf(stderr, "kernel_ab: %s ends inside call %u\n", path, i);
      return 1;
    }
  }
  float *tiles[2] = {aligned_alloc(64, FLOATS * sizeof(float)), aligned_alloc(64, FLOATS * sizeof(float))};
  float *cells[2] = {aligned_alloc(64, CELLS * sizeof(float)), aligned_alloc(64, CELLS * sizeof(float))};
  memset(cells[0], 0, CELLS * sizeof(float));
  memset(cells[1], 0, CELLS * sizeof(float));
  double *cycles[2] = {malloc(rounds * sizeof(double)), malloc(rounds * sizeof(double))};
  double *ratios = malloc(rounds * sizeof(double));
  int same = 1;
  for (int round = -2; round < rounds; round++) {
    uint64_t sum[2] = {0, 0};
    for (uint32_t i = 0; i < count; i++) {
      const fill_call *call = &calls[i];
      uint32_t blocks[2] = {0, 0};
      const int first = (int)((i + (uint32_t)round) & 1);
      for (int k = 0; k < 2; k++) {
        const int b = k ? !first : first;
        memcpy(tiles[b], call->tile, FLOATS * sizeof(float));
        _mm_lfence();
        const uint64_t start = __rdtsc();
        (b ? B_fill_lines : A_fill_lines)(tiles[b], cells[b], call->lines, call->head.count, call->head.backdrop,
                                          (int)call->head.rule, call->head.color, &blocks[b]);
        _mm_lfence();
        sum[b] += __rdtsc() - start;
      }
      if (round == -2 && (blocks[0] != blocks[1] || memcmp(tiles[0], tiles[1], FLOATS * sizeof(float)) ||
                          memcmp(cells[0], cells[1], 1088 * sizeof(float)))) {
        same = 0;
      }
    }
    if (round >= 0) {
      cycles[0][round] = (double)sum[0];
      cycles[1][round] = (double)sum[1];
      ratios[round] = (double)sum[0] / (double)sum[1];
    }
  }
  report("fill", path, count, "calls", same, cycles, ratios, rounds, "");
  return same ? 0 : 1;
}

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
  if (argc != 4 || (strcmp(argv[1], "plain") && strcmp(argv[1], "dithered") && strcmp(argv[1], "fill"))) {
    fprintf(stderr, "usage: kernel_ab plain|dithered ROUNDS FILE.tiles, or kernel_ab fill ROUNDS FILE.fills\n");
    return 2;
  }
  const int dithered = strcmp(argv[1], "dithered") == 0;
  const int rounds = atoi(argv[2]);
  FILE *file = fopen(argv[3], "rb");
  char magic[8];
  if (!file || fread(magic, 1, 8, file) != 8 || rounds < 1) {
    fprintf(stderr, "kernel_ab: cannot read %s, or ROUNDS is not positive\n", argv[3]);
    return 1;
  }
  if (strcmp(argv[1], "fill") == 0) {
    if (memcmp(magic, "INKFILL1", 8)) {
      fprintf(stderr, "kernel_ab: %s is not a file of fill_lines calls\n", argv[3]);
      return 1;
    }
    return run_fills(file, argv[3], rounds);
  }
  uint32_t count = 0;
  if (memcmp(magic, "INKTILE1", 8) || fread(&count, 4, 1, file) != 1 || count == 0) {
    fprintf(stderr, "kernel_ab: %s is not a tile file with tiles\n", argv[3]);
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
  const int same = memcmp(images[0], images[1], image_bytes) == 0;
  report(argv[1], argv[3], count, "tiles", same, cycles, ratios, rounds,
         declined ? " (some tiles went over the knee and were left)" : "");
  return same ? 0 : 1;
}
