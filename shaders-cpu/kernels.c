// The scalar kernels (the `scalar` level, and single-line accumulation for every level), the sRGB
// threshold table, and the run-time choice of a level. Loops here are kept scalar
// (auto-vectorization off) so that `scalar` is a true baseline; vectorizing them would not change
// a bit, since contraction is off and floats are never reassociated. See include/InkwellKernels.h
// for the contract of each function and lanes.h for the vector levels.

#include "kernels_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#pragma clang fp contract(off)

#define T INKWELL_TILE
#define S INKWELL_CELL_STRIDE
#define P INKWELL_TILE_PIXELS
_Static_assert(INKWELL_CELL_STRIDE == T, "a cell column holds one float per pixel row");
_Static_assert(INKWELL_CELL_COUNT == (T + 2) * INKWELL_CELL_STRIDE, "cell columns 0 through T + 1");
_Static_assert(INKWELL_CELL_BUFFER_COUNT >= INKWELL_CELL_COUNT + 6 * 16,
               "spare cells for six adds a lane at the widest level");
_Static_assert(INKWELL_TILE_PIXELS == T * T, "one float per pixel in a plane");

#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")

static inline float clampf(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// Adds a line piece that lies inside pixel row `r`, with signed height dy (its winding) and
// horizontal extent xa → xb. Cell (c, r) is cells[c·S + r].
static inline __attribute__((always_inline)) void accumulate_row(float *cells, int r, float xa,
                                                                 float xb, float dy) {
  float *row = cells + r;
  float xl = xa < xb ? xa : xb;
  float xr = xa < xb ? xb : xa;
  int cl = (int)xl;
  if (cl > T) cl = T;
  if (xr <= (float)cl + 1.0f) {
    // One cell: the area right of the piece within the cell is (1 − mean x offset)·dy.
    float fx = (xl + xr) * 0.5f - (float)cl;
    row[cl * S] += dy * (1.0f - fx);
    row[(cl + 1) * S] += dy * fx;
    return;
  }
  // Several cells: split the piece at cell borders; each part carries dy in proportion to its
  // width, since the piece is straight. Each cell gets one add: the left share of its own part
  // plus the right share the part before it carried over (the vector levels add the same sums).
  float inv = dy / (xr - xl);
  float x = xl;
  int c = cl;
  float carry = 0.0f;
  while (x < xr && c <= T) {
    float next = (float)(c + 1);
    float end = next < xr ? next : xr;
    float part = (end - x) * inv;
    float fx = (x + end) * 0.5f - (float)c;
    row[c * S] += carry + part * (1.0f - fx);
    carry = part * fx;
    x = end;
    c += 1;
  }
  row[c * S] += carry;
}

static inline __attribute__((always_inline)) void accumulate_line(float *cells, float x0, float y0,
                                                                  float x1, float y1) {
  x0 = clampf(x0, 0.0f, (float)T);
  x1 = clampf(x1, 0.0f, (float)T);
  y0 = clampf(y0, 0.0f, (float)T);
  y1 = clampf(y1, 0.0f, (float)T);
  // Level (no winding), or not a number (clamping keeps NaN): nothing to add.
  if (y0 == y1 || x0 != x0 || y0 != y0 || x1 != x1 || y1 != y1) return;
  float dir;
  int r0, r1;
  inkwell_orient_piece(&x0, &y0, &x1, &y1, &dir, &r0, &r1);
  // Within one pixel row (half the pieces of a flattened outline): its own ends, no slope.
  if (r1 - r0 == 1) {
    accumulate_row(cells, r0, x0, x1, (y1 - y0) * dir);
    return;
  }
  float dxdy = (x1 - x0) / (y1 - y0);
  // Each row starts where the one above ended: ya = max(r, y0), xa at ya.
  float ya = y0, xa = x0;
  for (int r = r0; r < r1; r++) {
    float yb = (float)(r + 1) < y1 ? (float)(r + 1) : y1;
    float xb = clampf(x0 + (yb - y0) * dxdy, 0.0f, (float)T);
    if (yb > ya) accumulate_row(cells, r, xa, xb, (yb - ya) * dir);
    ya = yb;
    xa = xb;
  }
}

void inkwell_scalar_accumulate_line(float *cells, float x0, float y0, float x1, float y1) {
  accumulate_line(cells, x0, y0, x1, y1);
}

void inkwell_scalar_accumulate_row(float *cells, int row, float xa, float xb, float dy) {
  accumulate_row(cells, row, xa, xb, dy);
}

// Whether a row segment from → to spans more than two cells, as the vector levels decide it.
static inline int segment_is_wide(float from, float to) {
  float xl = from < to ? from : to;
  float xr = from < to ? to : from;
  int cl = (int)xl;
  if (cl > T) cl = T;
  return xr > (float)cl + 2.0f;
}

// Whether a piece is short: it adds nothing (level, or not a number), or crosses at most two pixel
// rows and at most two cells of each, computed with the operations of the vector levels' batch
// (lanes.h), which takes exactly these pieces in the first pass of a chunk.
static inline int piece_is_short(const float *l) {
  float x0 = clampf(l[0], 0.0f, (float)T), y0 = clampf(l[1], 0.0f, (float)T);
  float x1 = clampf(l[2], 0.0f, (float)T), y1 = clampf(l[3], 0.0f, (float)T);
  if (y0 == y1 || x0 != x0 || y0 != y0 || x1 != x1 || y1 != y1) return 1;
  int down = y0 > y1;
  float ya = down ? y1 : y0, yb = down ? y0 : y1;
  float xa = down ? x1 : x0, xb = down ? x0 : x1;
  int r0 = (int)ya;
  int r1 = (int)yb;
  if ((float)r1 < yb) r1 += 1;
  int rows = r1 - r0;
  if (rows > 2) return 0;
  if (rows < 2) return !segment_is_wide(xa, xb);
  float ym = (float)(r0 + 1);
  float dxdy = (xb - xa) / (yb - ya);
  float xm = clampf(xa + (ym - ya) * dxdy, 0.0f, (float)T);
  float xe = clampf(xa + (yb - ya) * dxdy, 0.0f, (float)T);
  return !segment_is_wide(xa, xm) && !segment_is_wide(xm, xe);
}

void inkwell_scalar_accumulate_lines(float *cells, const float *lines, size_t count) {
  // Per chunk, the short pieces in order, then the others in order (see INKWELL_LINE_CHUNK).
  for (size_t chunk = 0; chunk < count; chunk += INKWELL_LINE_CHUNK) {
    const size_t end = count - chunk < INKWELL_LINE_CHUNK ? count : chunk + INKWELL_LINE_CHUNK;
    unsigned char is_short[INKWELL_LINE_CHUNK];
    SCALAR_LOOP
    for (size_t i = chunk; i < end; i++) {
      const float *l = lines + 4 * i;
      is_short[i - chunk] = (unsigned char)piece_is_short(l);
      if (is_short[i - chunk]) accumulate_line(cells, l[0], l[1], l[2], l[3]);
    }
    SCALAR_LOOP
    for (size_t i = chunk; i < end; i++) {
      const float *l = lines + 4 * i;
      if (!is_short[i - chunk]) accumulate_line(cells, l[0], l[1], l[2], l[3]);
    }
  }
}

static void scalar_add_backdrop(float *cells, float winding) {
  SCALAR_LOOP
  for (int r = 0; r < T; r++) cells[r] += winding;
}

static inline float coverage_of(float sum, inkwell_fill_rule rule) {
  float a = fabsf(sum);
  float m;
  if (rule == INKWELL_FILL_NONZERO) {
    m = a < 1.0f ? a : 1.0f;
  } else {
    m = a - 2.0f * floorf(a * 0.5f);
    m = m > 1.0f ? 2.0f - m : m;
  }
  return m < INKWELL_COVERAGE_FLOOR ? 0.0f : m;
}

static void scalar_resolve_coverage(float *cells, float *coverage, inkwell_fill_rule rule) {
  SCALAR_LOOP
  for (int r = 0; r < T; r++) {
    float sum = 0.0f;
    SCALAR_LOOP
    for (int c = 0; c < T; c++) {
      sum += cells[c * S + r];
      coverage[c * T + r] = coverage_of(sum, rule);
    }
  }
  memset(cells, 0, INKWELL_CELL_COUNT * sizeof(float));
}

// Dc' = Sc·m + Dc·(1 − Sa·m)
static void scalar_composite_mask(float *tile, const float *coverage, const float color[4]) {
  const float sr = color[0], sg = color[1], sb = color[2], sa = color[3];
  float *r = tile, *g = tile + P, *b = g + P, *a = b + P;
  SCALAR_LOOP
  for (int i = 0; i < P; i++) {
    float m = coverage[i];
    float keep = 1.0f - sa * m;
    r[i] = sr * m + r[i] * keep;
    g[i] = sg * m + g[i] * keep;
    b[i] = sb * m + b[i] * keep;
    a[i] = sa * m + a[i] * keep;
  }
}

static void scalar_fill_coverage(float *tile, float *cells, inkwell_fill_rule rule,
                                 const float color[4]) {
  float coverage[P];
  scalar_resolve_coverage(cells, coverage, rule);
  scalar_composite_mask(tile, coverage, color);
}

static void scalar_fill_lines(float *tile, float *cells, const float *lines, size_t count, float backdrop,
                              inkwell_fill_rule rule, const float color[4], uint32_t *blocks) {
  if (backdrop != 0.0f) scalar_add_backdrop(cells, backdrop);
  inkwell_scalar_accumulate_lines(cells, lines, count);
  scalar_fill_coverage(tile, cells, rule, color);
  if (blocks) *blocks |= INKWELL_ALL_BLOCKS;
}

// Dc' = Sc·m + Dc·(1 − Sa·m), m constant over the tile.
static void scalar_composite_solid(float *tile, const float color[4], float m) {
  const float keep = 1.0f - color[3] * m;
  SCALAR_LOOP
  for (int p = 0; p < 4; p++) {
    float *plane = tile + p * P;
    const float s = color[p] * m;
    SCALAR_LOOP
    for (int i = 0; i < P; i++) plane[i] = s + plane[i] * keep;
  }
}

static void scalar_fill_tile(float *tile, const float color[4]) {
  SCALAR_LOOP
  for (int p = 0; p < 4; p++) {
    const float v = color[p] + 0.0f;
    SCALAR_LOOP
    for (int i = 0; i < P; i++) tile[p * P + i] = v;
  }
}

// Linear-light value at which each 8-bit sRGB code begins: srgb_threshold[k] is the linear value
// of the encoded level (k − 0.5)/255, rounded to float. Index 0 is never compared against.
const float inkwell_srgb_threshold[256] = {
  -1.0f,
  0.000151763496f, 0.000455290487f, 0.000758817478f, 0.00106234441f, 0.0013658714f,
  0.00166939839f, 0.00197292538f, 0.00227645249f, 0.00257997937f, 0.00288350624f,
  0.00318830088f, 0.00350925932f, 0.00384831498f, 0.00420574797f, 0.00458183279f,
  0.00497683743f, 0.00539102405f, 0.00582465064f, 0.00627796957f, 0.00675122766f,
  0.00724466844f, 0.00775853032f, 0.00829304848f, 0.00884845294f, 0.00942497049f,
  0.0100228256f, 0.010642237f, 0.011283421f, 0.0119465925f, 0.0126319602f,
  0.0133397318f, 0.0140701123f, 0.0148233026f, 0.0155995032f, 0.0163989104f,
  0.0172217153f, 0.0180681143f, 0.0189382937f, 0.0198324434f, 0.0207507443f,
  0.0216933824f, 0.0226605386f, 0.0236523896f, 0.0246691145f, 0.0257108882f,
  0.0267778821f, 0.0278702695f, 0.0289882198f, 0.0301319025f, 0.0313014798f,
  0.0324971229f, 0.0337189883f, 0.0349672437f, 0.0362420455f, 0.0375435539f,
  0.0388719253f, 0.04022732f, 0.041609887f, 0.0430197865f, 0.0444571637f,
  0.0459221713f, 0.0474149622f, 0.0489356853f, 0.0504844859f, 0.0520615056f,
  0.0536668971f, 0.055300802f, 0.0569633618f, 0.0586547181f, 0.0603750125f,
  0.0621243827f, 0.0639029741f, 0.0657109171f, 0.0675483495f, 0.0694154128f,
  0.0713122338f, 0.0732389539f, 0.0751957074f, 0.0771826133f, 0.0791998208f,
  0.0812474415f, 0.0833256245f, 0.085434489f, 0.0875741541f, 0.089744769f,
  0.091946438f, 0.0941793025f, 0.0964434743f, 0.098739095f, 0.101066269f,
  0.10342513f, 0.105815805f, 0.108238399f, 0.110693045f, 0.113179862f,
  0.115698971f, 0.118250482f, 0.120834522f, 0.123451203f, 0.126100644f,
  0.128782958f, 0.131498262f, 0.134246677f, 0.137028307f, 0.13984327f,
  0.142691687f, 0.145573661f, 0.148489311f, 0.151438728f, 0.15442206f,
  0.157439381f, 0.160490826f, 0.163576499f, 0.166696489f, 0.169850931f,
  0.173039913f, 0.176263571f, 0.179521978f, 0.182815254f, 0.186143503f,
  0.189506829f, 0.192905352f, 0.196339145f, 0.199808344f, 0.203313038f,
  0.206853345f, 0.210429341f, 0.214041144f, 0.217688844f, 0.22137256f,
  0.225092396f, 0.228848428f, 0.232640758f, 0.236469507f, 0.240334779f,
  0.244236633f, 0.248175204f, 0.252150565f, 0.256162852f, 0.260212123f,
  0.264298469f, 0.268422037f, 0.272582889f, 0.276781112f, 0.281016797f,
  0.285290092f, 0.289601028f, 0.293949723f, 0.298336297f, 0.30276081f,
  0.30722335f, 0.311724037f, 0.31626296f, 0.32084018f, 0.325455844f,
  0.330109984f, 0.334802747f, 0.339534163f, 0.344304383f, 0.349113464f,
  0.353961498f, 0.358848572f, 0.363774776f, 0.368740231f, 0.373744965f,
  0.378789127f, 0.383872777f, 0.388996005f, 0.3941589f, 0.399361521f,
  0.404604018f, 0.40988642f, 0.415208817f, 0.420571357f, 0.425974041f,
  0.431417018f, 0.436900347f, 0.442424119f, 0.447988421f, 0.453593314f,
  0.459238917f, 0.464925289f, 0.470652521f, 0.476420701f, 0.482229918f,
  0.488080233f, 0.493971765f, 0.499904543f, 0.505878687f, 0.511894286f,
  0.517951429f, 0.524050117f, 0.530190527f, 0.536372721f, 0.542596757f,
  0.548862696f, 0.555170655f, 0.561520696f, 0.567912877f, 0.574347317f,
  0.580824137f, 0.587343335f, 0.593904972f, 0.600509226f, 0.607156098f,
  0.613845706f, 0.62057811f, 0.62735337f, 0.634171605f, 0.641032875f,
  0.647937238f, 0.654884815f, 0.661875665f, 0.668909788f, 0.675987363f,
  0.683108449f, 0.690273106f, 0.697481334f, 0.704733372f, 0.712029159f,
  0.719368815f, 0.72675246f, 0.734180033f, 0.741651773f, 0.749167681f,
  0.756727815f, 0.764332294f, 0.77198112f, 0.779674411f, 0.787412286f,
  0.795194745f, 0.803021908f, 0.810893834f, 0.818810523f, 0.826772213f,
  0.834778786f, 0.842830479f, 0.850927293f, 0.859069228f, 0.867256522f,
  0.875489056f, 0.883767068f, 0.892090559f, 0.900459588f, 0.908874214f,
  0.917334557f, 0.925840616f, 0.934392571f, 0.942990363f, 0.951634169f,
  0.960324049f, 0.969060004f, 0.977842152f, 0.986670554f, 0.995545268f,
};

float inkwell_srgb8_threshold(int k) {
  return (k >= 1 && k <= 255) ? inkwell_srgb_threshold[k] : 0.0f;
}

// Number of thresholds at or below v: the 8-bit code nearest to v's sRGB encoding. A branch-free
// binary search over 256 entries; NaN compares false everywhere and yields 0.
static inline int srgb8_from_linear(float v) {
  const float *t = inkwell_srgb_threshold;
  int k = 0;
  k += (v >= t[k + 128]) ? 128 : 0;
  k += (v >= t[k + 64]) ? 64 : 0;
  k += (v >= t[k + 32]) ? 32 : 0;
  k += (v >= t[k + 16]) ? 16 : 0;
  k += (v >= t[k + 8]) ? 8 : 0;
  k += (v >= t[k + 4]) ? 4 : 0;
  k += (v >= t[k + 2]) ? 2 : 0;
  k += (v >= t[k + 1]) ? 1 : 0;
  return k;
}

static void scalar_resolve_srgb8(const float *tile, int width, int height, uint8_t *out,
                                 intptr_t out_stride) {
  const float *r = tile, *g = tile + P, *b = g + P, *a = b + P;
  for (int y = 0; y < height; y++) {
    uint8_t *o = out + y * out_stride;
    SCALAR_LOOP
    for (int x = 0; x < width; x++) {
      int i = x * T + y;
      float alpha = clampf(a[i], 0.0f, 1.0f);
      float inv = alpha > 0.0f ? 1.0f / alpha : 0.0f;
      o[4 * x + 0] = (uint8_t)srgb8_from_linear(r[i] * inv);
      o[4 * x + 1] = (uint8_t)srgb8_from_linear(g[i] * inv);
      o[4 * x + 2] = (uint8_t)srgb8_from_linear(b[i] * inv);
      o[4 * x + 3] = (uint8_t)(int)(alpha * 255.0f + 0.5f);
    }
  }
}

static void scalar_encode_srgb8(const float *linear, uint8_t *codes, size_t count) {
  SCALAR_LOOP
  for (size_t i = 0; i < count; i++) codes[i] = (uint8_t)srgb8_from_linear(linear[i]);
}

// The scalar level resolves every block (what the vector levels write for a clean block is what
// resolving it gives).
static void scalar_resolve_srgb8_blocks(const float *tile, uint32_t blocks, uint32_t clean_pixel,
                                        uint8_t *out, intptr_t out_stride) {
  (void)blocks;
  (void)clean_pixel;
  scalar_resolve_srgb8(tile, T, T, out, out_stride);
}

static const inkwell_kernel_table scalar_kernels = {
    .accumulate_line = inkwell_scalar_accumulate_line,
    .accumulate_lines = inkwell_scalar_accumulate_lines,
    .add_backdrop = scalar_add_backdrop,
    .resolve_coverage = scalar_resolve_coverage,
    .composite_mask = scalar_composite_mask,
    .fill_coverage = scalar_fill_coverage,
    .fill_lines = scalar_fill_lines,
    .composite_solid = scalar_composite_solid,
    .fill_tile = scalar_fill_tile,
    .resolve_srgb8 = scalar_resolve_srgb8,
    .resolve_srgb8_blocks = scalar_resolve_srgb8_blocks,
    .encode_srgb8 = scalar_encode_srgb8,
};

// MARK: Choosing a level

int inkwell_simd_is_available(inkwell_simd_level level) {
  switch (level) {
  case INKWELL_SIMD_SCALAR:
    return 1;
#if defined(__x86_64__)
  case INKWELL_SIMD_SSE2:
    return 1;
  case INKWELL_SIMD_AVX2:
    // __builtin_cpu_supports also checks that the operating system saves the wide registers.
    return __builtin_cpu_supports("avx2");
  case INKWELL_SIMD_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2");
#endif
#if defined(__aarch64__)
  case INKWELL_SIMD_NEON:
    return 1;
#endif
  default:
    return 0;
  }
}

inkwell_simd_level inkwell_simd_best(void) {
#if defined(__x86_64__)
  return inkwell_simd_is_available(INKWELL_SIMD_AVX2) ? INKWELL_SIMD_AVX2 : INKWELL_SIMD_SSE2;
#elif defined(__aarch64__)
  return INKWELL_SIMD_NEON;
#else
  return INKWELL_SIMD_SCALAR;
#endif
}

const inkwell_kernel_table *inkwell_kernels_for(inkwell_simd_level level) {
  if (!inkwell_simd_is_available(level)) return NULL;
  switch (level) {
  case INKWELL_SIMD_SCALAR:
    return &scalar_kernels;
#if defined(__x86_64__)
  case INKWELL_SIMD_SSE2:
    return &inkwell_sse2_kernels;
  case INKWELL_SIMD_AVX2:
    return &inkwell_avx2_kernels;
  case INKWELL_SIMD_AVX512:
    return &inkwell_avx512_kernels;
#endif
#if defined(__aarch64__)
  case INKWELL_SIMD_NEON:
    return &inkwell_neon_kernels;
#endif
  default:
    return NULL;
  }
}

static const char *const level_names[] = {"scalar", "sse2", "avx2", "avx512", "neon"};

const char *inkwell_simd_name(inkwell_simd_level level) {
  return (level >= INKWELL_SIMD_SCALAR && level <= INKWELL_SIMD_NEON) ? level_names[level] : "unknown";
}

// The level INKWELL_SIMD asks for, with the note to print when it cannot be honoured (or NULL).
static inkwell_simd_level level_from_environment(const char **note) {
  *note = NULL;
  const char *requested = getenv("INKWELL_SIMD");
  inkwell_simd_level best = inkwell_simd_best();
  if (requested == NULL || requested[0] == '\0') return best;
  for (int l = INKWELL_SIMD_SCALAR; l <= INKWELL_SIMD_NEON; l++) {
    if (strcmp(requested, level_names[l]) != 0) continue;
    if (inkwell_simd_is_available((inkwell_simd_level)l)) return (inkwell_simd_level)l;
    *note = "is not available on this machine";
    // The best available level below the one asked for (neon stands alone: its fallback is the
    // default).
    if (l == INKWELL_SIMD_NEON) return best;
    for (int lower = l - 1; lower > INKWELL_SIMD_SCALAR; lower--) {
      if (inkwell_simd_is_available((inkwell_simd_level)lower)) return (inkwell_simd_level)lower;
    }
    return INKWELL_SIMD_SCALAR;
  }
  *note = "is not a level (scalar, sse2, avx2, avx512, neon)";
  return best;
}

static _Atomic int selected_level = -1;

inkwell_simd_level inkwell_simd_selected(void) {
  int level = atomic_load_explicit(&selected_level, memory_order_acquire);
  if (level >= 0) return (inkwell_simd_level)level;
  const char *note;
  int chosen = (int)level_from_environment(&note);
  int expected = -1;
  if (atomic_compare_exchange_strong(&selected_level, &expected, chosen)) {
    if (note != NULL) {
      fprintf(stderr, "inkwell: INKWELL_SIMD=%s %s; using %s\n", getenv("INKWELL_SIMD"), note,
              inkwell_simd_name((inkwell_simd_level)chosen));
    }
    return (inkwell_simd_level)chosen;
  }
  return (inkwell_simd_level)expected;
}

static const inkwell_kernel_table *selected_kernels(void) {
  return inkwell_kernels_for(inkwell_simd_selected());
}

// MARK: Image writes

// Streaming stores write whole cache lines to memory without first reading them into the cache:
// on the Intel Xeon of docs/performance.md plain stores wrote at 7–9 GB/s whatever the size,
// streaming ones at 12 (8 MiB) to 20 GB/s (64 MiB and up), slower than plain below 4 MiB, where
// the buffer stays in the cache. The caller says whether its image is that large; a row must be
// STREAMING_ROW_BYTES long (one of a few cache lines would leave most of them partly written).
enum { STREAMING_ROW_BYTES = 4096 };

// `count` pixels from `pixels`: plain stores up to the first cache line, whole lines streamed,
// plain stores for the rest. The caller fences once after its rows.
static void stream_pixels(uint32_t *pixels, size_t count, uint32_t pixel) {
  size_t i = 0;
#if defined(__SSE2__)
  while (i < count && ((uintptr_t)(pixels + i) & 63) != 0) pixels[i++] = pixel;
  const __m128i v = _mm_set1_epi32((int)pixel);
  for (; i + 16 <= count; i += 16) {
    _mm_stream_si128((__m128i *)(pixels + i), v);
    _mm_stream_si128((__m128i *)(pixels + i + 4), v);
    _mm_stream_si128((__m128i *)(pixels + i + 8), v);
    _mm_stream_si128((__m128i *)(pixels + i + 12), v);
  }
#endif
  for (; i < count; i++) pixels[i] = pixel;
}

// Orders the streamed stores before any store that follows (a worker's signal that its rows are
// done among them).
static void stream_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

void inkwell_fill_pixels(uint8_t *out, intptr_t out_stride, int width, int height, uint32_t pixel,
                         int stream) {
  // As resolve_full_tile does (lanes.h): eight rows ahead, then the next tile's first rows.
  enum { AHEAD = 8 };
  const intptr_t bytes = 4 * (intptr_t)width;
  const uintptr_t origin = (uintptr_t)out;
  // Whole image rows are one run, which the hardware prefetcher follows on its own.
  const int whole = out_stride == bytes;
  const size_t count = (size_t)width * (size_t)(height > 0 ? height : 0);
  if (stream && bytes >= STREAMING_ROW_BYTES) {
    if (whole) {
      stream_pixels((uint32_t *)out, count, pixel);
    } else {
      for (int y = 0; y < height; y++) stream_pixels((uint32_t *)(out + y * out_stride), (size_t)width, pixel);
    }
    stream_fence();
    return;
  }
  if (whole) {
    uint32_t *pixels = (uint32_t *)out;
    for (size_t i = 0; i < count; i++) pixels[i] = pixel;
    return;
  }
  for (int y = 0; y < height; y++) {
    const intptr_t ahead =
        y + AHEAD < height ? (y + AHEAD) * out_stride : bytes + (y + AHEAD - height) * out_stride;
    inkwell_prefetch_row(origin + (uintptr_t)ahead, bytes);
    uint32_t *row = (uint32_t *)(out + y * out_stride);
    for (int x = 0; x < width; x++) row[x] = pixel;
  }
}

// MARK: Entry points on the selected level

void inkwell_accumulate_line(float *cells, float x0, float y0, float x1, float y1) {
  selected_kernels()->accumulate_line(cells, x0, y0, x1, y1);
}

void inkwell_accumulate_lines(float *cells, const float *lines, size_t count) {
  selected_kernels()->accumulate_lines(cells, lines, count);
}

void inkwell_add_backdrop(float *cells, float winding) {
  selected_kernels()->add_backdrop(cells, winding);
}

void inkwell_resolve_coverage(float *cells, float *coverage, inkwell_fill_rule rule) {
  selected_kernels()->resolve_coverage(cells, coverage, rule);
}

void inkwell_composite_mask(float *tile, const float *coverage, const float color[4]) {
  selected_kernels()->composite_mask(tile, coverage, color);
}

void inkwell_fill_coverage(float *tile, float *cells, inkwell_fill_rule rule, const float color[4]) {
  selected_kernels()->fill_coverage(tile, cells, rule, color);
}

void inkwell_fill_lines(float *tile, float *cells, const float *lines, size_t count, float backdrop,
                        inkwell_fill_rule rule, const float color[4], uint32_t *blocks) {
  selected_kernels()->fill_lines(tile, cells, lines, count, backdrop, rule, color, blocks);
}

void inkwell_composite_solid(float *tile, const float color[4], float m) {
  selected_kernels()->composite_solid(tile, color, m);
}

void inkwell_fill_tile(float *tile, const float color[4]) {
  selected_kernels()->fill_tile(tile, color);
}

void inkwell_resolve_srgb8(const float *tile, int width, int height, uint8_t *out,
                           intptr_t out_stride) {
  selected_kernels()->resolve_srgb8(tile, width, height, out, out_stride);
}

void inkwell_resolve_srgb8_blocks(const float *tile, uint32_t blocks, uint32_t clean_pixel, uint8_t *out,
                                  intptr_t out_stride) {
  selected_kernels()->resolve_srgb8_blocks(tile, blocks, clean_pixel, out, out_stride);
}

void inkwell_encode_srgb8(const float *linear, uint8_t *codes, size_t count) {
  selected_kernels()->encode_srgb8(linear, codes, count);
}
