/* Band-parallel PNG image data: see include/CInkwellPNGBands.h. */

#include "CInkwellPNGBands.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static inline int paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/* RGBA to RGB, sixteen pixels (64 bytes in, 48 out) a step: each output vector takes the color
 * bytes of its input vectors by a shuffle, which x86-64 has from SSSE3 on (checked at run time)
 * and arm64 always has. Returns how many pixels it packed, a multiple of sixteen. The word loop
 * below took about 7.5 instructions a pixel, a seventh of an opaque thumbnail's encode; the
 * shuffles take under two. */
typedef uint8_t bytes16 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) uint32_t pack_rgb_sixteen(const uint8_t *in, uint8_t *out,
                                                                      uint32_t width) {
  uint32_t x = 0;
  for (; x + 16 <= width; x += 16) {
    bytes16 a, b, c, d;
    memcpy(&a, in + 4 * x, 16);
    memcpy(&b, in + 4 * x + 16, 16);
    memcpy(&c, in + 4 * x + 32, 16);
    memcpy(&d, in + 4 * x + 48, 16);
    bytes16 o0 = __builtin_shufflevector(a, b, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20);
    bytes16 o1 = __builtin_shufflevector(b, c, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25);
    bytes16 o2 = __builtin_shufflevector(c, d, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26, 28, 29, 30);
    memcpy(out + 3 * x, &o0, 16);
    memcpy(out + 3 * x + 16, &o1, 16);
    memcpy(out + 3 * x + 32, &o2, 16);
  }
  return x;
}

#if defined(__x86_64__)
__attribute__((target("ssse3"))) static uint32_t pack_rgb_shuffled(const uint8_t *in, uint8_t *out,
                                                                   uint32_t width) {
  return pack_rgb_sixteen(in, out, width);
}

static uint32_t pack_rgb_vectors(const uint8_t *in, uint8_t *out, uint32_t width) {
  return __builtin_cpu_supports("ssse3") ? pack_rgb_shuffled(in, out, width) : 0;
}
#elif defined(__aarch64__)
static uint32_t pack_rgb_vectors(const uint8_t *in, uint8_t *out, uint32_t width) {
  return pack_rgb_sixteen(in, out, width);
}
#else
static uint32_t pack_rgb_vectors(const uint8_t *in, uint8_t *out, uint32_t width) {
  (void)in;
  (void)out;
  (void)width;
  return 0;
}
#endif

/* Adler-32 (RFC 1950) of the filtered bytes, 32 bytes a step with AVX2 (checked at run time) or
 * NEON (arm64), zlib's adler32 elsewhere and as the reference the tests hold it to. zlib's loop takes
 * a byte at a time: on 200 opaque thumbnails it was about a sixth of the encode, sixteen times
 * what the vectors take.
 *
 * For n bytes d_0 ... d_{n-1} after a running (a, b): a' = a + Σ d_i and b' = b + n·a + Σ (n − i)·d_i.
 * In 32-byte blocks, the weight n − i of a byte at j in block k of m splits into 32·(m − 1 − k),
 * counted by adding the byte sum so far before each block, and 32 − j, a multiply-add by the
 * weights 32 ... 1. The lane sums stay exact: bytes sum in 64-bit lanes and the weighted sums
 * reach at most 2^16 / 32 blocks × 4 bytes × 255 × 32 < 2^31 in 32-bit lanes for a chunk of
 * 64 KiB; the sums reduce modulo 65521 in 64-bit arithmetic once a chunk. */
enum { ADLER_MODULUS = 65521, ADLER_BLOCK = 32, ADLER_CHUNK = 1 << 16 };

/* Adds a chunk of `length` bytes to the running (a, b), from its byte sum, the sum of the byte sums
 * before each of its blocks, and its blocks' weighted sums. */
static inline void adler32_fold(uint64_t *a, uint64_t *b, size_t length, uint64_t total, uint64_t earlier,
                                uint64_t inner) {
  *b = (*b + length * *a + ADLER_BLOCK * earlier + inner) % ADLER_MODULUS;
  *a = (*a + total) % ADLER_MODULUS;
}

