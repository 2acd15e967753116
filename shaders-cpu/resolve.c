// Resolve kernels: tone mapping, transfer functions and quantization of finished tiles. See
// include/InkwellKernels.h for the contract and Sources/InkwellRender/Resolve/ToneMapping.swift
// for why the curves look the way they do. These run once per output pixel, after compositing, and
// are written for clarity first: scalar loops, transfer functions in double through libm so that
// the Swift twin calls the same functions in the same order and agrees bit for bit.

#include "kernels_internal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#pragma clang fp contract(off)

#define T INKWELL_TILE
#define P INKWELL_TILE_PIXELS

static inline float clampf(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

static inline float max3(float a, float b, float c) {
  float m = a > b ? a : b;
  return m > c ? m : c;
}

// ---- PQ (SMPTE ST 2084) ----------------------------------------------------------------------

static const double PQ_M1 = 2610.0 / 16384.0;
static const double PQ_M2 = 2523.0 / 4096.0 * 128.0;
static const double PQ_C1 = 3424.0 / 4096.0;
static const double PQ_C2 = 2413.0 / 4096.0 * 32.0;
static const double PQ_C3 = 2392.0 / 4096.0 * 32.0;

// Absolute luminance / 10 000 nits → PQ signal.
static double pq_encode(double y) {
  if (y <= 0.0) return 0.0;
  double p = pow(y, PQ_M1);
  return pow((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p), PQ_M2);
}

// PQ signal → absolute luminance / 10 000 nits.
static double pq_decode(double e) {
  if (e <= 0.0) return 0.0;
  double p = pow(e, 1.0 / PQ_M2);
  double n = p - PQ_C1;
  if (n <= 0.0) return 0.0;
  return pow(n / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
}

// ---- HLG (BT.2100) ---------------------------------------------------------------------------

static const double HLG_A = 0.17883277;
static const double HLG_B = 0.28466892;  // 1 − 4a
static const double HLG_C = 0.55991073;  // 0.5 − a·ln(4a)
static const double HLG_GAMMA = 1.2;

static double hlg_oetf(double e) {
  if (e <= 0.0) return 0.0;
  if (e <= 1.0 / 12.0) return sqrt(3.0 * e);
  return HLG_A * log(12.0 * e - HLG_B) + HLG_C;
}

static double hlg_inverse_oetf(double s) {
  if (s <= 0.0) return 0.0;
  if (s <= 0.5) return s * s / 3.0;
  return (exp((s - HLG_C) / HLG_A) + HLG_B) / 12.0;
}

// ---- Tone mapping ----------------------------------------------------------------------------

// The compressed largest channel m' for a largest channel m > knee.
static float compress_peak(const inkwell_resolve_params *p, float m) {
  switch (p->curve) {
  case INKWELL_TONE_CLIP:
    return m < p->headroom ? m : p->headroom;
  case INKWELL_TONE_REINHARD: {
    // m' = k + V·h(x), x = (m − k)/V, h(x) = x(1 + x/W²)/(1 + x): h(0) = 0, h'(0) = 1, h(W) = 1.
    float v = p->headroom - p->knee;
    if (!(v > 0.0f)) return p->headroom;  // H = 1: the knee is at H; nothing is left to compress
    float x = (m - p->knee) / v;
    float w = p->reinhard_white;
    float h = x * (1.0f + x / (w * w)) / (1.0f + x);
    return p->knee + v * h;
  }
  case INKWELL_TONE_BT2390: {
    // E1 = PQ(m)/PQ(E); above KS: P(T) = (2T³−3T²+1)·KS + (T³−2T²+T)·(1−KS)·s + (−2T³+3T²)·maxLum.
    double sw = (double)p->sdr_white_nits;
    float e1 = (float)(pq_encode((double)m * sw / 10000.0) / (double)p->eetf_source_pq);
    float ks = p->eetf_knee;
    if (e1 <= ks) return m;
    float t = (e1 - ks) / (1.0f - ks);
    if (t > 1.0f) t = 1.0f;
    float t2 = t * t;
    float t3 = t2 * t;
    float e2 = (2.0f * t3 - 3.0f * t2 + 1.0f) * ks +
               (t3 - 2.0f * t2 + t) * (1.0f - ks) * p->eetf_tangent +
               (-2.0f * t3 + 3.0f * t2) * p->eetf_target;
    float out = (float)(pq_decode((double)e2 * (double)p->eetf_source_pq) * 10000.0 / sw);
    // The PQ round trip is exact only to a few ulps: keep the result between the knee and m.
    if (out < p->knee) out = p->knee;
    return out < m ? out : m;
  }
  default:
    return m;
  }
}

void inkwell_tone_map(const inkwell_resolve_params *p, float rgb[3]) {
  float m = max3(rgb[0], rgb[1], rgb[2]);
  if (!(m > p->knee)) return;
  float mc = p->curve == INKWELL_TONE_NONE ? m : compress_peak(p, m);
  if (!(mc <= p->headroom)) mc = p->headroom;
  if (!(mc < m)) return;
  // Scale on the largest channel: every channel by the same factor, so ratios (hue) are kept; the
  // largest channel itself is set to m' exactly.
  float s = mc / m;
  float r = rgb[0] == m ? mc : rgb[0] * s;
  float g = rgb[1] == m ? mc : rgb[1] * s;
  float b = rgb[2] == m ? mc : rgb[2] * s;
  // Path to white: toward (m', m', m') by t = strength · (1 − m'/m); the largest channel stays m'.
  float t = p->curve == INKWELL_TONE_CLIP ? 0.0f : p->path_to_white * (1.0f - s);
  rgb[0] = r + (mc - r) * t;
  rgb[1] = g + (mc - g) * t;
  rgb[2] = b + (mc - b) * t;
}

// ---- Transfer functions ----------------------------------------------------------------------

static float srgb_encode(float v) {
  if (v <= 0.0031308f) return v * 12.92f;
  return 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

static float srgb_decode(float v) {
  if (v <= 0.04045f) return v / 12.92f;
  return powf((v + 0.055f) / 1.055f, 2.4f);
}

void inkwell_transfer_encode(const inkwell_resolve_params *p, float rgb[3]) {
  switch (p->transfer) {
  case INKWELL_TRANSFER_SRGB:
    for (int c = 0; c < 3; c++) rgb[c] = srgb_encode(clampf(rgb[c], 0.0f, 1.0f));
    break;
  case INKWELL_TRANSFER_PQ:
    for (int c = 0; c < 3; c++)
      rgb[c] = (float)pq_encode((double)rgb[c] * (double)p->sdr_white_nits / 10000.0);
    break;
  case INKWELL_TRANSFER_HLG: {
    // Display light D (0…1 of the nominal peak) → scene light E = D · Yd^((1 − γ)/γ) → OETF.
    double scale = (double)p->sdr_white_nits / (double)p->hlg_peak_nits;
    double d[3];
    for (int c = 0; c < 3; c++) {
      double v = (double)rgb[c] * scale;
      d[c] = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    }
    double yd = (double)p->luma[0] * d[0] + (double)p->luma[1] * d[1] + (double)p->luma[2] * d[2];
    double k = yd > 0.0 ? pow(yd, (1.0 - HLG_GAMMA) / HLG_GAMMA) : 0.0;
    for (int c = 0; c < 3; c++) rgb[c] = (float)hlg_oetf(d[c] * k);
    break;
  }
  default:
    break;
  }
}

void inkwell_transfer_decode(const inkwell_resolve_params *p, float rgb[3]) {
  switch (p->transfer) {
  case INKWELL_TRANSFER_SRGB:
    for (int c = 0; c < 3; c++) rgb[c] = srgb_decode(rgb[c]);
    break;
  case INKWELL_TRANSFER_PQ:
    for (int c = 0; c < 3; c++)
      rgb[c] = (float)(pq_decode((double)rgb[c]) * 10000.0 / (double)p->sdr_white_nits);
    break;
  case INKWELL_TRANSFER_HLG: {
    // Scene light E → Ys → display light D = Ys^(γ − 1) · E, in units of SDR white.
    double e[3];
    for (int c = 0; c < 3; c++) e[c] = hlg_inverse_oetf((double)rgb[c]);
    double ys = (double)p->luma[0] * e[0] + (double)p->luma[1] * e[1] + (double)p->luma[2] * e[2];
    double k = ys > 0.0 ? pow(ys, HLG_GAMMA - 1.0) : 0.0;
    double scale = (double)p->hlg_peak_nits / (double)p->sdr_white_nits;
    for (int c = 0; c < 3; c++) rgb[c] = (float)(e[c] * k * scale);
    break;
  }
  default:
    break;
  }
}

// ---- Tile resolves ---------------------------------------------------------------------------

// Pixel i of the tile: output primaries, unpremultiplied, tone mapped; returns alpha (0…1).
static float resolve_pixel(const float *tile, int i, const inkwell_resolve_params *p,
                           float rgb[3]) {
  float alpha = clampf(tile[3 * P + i], 0.0f, 1.0f);
  float inv = alpha > 0.0f ? 1.0f / alpha : 0.0f;
  float r = tile[i] * inv, g = tile[P + i] * inv, b = tile[2 * P + i] * inv;
  const float *m = p->matrix;
  rgb[0] = m[0] * r + m[1] * g + m[2] * b;
  rgb[1] = m[3] * r + m[4] * g + m[5] * b;
  rgb[2] = m[6] * r + m[7] * g + m[8] * b;
  // The tone map changes nothing at or below the knee (its own first test): most pixels of an SDR
  // page, which then skip the call.
  if (max3(rgb[0], rgb[1], rgb[2]) > p->knee) inkwell_tone_map(p, rgb);
  return alpha;
}

void inkwell_resolve_f32(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, float *out, intptr_t out_stride) {
  for (int y = 0; y < height; y++) {
    float *o = out + y * out_stride;
    for (int x = 0; x < width; x++) {
      float rgb[3];
      float alpha = resolve_pixel(tile, x * T + y, params, rgb);
      o[4 * x + 0] = rgb[0];
      o[4 * x + 1] = rgb[1];
      o[4 * x + 2] = rgb[2];
      o[4 * x + 3] = alpha;
    }
  }
}

void inkwell_resolve_premultiplied_f32(const float *tile, int width, int height,
                                       const inkwell_resolve_params *params, float *out,
                                       intptr_t out_stride) {
  for (int y = 0; y < height; y++) {
    float *o = out + y * out_stride;
    for (int x = 0; x < width; x++) {
      float rgb[3];
      float alpha = resolve_pixel(tile, x * T + y, params, rgb);
      o[4 * x + 0] = rgb[0] * alpha;
      o[4 * x + 1] = rgb[1] * alpha;
      o[4 * x + 2] = rgb[2] * alpha;
      o[4 * x + 3] = alpha;
    }
  }
}

void inkwell_resolve_u16(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, uint16_t *out, intptr_t out_stride) {
  for (int y = 0; y < height; y++) {
    uint16_t *o = out + y * out_stride;
    for (int x = 0; x < width; x++) {
      float rgb[3];
      float alpha = resolve_pixel(tile, x * T + y, params, rgb);
      inkwell_transfer_encode(params, rgb);
      for (int c = 0; c < 3; c++)
        o[4 * x + c] = (uint16_t)(int)(clampf(rgb[c], 0.0f, 1.0f) * 65535.0f + 0.5f);
      o[4 * x + 3] = (uint16_t)(int)(alpha * 65535.0f + 0.5f);
    }
  }
}

// 8 × 8 Bayer matrix: each entry is the rank (0…63) at which that position turns on.
const uint8_t inkwell_bayer8[64] = {
    0,  32, 8,  40, 2,  34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
    12, 44, 4,  36, 14, 46, 6,  38, 60, 28, 52, 20, 62, 30, 54, 22,
    3,  35, 11, 43, 1,  33, 9,  41, 51, 19, 59, 27, 49, 17, 57, 25,
    15, 47, 7,  39, 13, 45, 5,  37, 63, 31, 55, 23, 61, 29, 53, 21,
};

float inkwell_dither_offset(int x, int y) {
  return ((float)inkwell_bayer8[(y & 7) * 8 + (x & 7)] + 0.5f) / 64.0f;
}

// 8-bit sRGB without evaluating the transfer function per pixel: the code of an encoded value e
// with dither offset o is floor(255·e + o), which equals the number of codes j ≥ 1 whose start,
// decoded to linear light, lin((j − o)/255), is at or below the linear value. One table of 255
// starts per dither offset (the 64 offsets (k + ½)/64, and ½ for plain rounding), computed once
// in double precision; a branch-free binary search then replaces two powf calls a channel.
static float srgb_code_starts[65][256];
static pthread_once_t srgb_code_starts_once = PTHREAD_ONCE_INIT;
// The starts of each dither rank as bucket entries (kernels_internal.h), made from the floats
// above: a bucket's entry holds the number of starts at or below its first float and the low 16
// bits of the one start inside it, if any. A start at or below v is what the code counts, so a
// lookup gives the count, which is the code (the starts rise with the code).
static uint32_t srgb_dither_buckets[64][INKWELL_DITHER_BUCKETS];
static int srgb_dither_buckets_usable;

static uint32_t float_bits(float v) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}

// One row of bucket entries from its 255 starts (which rise with the code), in one pass over the
// starts: the buckets up to a start's take the count of the starts before it; the bucket holding
// a start above its first float takes that start's low 16 bits; a start on a bucket's first float
// counts for that bucket and the ones after. Returns 0 when a bucket holds two starts. Bucket by
// bucket, with a search for each one's starts, this had been 9 of the 11 M instructions of the
// first dithered render, half of a small page's `inkwell render` process.
static int fill_dither_buckets(const float *starts, uint32_t *out) {
  int usable = 1;
  int b = 0;  // the next bucket to write
  for (int j = 1; j <= 255; j++) {
    const uint32_t t = float_bits(starts[j]);
    const int bucket = (int)(t >> 16) - INKWELL_DITHER_FIRST_BUCKET;
    const uint32_t low = t & 0xffff;
    const int end = bucket < INKWELL_DITHER_BUCKETS ? bucket : INKWELL_DITHER_BUCKETS;
    for (; b < end; b++) out[b] = (uint32_t)(j - 1) << 17 | 0x10000;
    if (low == 0 || bucket < 0 || bucket >= INKWELL_DITHER_BUCKETS) continue;
    if (bucket < b) {
      // A second start inside the bucket written last: its entry keeps the count, takes this
      // start's bits, and the table is not used.
      usable = 0;
      out[bucket] = out[bucket] >> 17 << 17 | low;
      continue;
    }
    out[b] = (uint32_t)(j - 1) << 17 | low;
    b += 1;
  }
  for (; b < INKWELL_DITHER_BUCKETS; b++) out[b] = (uint32_t)255 << 17 | 0x10000;
  return usable;
}

static void build_srgb_code_starts(void) {
  for (int k = 0; k <= 64; k++) {
    double offset = k < 64 ? ((double)k + 0.5) / 64.0 : 0.5;
    srgb_code_starts[k][0] = -1.0f;
    for (int j = 1; j < 256; j++) {
      double e = ((double)j - offset) / 255.0;
      double linear = e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
      srgb_code_starts[k][j] = (float)linear;
    }
  }
  int usable = 1;
  for (int row = 0; row < 64; row++) {
    const float *starts = srgb_code_starts[row];
    // Every start lies inside the buckets' range, in increasing order.
    if (!(starts[1] > INKWELL_DITHER_LOWEST) || !(starts[255] < 0x1.fffffep-1f)) usable = 0;
    if (!fill_dither_buckets(starts, srgb_dither_buckets[row])) usable = 0;
  }
  srgb_dither_buckets_usable = usable;
}

const float *inkwell_srgb_dither_starts(void) {
  pthread_once(&srgb_code_starts_once, build_srgb_code_starts);
  return &srgb_code_starts[0][0];
}

const uint32_t *inkwell_srgb_dither_buckets(void) {
  pthread_once(&srgb_code_starts_once, build_srgb_code_starts);
  return srgb_dither_buckets_usable ? &srgb_dither_buckets[0][0] : NULL;
}

float inkwell_srgb_code_start(int row, int code) {
  pthread_once(&srgb_code_starts_once, build_srgb_code_starts);
  return (row >= 0 && row <= 64 && code >= 0 && code <= 255) ? srgb_code_starts[row][code] : 0.0f;
}

// The code for dither row `starts` from the plain-rounding code k0 of the same value: rounding
// with an offset o in (0, 1) instead of ½ moves a code by at most one, so two compares against the
// row's starts settle it exactly. Needs starts[256] (never reached: v below starts[k0 + 2]).
static inline uint8_t dithered_code(const float *starts, int k0, float v) {
  int lo = k0 > 0 ? k0 - 1 : 0;
  int code = lo;
  if (lo + 1 <= 255 && v >= starts[lo + 1]) code++;
  if (lo + 2 <= 255 && v >= starts[lo + 2]) code++;
  return (uint8_t)code;
}

static void resolve_u8_loop(const float *tile, int width, int height, int origin_x, int origin_y,
                            int dither, const inkwell_resolve_params *params, uint8_t *out,
                            intptr_t out_stride);

// A whole tile through the selected level's vector resolve, when it has one (lanes.h): the bytes
// of the loop below, unless it declines (a pixel needs the tone map); returns whether it did not.
static int resolve_u8_vector(const float *tile, uint32_t blocks, const uint8_t *clean, intptr_t clean_stride,
                             int origin_x, int origin_y, int dither, const inkwell_resolve_params *params,
                             uint8_t *out, intptr_t out_stride) {
  if (params->transfer != INKWELL_TRANSFER_SRGB) return 0;
  const inkwell_kernel_table *kernels = inkwell_kernels_for(inkwell_simd_selected());
  return kernels != NULL && kernels->resolve_srgb8_dithered != NULL &&
         kernels->resolve_srgb8_dithered(tile, params->matrix, params->knee, origin_x, origin_y, dither, blocks,
                                         clean, clean_stride, out, out_stride) == 0;
}

void inkwell_resolve_u8_blocks(const float *tile, uint32_t blocks, const uint8_t *clean,
                               intptr_t clean_stride, int origin_x, int origin_y, int dither,
                               const inkwell_resolve_params *params, uint8_t *out, intptr_t out_stride) {
  if (resolve_u8_vector(tile, blocks, clean, clean_stride, origin_x, origin_y, dither, params, out,
                        out_stride)) {
    return;
  }
  // Every block resolved, the clean ones to what `clean` holds.
  resolve_u8_loop(tile, T, T, origin_x, origin_y, dither, params, out, out_stride);
}

void inkwell_resolve_u8(const float *tile, int width, int height, int origin_x, int origin_y,
                        int dither, const inkwell_resolve_params *params, uint8_t *out,
                        intptr_t out_stride) {
  if (width == T && height == T &&
      resolve_u8_vector(tile, INKWELL_ALL_BLOCKS, NULL, 0, origin_x, origin_y, dither, params, out,
                        out_stride)) {
    return;
  }
  resolve_u8_loop(tile, width, height, origin_x, origin_y, dither, params, out, out_stride);
}

static void resolve_u8_loop(const float *tile, int width, int height, int origin_x, int origin_y,
                            int dither, const inkwell_resolve_params *params, uint8_t *out,
                            intptr_t out_stride) {
  if (params->transfer == INKWELL_TRANSFER_SRGB) {
    // sRGB: the plain codes of a whole row come from the vector encoder (an exact threshold
    // lookup); the dither then adjusts each by at most one.
    pthread_once(&srgb_code_starts_once, build_srgb_code_starts);
    float linear[3 * T];
    float alpha[T];
    uint8_t plain[3 * T];
    for (int y = 0; y < height; y++) {
      // A pixel equal to the one before it in the row (paper, mostly) resolves to the same light.
      for (int x = 0; x < width; x++) {
        const int i = x * T + y;
        if (x > 0 && tile[i] == tile[i - T] && tile[P + i] == tile[P + i - T] &&
            tile[2 * P + i] == tile[2 * P + i - T] && tile[3 * P + i] == tile[3 * P + i - T]) {
          alpha[x] = alpha[x - 1];
          linear[3 * x] = linear[3 * x - 3];
          linear[3 * x + 1] = linear[3 * x - 2];
          linear[3 * x + 2] = linear[3 * x - 1];
          continue;
        }
        alpha[x] = resolve_pixel(tile, i, params, linear + 3 * x);
      }
      inkwell_encode_srgb8(linear, plain, (size_t)(3 * width));
      uint8_t *o = out + y * out_stride;
      for (int x = 0; x < width; x++) {
        if (dither) {
          const float *starts = srgb_code_starts[inkwell_bayer8[((origin_y + y) & 7) * 8 + ((origin_x + x) & 7)]];
          for (int c = 0; c < 3; c++) o[4 * x + c] = dithered_code(starts, plain[3 * x + c], linear[3 * x + c]);
        } else {
          for (int c = 0; c < 3; c++) o[4 * x + c] = plain[3 * x + c];
        }
        o[4 * x + 3] = (uint8_t)(int)(alpha[x] * 255.0f + 0.5f);
      }
    }
    return;
  }
  for (int y = 0; y < height; y++) {
    uint8_t *o = out + y * out_stride;
    for (int x = 0; x < width; x++) {
      float rgb[3];
      float alpha = resolve_pixel(tile, x * T + y, params, rgb);
      inkwell_transfer_encode(params, rgb);
      float offset = dither ? inkwell_dither_offset(origin_x + x, origin_y + y) : 0.5f;
      for (int c = 0; c < 3; c++) {
        float v = clampf(rgb[c], 0.0f, 1.0f) * 255.0f + offset;
        o[4 * x + c] = (uint8_t)(int)(v < 255.0f ? v : 255.0f);
      }
      o[4 * x + 3] = (uint8_t)(int)(alpha * 255.0f + 0.5f);
    }
  }
}