/* The Adler-32 after the last `count` bytes (fewer than a block), a byte at a time. */
static inline uint32_t adler32_tail(uint64_t a, uint64_t b, const uint8_t *bytes, size_t count) {
  for (size_t i = 0; i < count; i++) {
    a += bytes[i];
    b += a;
  }
  return (uint32_t)((b % ADLER_MODULUS) << 16 | (a % ADLER_MODULUS));
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2"))) static uint32_t adler32_blocks(uint32_t adler, const uint8_t *bytes,
                                                              size_t count) {
  uint64_t a = adler & 0xffff, b = adler >> 16;
  const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                           16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  const __m256i ones = _mm256_set1_epi16(1);
  const __m256i zero = _mm256_setzero_si256();
  while (count >= ADLER_BLOCK) {
    const size_t blocks = (count < ADLER_CHUNK ? count : ADLER_CHUNK) / ADLER_BLOCK;
    __m256i sum = zero, before = zero, weighted = zero;
    for (size_t k = 0; k < blocks; k++) {
      const __m256i d = _mm256_loadu_si256((const __m256i *)(bytes + k * ADLER_BLOCK));
      before = _mm256_add_epi64(before, sum);
      sum = _mm256_add_epi64(sum, _mm256_sad_epu8(d, zero));
      weighted = _mm256_add_epi32(weighted, _mm256_madd_epi16(_mm256_maddubs_epi16(d, weights), ones));
    }
    uint64_t sums[4], befores[4];
    uint32_t weights_summed[8];
    _mm256_storeu_si256((__m256i *)sums, sum);
    _mm256_storeu_si256((__m256i *)befores, before);
    _mm256_storeu_si256((__m256i *)weights_summed, weighted);
    uint64_t total = 0, earlier = 0, inner = 0;
    for (int l = 0; l < 4; l++) {
      total += sums[l];
      earlier += befores[l];
    }
    for (int l = 0; l < 8; l++) inner += weights_summed[l];
    const size_t length = blocks * ADLER_BLOCK;
    adler32_fold(&a, &b, length, total, earlier, inner);
    bytes += length;
    count -= length;
  }
  return adler32_tail(a, b, bytes, count);
}

uint32_t inkwell_png_adler32(uint32_t adler, const uint8_t *bytes, size_t count) {
  if (__builtin_cpu_supports("avx2")) return adler32_blocks(adler, bytes, count);
  return inkwell_png_adler32_reference(adler, bytes, count);
}
#elif defined(__aarch64__)
#include <arm_neon.h>

/* The same sums in 128-bit vectors: byte sums and weighted products widen pairwise into 32-bit
 * lanes, so a chunk is 32 KiB, where the running sums added before each block reach at most
 * 2^10 blocks squared over 2 × 8 bytes × 255 < 2^31 in a lane. */
enum { ADLER_NEON_CHUNK = 1 << 15 };

static uint32_t adler32_blocks(uint32_t adler, const uint8_t *bytes, size_t count) {
  static const uint8_t weight_bytes[ADLER_BLOCK] = {32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
                                                    21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                                                    10, 9,  8,  7,  6,  5,  4,  3,  2,  1};
  const uint8x16_t front = vld1q_u8(weight_bytes), back = vld1q_u8(weight_bytes + 16);
  uint64_t a = adler & 0xffff, b = adler >> 16;
  while (count >= ADLER_BLOCK) {
    const size_t blocks = (count < ADLER_NEON_CHUNK ? count : ADLER_NEON_CHUNK) / ADLER_BLOCK;
    uint32x4_t sum = vdupq_n_u32(0), before = vdupq_n_u32(0), weighted = vdupq_n_u32(0);
    for (size_t k = 0; k < blocks; k++) {
      const uint8x16_t d0 = vld1q_u8(bytes + k * ADLER_BLOCK);
      const uint8x16_t d1 = vld1q_u8(bytes + k * ADLER_BLOCK + 16);
      before = vaddq_u32(before, sum);
      sum = vpadalq_u16(sum, vaddq_u16(vpaddlq_u8(d0), vpaddlq_u8(d1)));
      weighted = vpadalq_u16(weighted, vmull_u8(vget_low_u8(d0), vget_low_u8(front)));
      weighted = vpadalq_u16(weighted, vmull_high_u8(d0, front));
      weighted = vpadalq_u16(weighted, vmull_u8(vget_low_u8(d1), vget_low_u8(back)));
      weighted = vpadalq_u16(weighted, vmull_high_u8(d1, back));
    }
    const size_t length = blocks * ADLER_BLOCK;
    adler32_fold(&a, &b, length, vaddlvq_u32(sum), vaddlvq_u32(before), vaddlvq_u32(weighted));
    bytes += length;
    count -= length;
  }
  return adler32_tail(a, b, bytes, count);
}

uint32_t inkwell_png_adler32(uint32_t adler, const uint8_t *bytes, size_t count) {
  return adler32_blocks(adler, bytes, count);
}
#else
uint32_t inkwell_png_adler32(uint32_t adler, const uint8_t *bytes, size_t count) {
  return inkwell_png_adler32_reference(adler, bytes, count);
}
#endif

uint32_t inkwell_png_adler32_reference(uint32_t adler, const uint8_t *bytes, size_t count) {
  return (uint32_t)adler32_z(adler, bytes, count);
}

/* Packs one input row into `out` with `output_channels` samples a pixel. */
static void pack_row(const uint8_t *in, uint8_t *out, uint32_t width, int in_channels,
                     int out_channels) {
  if (in_channels == out_channels) {
    memcpy(out, in, (size_t)width * (size_t)out_channels);
    return;
  }
  if (in_channels == 4 && out_channels == 3) {
    uint32_t x = pack_rgb_vectors(in, out, width);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Four pixels (four words R | G << 8 | B << 16 | A << 24) into three words. */
    for (; x + 4 <= width; x += 4) {
      uint32_t p[4];
      memcpy(p, in + 4 * x, sizeof p);
      uint32_t w[3] = {(p[0] & 0xffffffu) | p[1] << 24, (p[1] >> 8 & 0xffffu) | p[2] << 16,
                       (p[2] >> 16 & 0xffu) | p[3] << 8};
      memcpy(out + 3 * x, w, sizeof w);
    }
#endif
    for (; x < width; x++) {
      out[3 * x] = in[4 * x];
      out[3 * x + 1] = in[4 * x + 1];
      out[3 * x + 2] = in[4 * x + 2];
    }
    return;
  }
  for (uint32_t x = 0; x < width; x++) {
    for (int k = 0; k < out_channels; k++) out[x * out_channels + k] = in[x * in_channels + k];
  }
}

/* Filters `row` (with `above` the previous packed row, or zeros) into `out`
 * (one filter-type byte, then the row) with filter `type` (0 ... 4). */
static void filter_row(int type, const uint8_t *row, const uint8_t *above, uint8_t *out,
                       size_t bytes, int bpp) {
  out[0] = (uint8_t)type;
  uint8_t *o = out + 1;
  switch (type) {
  case 0:
    memcpy(o, row, bytes);
    break;
  case 1:
    for (size_t i = 0; i < bytes; i++) o[i] = (uint8_t)(row[i] - (i >= (size_t)bpp ? row[i - bpp] : 0));
    break;
  case 2:
    for (size_t i = 0; i < bytes; i++) o[i] = (uint8_t)(row[i] - above[i]);
    break;
  case 3:
    for (size_t i = 0; i < bytes; i++) {
      int left = i >= (size_t)bpp ? row[i - bpp] : 0;
      o[i] = (uint8_t)(row[i] - ((left + above[i]) >> 1));
    }
    break;
  default:
    for (size_t i = 0; i < bytes; i++) {
      int left = i >= (size_t)bpp ? row[i - bpp] : 0;
      int corner = i >= (size_t)bpp ? above[i - bpp] : 0;
      o[i] = (uint8_t)(row[i] - paeth(left, above[i], corner));
    }
    break;
  }
}

/* Unfiltered rows are packed and deflated up to this many bytes at a time (a thumbnail's band of
 * 64 rows in one go). */
enum { UNFILTERED_CHUNK_BYTES = 64 * 1024 };

/* Compressors kept between bands, with their unfiltered scratch. A thumbnail's six bands each
 * made and freed a compressor (about 330 KiB with the scratch) and a worst-case output buffer; the
 * allocator gave that memory back to the system after each band and faulted it in again for the
 * next, about a quarter of the encode's time (200 thumbnails: 92 against 66 ms, and 92 000
 * against 18 000 page faults over ten rounds). A reset compressor (deflateReset) writes the same
 * bytes as a new one. At most POOL_LIMIT are kept, the most recently used. */
typedef struct band_compressor {
  z_stream z;
  int level;
  int strategy;
  uint8_t *scratch;
  size_t scratch_capacity;
  struct band_compressor *next;
} band_compressor;

enum { POOL_LIMIT = 8 };
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static band_compressor *pool;
static int pooled;

static band_compressor *take_compressor(int level, int strategy) {
  band_compressor *found = NULL;
  pthread_mutex_lock(&pool_lock);
  for (band_compressor **link = &pool; *link != NULL; link = &(*link)->next) {
    if ((*link)->level == level && (*link)->strategy == strategy) {
      found = *link;
      *link = found->next;
      pooled -= 1;
      break;
    }
  }
  pthread_mutex_unlock(&pool_lock);
  if (found != NULL) return found;
  band_compressor *made = calloc(1, sizeof *made);
  if (made == NULL) return NULL;
  if (deflateInit2(&made->z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) {
    free(made);
    return NULL;
  }
  made->level = level;
  made->strategy = strategy;
  return made;
}

static void free_compressor(band_compressor *compressor) {
  deflateEnd(&compressor->z);
  free(compressor->scratch);
  free(compressor);
}

/* Keeps `compressor` for a later band, in front; a full pool lets go of its last (least recently
 * kept), so that the compressors kept follow the levels in use. */
static void return_compressor(band_compressor *compressor) {
  if (deflateReset(&compressor->z) != Z_OK) {
    free_compressor(compressor);
    return;
  }
  band_compressor *dropped = NULL;
  pthread_mutex_lock(&pool_lock);
  if (pooled == POOL_LIMIT) {
    band_compressor **link = &pool;
    while ((*link)->next != NULL) link = &(*link)->next;
    dropped = *link;
    *link = NULL;
    pooled -= 1;
  }
  compressor->next = pool;
  pool = compressor;
  pooled += 1;
  pthread_mutex_unlock(&pool_lock);
  if (dropped != NULL) free_compressor(dropped);
}

/* A band's output buffer and its size, grown by deflate_growing. */
typedef struct {
  uint8_t **bytes;
  size_t *capacity;
} band_output;

/* deflate(z, flush) until it has taken all of z's input and, unless `flush` is Z_NO_FLUSH, written
 * all it has to; the output buffer doubles whenever deflate fills it. Z_MEM_ERROR when it cannot. */
static int deflate_growing(z_stream *z, band_output out, int flush) {
  for (;;) {
    if (z->avail_out == 0) {
      const size_t used = *out.capacity;
      const size_t grown = 2 * used;
      if (grown > (size_t)UINT32_MAX) return Z_MEM_ERROR;
      uint8_t *bytes = realloc(*out.bytes, grown);
      if (bytes == NULL) return Z_MEM_ERROR;
      *out.bytes = bytes;
      *out.capacity = grown;
      z->next_out = bytes + used;
      z->avail_out = (uInt)(grown - used);
    }
    int result = deflate(z, flush);
    if (result == Z_STREAM_ERROR || result == Z_STREAM_END) return result;
    if (z->avail_in == 0 && z->avail_out != 0) return result;
  }
}

static uint64_t signed_sum(const uint8_t *filtered, size_t bytes) {
  uint64_t sum = 0;
  for (size_t i = 0; i < bytes; i++) {
    int v = (int8_t)filtered[i];
    sum += (uint64_t)(v < 0 ? -v : v);
  }
  return sum;
}

inkwell_png_status inkwell_png_deflate_band(const inkwell_png_band_options *options,
                                            const uint8_t *rows, size_t stride,
                                            const uint8_t *previous_row, uint32_t row_count,
                                            int is_last, uint8_t **out_bytes, size_t *out_size,
                                            uint32_t *out_adler, uint64_t *out_length) {
  if (out_bytes == NULL || out_size == NULL || out_adler == NULL || out_length == NULL) {
    return INKWELL_PNG_INVALID_ARGUMENT;
  }
  *out_bytes = NULL;
  *out_size = 0;
  if (options != NULL && options->filter == INKWELL_PNG_BAND_FILTER_SMALLER) {
    /* Candidates in order, the first of the smallest kept: unfiltered and adaptive rows at the
     * options' level and strategy, and for palette indices unfiltered rows with zlib's run-length
     * strategy (what effort 1 writes for them, and often smaller than level 9: a pixel is one
     * byte, so paper and solid ink are runs of one byte). */
    inkwell_png_band_options candidates[3] = {*options, *options, *options};
    candidates[0].filter = INKWELL_PNG_BAND_FILTER_NONE;
    candidates[1].filter = INKWELL_PNG_BAND_FILTER_ADAPTIVE;
    candidates[2].filter = INKWELL_PNG_BAND_FILTER_NONE;
    candidates[2].level = 1;
    candidates[2].strategy = Z_RLE;
    const int count = options->input_channels == 1 && options->strategy != Z_RLE ? 3 : 2;
    for (int k = 0; k < count; k++) {
      uint8_t *bytes = NULL;
      size_t size = 0;
      uint32_t adler = 0;
      uint64_t length = 0;
      inkwell_png_status status = inkwell_png_deflate_band(&candidates[k], rows, stride, previous_row,
                                                           row_count, is_last, &bytes, &size, &adler, &length);
      if (status != INKWELL_PNG_OK) {
        free(*out_bytes);
        *out_bytes = NULL;
        *out_size = 0;
        return status;
      }
      if (k == 0 || size < *out_size) {
        free(*out_bytes);
        *out_bytes = bytes;
        *out_size = size;
        *out_adler = adler;
        *out_length = length;
      } else {
        free(bytes);
      }
    }
    return INKWELL_PNG_OK;
  }
  if (options == NULL || rows == NULL || options->width == 0 ||
      (options->input_channels != 1 && options->input_channels != 3 && options->input_channels != 4) ||
      (options->output_channels != 1 && options->output_channels != 3 && options->output_channels != 4) ||
      options->output_channels > options->input_channels ||
      ((options->input_channels == 1) != (options->output_channels == 1)) || options->level < 0 ||
      options->level > 9) {
    return INKWELL_PNG_INVALID_ARGUMENT;
  }
  const int bpp = options->output_channels;
  const size_t bytes = (size_t)options->width * (size_t)bpp;
  if (bytes / (size_t)bpp != options->width) return INKWELL_PNG_INVALID_ARGUMENT;

  /* Scratch: unfiltered, a chunk of rows, each packed behind its filter byte, checksummed and
   * deflated in one call (a call a row cost a thumbnail's encode about a tenth of its
   * instructions); filtered, the packed previous and current rows and up to five candidates. */
  const bool unfiltered = options->filter == INKWELL_PNG_BAND_FILTER_NONE;
  size_t chunk_rows = UNFILTERED_CHUNK_BYTES / (bytes + 1);
  if (chunk_rows < 1) chunk_rows = 1;
  if (chunk_rows > row_count) chunk_rows = row_count > 0 ? row_count : 1;
  band_compressor *compressor = take_compressor(options->level, options->strategy);
  if (compressor == NULL) return INKWELL_PNG_OUT_OF_MEMORY;
  z_stream *z = &compressor->z;
  uint8_t *scratch = NULL;
  if (unfiltered) {
    const size_t size = chunk_rows * (bytes + 1);
    if (compressor->scratch_capacity < size) {
      free(compressor->scratch);
      compressor->scratch = malloc(size);
      compressor->scratch_capacity = compressor->scratch == NULL ? 0 : size;
    }
    scratch = compressor->scratch;
  } else {
    scratch = calloc(7, bytes + 1);
  }
  if (scratch == NULL) {
    return_compressor(compressor);
    return INKWELL_PNG_OUT_OF_MEMORY;
  }
  /* The output starts at a sixteenth of the band's bytes (a page of strokes compresses to
   * less) and doubles when deflate fills it: deflateBound's worst case, a little more than the
   * input, was the largest allocation an encode made. */
  const size_t input = (bytes + 1) * (size_t)row_count;
  const size_t bound = deflateBound(z, (uLong)input) + 64;
  size_t capacity = input / 16 + 1024 < bound ? input / 16 + 1024 : bound;
  uint8_t *output = malloc(capacity);
  if (output == NULL) {
    if (!unfiltered) free(scratch);
    return_compressor(compressor);
    return INKWELL_PNG_OUT_OF_MEMORY;
  }
  z->next_out = output;
  z->avail_out = (uInt)capacity;
  band_output out = {&output, &capacity};

  uLong adler = adler32(0L, Z_NULL, 0);
  inkwell_png_status status = INKWELL_PNG_OK;
  if (unfiltered) {
    for (uint32_t r = 0; r < row_count && status == INKWELL_PNG_OK;) {
      const uint32_t n = row_count - r < chunk_rows ? row_count - r : (uint32_t)chunk_rows;
      for (uint32_t k = 0; k < n; k++) {
        uint8_t *line = scratch + (size_t)k * (bytes + 1);
        line[0] = 0;
        pack_row(rows + (size_t)(r + k) * stride, line + 1, options->width, options->input_channels, bpp);
      }
      const uInt length = (uInt)(n * (bytes + 1));
      adler = inkwell_png_adler32((uint32_t)adler, scratch, length);
      z->next_in = scratch;
      z->avail_in = length;
      r += n;
      bool last_chunk = r == row_count;
      int flush = last_chunk ? (is_last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
      int result = deflate_growing(z, out, flush);
      if (result == Z_MEM_ERROR) status = INKWELL_PNG_OUT_OF_MEMORY;
      else if (result == Z_STREAM_ERROR || z->avail_in != 0) status = INKWELL_PNG_ENCODER_FAILED;
      else if (last_chunk && is_last && result != Z_STREAM_END) status = INKWELL_PNG_ENCODER_FAILED;
    }
  } else {
    uint8_t *above = scratch;
    uint8_t *current = above + bytes + 1;
    uint8_t *candidates = current + bytes + 1;
    if (previous_row != NULL) {
      pack_row(previous_row, above, options->width, options->input_channels, bpp);
    }
    for (uint32_t r = 0; r < row_count && status == INKWELL_PNG_OK; r++) {
      pack_row(rows + (size_t)r * stride, current, options->width, options->input_channels, bpp);
      uint8_t *chosen = candidates;
      if (options->filter == INKWELL_PNG_BAND_FILTER_ADAPTIVE) {
        uint64_t best = UINT64_MAX;
        for (int type = 0; type <= 4; type++) {
          uint8_t *candidate = candidates + (size_t)type * (bytes + 1);
          filter_row(type, current, above, candidate, bytes, bpp);
          uint64_t score = signed_sum(candidate + 1, bytes);
          if (score < best) {
            best = score;
            chosen = candidate;
          }
        }
      } else {
        filter_row((int)options->filter, current, above, chosen, bytes, bpp);
      }
      adler = inkwell_png_adler32((uint32_t)adler, chosen, bytes + 1);
      z->next_in = chosen;
      z->avail_in = (uInt)(bytes + 1);
      bool last_row = r + 1 == row_count;
      int flush = last_row ? (is_last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
      int result = deflate_growing(z, out, flush);
      if (result == Z_MEM_ERROR) status = INKWELL_PNG_OUT_OF_MEMORY;
      else if (result == Z_STREAM_ERROR || z->avail_in != 0) status = INKWELL_PNG_ENCODER_FAILED;
      else if (last_row && is_last && result != Z_STREAM_END) status = INKWELL_PNG_ENCODER_FAILED;
      uint8_t *swap = above;
      above = current;
      current = swap;
    }
  }
  if (row_count == 0 && is_last) {
    int result = deflate_growing(z, out, Z_FINISH);
    if (result != Z_STREAM_END) status = result == Z_MEM_ERROR ? INKWELL_PNG_OUT_OF_MEMORY : INKWELL_PNG_ENCODER_FAILED;
  }
  size_t produced = capacity - z->avail_out;
  if (!unfiltered) free(scratch);
  return_compressor(compressor);
  if (status != INKWELL_PNG_OK) {
    free(output);
    return status;
  }
  *out_bytes = output;
  *out_size = produced;
  *out_adler = (uint32_t)adler;
  *out_length = (uint64_t)(bytes + 1) * row_count;
  return INKWELL_PNG_OK;
}

uint32_t inkwell_png_adler32_combine(uint32_t first, uint32_t second, uint64_t second_length) {
  return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}
