// The vector kernels, written once over clang vector types of LANES floats and included by one
// file per instruction set (kernels_sse2.c, kernels_avx2.c, kernels_avx512.c, kernels_neon.c),
// which first defines:
//   LANES               4, 8 or 16
//   KERNEL(name)        the level's name for a kernel, e.g. inkwell_avx2_##name
//   LANES_FLOOR         1 when the instruction set rounds toward −∞ in one instruction
//   LANES_GATHER_AVX2 / LANES_GATHER_AVX512
//                       to look up the sRGB buckets with a hardware gather (else one load a lane)
//   LANES_RESOLVE       1 to build the 8-bit resolve and encoder here (LANES 4 or 8)
// and the target attribute of its functions (#pragma clang attribute).
//
// Rows are the lanes: a column of the tile (32 pixels, one per row) is 32 / LANES vectors. Each
// lane does exactly what KernelReference does for its pixel, in the same order; see the module
// head in include/InkwellKernels.h. Loads and stores go through memcpy, so no buffer needs more
// than float alignment, and a vector never aliases a float in the type system.

#include "kernels_internal.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

#define T INKWELL_TILE
#define P INKWELL_TILE_PIXELS
#define GROUPS (T / LANES)

typedef float VF __attribute__((vector_size(LANES * 4)));
typedef int32_t VI __attribute__((vector_size(LANES * 4)));
typedef uint32_t VU __attribute__((vector_size(LANES * 4)));

static inline __attribute__((always_inline)) VF load(const float *p) {
  VF v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

static inline __attribute__((always_inline)) void store(float *p, VF v) {
  __builtin_memcpy(p, &v, sizeof v);
}

static inline __attribute__((always_inline)) VF splat(float x) {
  return (VF){0} + x;
}

static inline __attribute__((always_inline)) VI splat_int(int32_t x) {
  return (VI){0} + x;
}

// mask ? a : b, per lane; masks are all ones or all zeros, as comparisons make them.
static inline __attribute__((always_inline)) VF blend(VI mask, VF a, VF b) {
  return (VF)((mask & (VI)a) | (~mask & (VI)b));
}

// a > b ? a : b and a < b ? a : b in each lane (b where either is NaN): one instruction each on
// x86, whose max and min are defined so, where the blend takes a compare and a select. The
// coverage's clamp to 1, the resolves' clamps and the dithered one's largest channel: 0.94–0.98×
// the cycles of the plain resolve, 0.94–0.96× of the dithered one (Benchmarks/kernel-ab, the four
// scenes' tiles).
static inline __attribute__((always_inline)) VF larger(VF a, VF b) {
#if defined(__x86_64__) && LANES == 4
  return (VF)_mm_max_ps((__m128)a, (__m128)b);
#elif defined(__x86_64__) && LANES == 8
  return (VF)_mm256_max_ps((__m256)a, (__m256)b);
#elif defined(__x86_64__) && LANES == 16
  return (VF)_mm512_max_ps((__m512)a, (__m512)b);
#else
  return blend(a > b, a, b);
#endif
}

static inline __attribute__((always_inline)) VF smaller(VF a, VF b) {
#if defined(__x86_64__) && LANES == 4
  return (VF)_mm_min_ps((__m128)a, (__m128)b);
#elif defined(__x86_64__) && LANES == 8
  return (VF)_mm256_min_ps((__m256)a, (__m256)b);
#elif defined(__x86_64__) && LANES == 16
  return (VF)_mm512_min_ps((__m512)a, (__m512)b);
#else
  return blend(a < b, a, b);
#endif
}

static inline __attribute__((always_inline)) VF absolute(VF v) {
  return (VF)((VI)v & 0x7fffffff);
}

// floorf for x ≥ 0 or NaN.
static inline __attribute__((always_inline)) VF floor_nonnegative(VF x) {
#if LANES_FLOOR
  return __builtin_elementwise_floor(x);
#else
  // Truncation is floor for x ≥ 0; from 2^23 up every float is an integer (and NaN stays NaN).
  // Out-of-range lanes are zeroed before the conversion, which would otherwise be undefined.
  VI small = x < splat(0x1p23f);
  VF safe = blend(small, x, splat(0.0f));
  VF truncated = __builtin_convertvector(__builtin_convertvector(safe, VI), VF);
  return blend(small, truncated, x);
#endif
}

// Coverage of running sums under a fill rule (KernelReference.coverage(winding:rule:)), zero
// under INKWELL_COVERAGE_FLOOR.
static inline __attribute__((always_inline)) VF coverage_nonzero(VF sum) {
  VF m = smaller(absolute(sum), splat(1.0f));
  return blend(m < splat(INKWELL_COVERAGE_FLOOR), splat(0.0f), m);
}

static inline __attribute__((always_inline)) VF coverage_evenodd(VF sum) {
  VF a = absolute(sum);
  VF m = a - splat(2.0f) * floor_nonnegative(a * splat(0.5f));
  m = blend(m > splat(1.0f), splat(2.0f) - m, m);
  return blend(m < splat(INKWELL_COVERAGE_FLOOR), splat(0.0f), m);
}

static inline __attribute__((always_inline)) VI blend_int(VI mask, VI a, VI b) {
  return (mask & a) | (~mask & b);
}

// v < 0 ? 0 : v, then v > T ? T : v: with the bound first, NaN and −0 stay as they are.
static inline __attribute__((always_inline)) VF clamp_tile(VF v) {
  return smaller(splat((float)T), larger(splat(0.0f), v));
}

// The adds of one row segment a lane (row, from → to, signed height dy) that spans at most
// `cells` cells (2 or 3, a constant): what the scalar accumulate_row (kernels.c) adds, with the
// same operations. One cell: dy split by the mean x offset. More: parts split at the cell
// borders, each cell after the first adding its own part's left share plus the part before's
// right share, as the scalar carry does; a middle cell's part spans the whole cell, from left + 1
// to left + 2. Lanes in `none`, and the cells a shorter segment does not reach, add 0 to their
// spare cell (`spare` + k times LANES for add k); `wide` marks the lanes whose segment spans more
// than `cells` cells (left to the scalar code). The first pass takes two cells (three adds); the
// second, whose segments are long pieces', three (four adds): a shallow piece, two to three
// pixels across for each pixel down, crosses three cells in a row, and on notes a third of the
// second pass's batches held one and had gone lane by lane through the scalar row (with three,
// `fill_lines` takes 0.95× the cycles on the calls of notes and thumbs, 0.96× on sketch's, 0.98×
// on the highlighter's, medians of four processes of Benchmarks/kernel-ab, to the same floats).
static inline __attribute__((always_inline)) void segment_adds(VI row, VF from, VF to, VF dy, VI none,
                                                               VI spare, int cells, VI index[],
                                                               VF value[], VI *wide) {
  VF xl = smaller(from, to);
  VF xr = larger(to, from);
  VI cl = __builtin_convertvector(xl, VI);
  cl = blend_int(cl > splat_int(T), splat_int(T), cl);
  VF left = __builtin_convertvector(cl, VF);
  VF mid = left + splat(1.0f);
  VF mid2 = left + splat(2.0f);
  VI one = xr <= mid;
  VI three = cells == 3 ? xr > mid2 : splat_int(0);
  *wide = (xr > left + splat((float)cells)) & ~none;
  VF inv = dy / (xr - xl);
  VF partA = blend(one, dy, (mid - xl) * inv);
  VF fxA = (xl + blend(one, xr, mid)) * splat(0.5f) - left;
  VF partM = (mid2 - mid) * inv;
  VF fxM = (mid + mid2) * splat(0.5f) - mid;
  VF start = blend(three, mid2, mid);
  VF partB = (xr - start) * inv;
  VF fxB = (start + xr) * splat(0.5f) - start;
  VF a0 = partA * (splat(1.0f) - fxA);
  VF a1 = partA * fxA;
  VF restB = partB * (splat(1.0f) - fxB);
  VI base = cl * INKWELL_CELL_STRIDE + row;
  index[0] = blend_int(none, spare, base);
  value[0] = blend(none, splat(0.0f), blend(one, a0, splat(0.0f) + a0));
  index[1] = blend_int(none, spare + LANES, base + INKWELL_CELL_STRIDE);
  value[1] = blend(none, splat(0.0f), blend(one, a1, a1 + blend(three, partM * (splat(1.0f) - fxM), restB)));
  index[2] = blend_int(none | one, spare + 2 * LANES, base + 2 * INKWELL_CELL_STRIDE);
  value[2] = blend(none | one, splat(0.0f), blend(three, partM * fxM + restB, partB * fxB));
  if (cells == 3) {
    VI last = three & ~none;
    index[3] = blend_int(last, base + 3 * INKWELL_CELL_STRIDE, spare + 3 * LANES);
    value[3] = blend(last, partB * fxB, splat(0.0f));
  }
}

static inline __attribute__((always_inline)) VI lane_numbers(void) {
  VI lane;
  for (int l = 0; l < LANES; l++) lane[l] = l;
  return lane;
}

// The ends of LANES consecutive pieces (x0, y0, x1, y1 each), one vector a coordinate, lane l
// from piece l. With 4 or 8 lanes, the pieces are loaded whole and transposed four by four (each
// vector half a 4 × 4 transpose): 16 instructions for 8 pieces where inserting each float into
// its lane took 36, most of them on the one shuffle port.
static inline __attribute__((always_inline)) void load_pieces(const float *lines, VF *x0, VF *y0, VF *x1,
                                                              VF *y1) {
#if LANES == 4 || LANES == 8
  typedef float V4 __attribute__((vector_size(16)));
  VF a[4];
  for (int k = 0; k < 4; k++) {
#if LANES == 4
    __builtin_memcpy(&a[k], lines + 4 * k, sizeof(V4));
#else
    V4 low, high;
    __builtin_memcpy(&low, lines + 4 * k, sizeof low);
    __builtin_memcpy(&high, lines + 4 * (k + 4), sizeof high);
    a[k] = __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7);
#endif
  }
  // Within each group of four lanes: t0 = (a0.x0, a1.x0, a0.y0, a1.y0), t1 = (a0.x1, a1.x1,
  // a0.y1, a1.y1), t2 and t3 the same for a2 and a3.
#if LANES == 4
  VF t0 = __builtin_shufflevector(a[0], a[1], 0, 4, 1, 5);
  VF t1 = __builtin_shufflevector(a[0], a[1], 2, 6, 3, 7);
  VF t2 = __builtin_shufflevector(a[2], a[3], 0, 4, 1, 5);
  VF t3 = __builtin_shufflevector(a[2], a[3], 2, 6, 3, 7);
  *x0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  *y0 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  *x1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  *y1 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
#else
  VF t0 = __builtin_shufflevector(a[0], a[1], 0, 8, 1, 9, 4, 12, 5, 13);
  VF t1 = __builtin_shufflevector(a[0], a[1], 2, 10, 3, 11, 6, 14, 7, 15);
  VF t2 = __builtin_shufflevector(a[2], a[3], 0, 8, 1, 9, 4, 12, 5, 13);
  VF t3 = __builtin_shufflevector(a[2], a[3], 2, 10, 3, 11, 6, 14, 7, 15);
  *x0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
  *y0 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  *x1 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
  *y1 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
#endif
#else
  for (int l = 0; l < LANES; l++) {
    (*x0)[l] = lines[4 * l];
    (*y0)[l] = lines[4 * l + 1];
    (*x1)[l] = lines[4 * l + 2];
    (*y1)[l] = lines[4 * l + 3];
  }
#endif
}

// Line accumulation, LANES pieces at a time: each lane computes what the scalar accumulate_line
// (kernels.c) adds for its piece, with the same operations, for pieces that cross at most two
// pixel rows and, within each, at most two cells (nearly all of a flattened outline's pieces,
// which are about a pixel long). That is at most three adds a row; adds that would carry nothing
// go to spare cells past INKWELL_CELL_COUNT, one per lane and slot, so that no add waits on an
// unrelated one. The adds themselves then run in piece order, so each cell sums the same values
// in the same order as the scalar loop: bit-identical. Longer pieces are set aside for the
// second pass of their chunk (INKWELL_LINE_CHUNK; the scalar level and the reference keep the
// same order). The scalar loop spent most of its time on the dependent chain of branch, convert
// and compare per piece; the vector form has no data-dependent branch.
static inline __attribute__((always_inline)) void accumulate_batch(float *cells, const float *lines,
                                                                  const float *origin, VF box[4],
                                                                  const float **deferred, int *deferred_count) {
  const VI spare = lane_numbers() + INKWELL_CELL_COUNT;
  VF x0, y0, x1, y1;
  load_pieces(lines, &x0, &y0, &x1, &y1);
  x0 = clamp_tile(x0);
  y0 = clamp_tile(y0);
  x1 = clamp_tile(x1);
  y1 = clamp_tile(y1);
  VI skip = (y0 == y1) | (x0 != x0) | (y0 != y0) | (x1 != x1) | (y1 != y1);
  if (box) {
    // The extent of the pieces that add anything (min x, max x, min y, max y), for fill_lines.
    box[0] = blend(skip, box[0], smaller(x0, box[0]));
    box[0] = blend(skip, box[0], smaller(x1, box[0]));
    box[1] = blend(skip, box[1], larger(x0, box[1]));
    box[1] = blend(skip, box[1], larger(x1, box[1]));
    box[2] = blend(skip, box[2], smaller(y0, box[2]));
    box[2] = blend(skip, box[2], smaller(y1, box[2]));
    box[3] = blend(skip, box[3], larger(y0, box[3]));
    box[3] = blend(skip, box[3], larger(y1, box[3]));
  }
  // Top end first.
  VI down = y0 > y1;
  VF dir = blend(down, splat(-1.0f), splat(1.0f));
  VF ya = blend(down, y1, y0), yb = blend(down, y0, y1);
  VF xa = blend(down, x1, x0), xb = blend(down, x0, x1);
  VI r0 = __builtin_convertvector(ya, VI);
  VI r1 = __builtin_convertvector(yb, VI);
  r1 -= __builtin_convertvector(r1, VF) < yb;  // ceil: a true mask is −1
  VI rows = r1 - r0;
  VI two = rows == splat_int(2);
  VI slow = (rows > splat_int(2)) & ~skip;
  // The row segments: one-row pieces keep their own ends; two-row ones split at ym.
  VF ym = __builtin_convertvector(r0 + 1, VF);
  VF dxdy = (xb - xa) / (yb - ya);
  VF xm = clamp_tile(xa + (ym - ya) * dxdy);
  VF xe = clamp_tile(xa + (yb - ya) * dxdy);
  VI index[6];
  VF value[6];
  VI wide;
  segment_adds(r0, xa, blend(two, xm, xb), blend(two, (ym - ya) * dir, (yb - ya) * dir), skip, spare, 2,
               index, value, &wide);
  slow |= wide;
  segment_adds(r0 + 1, xm, xe, (yb - ym) * dir, skip | ~two, spare + 3 * LANES, 2, index + 3, value + 3,
               &wide);
  slow |= wide;
  if (__builtin_reduce_or(slow)) {
    // The long pieces' lanes add zeros to their spare cells, and their pieces are listed by
    // count, not by a branch a lane: which pieces cross three rows follows the outline, and on
    // the thumbnail pages that branch was the fill's most mispredicted (0.98× the time without
    // it). Every real cell takes the same adds in the same order.
    int32_t listed[LANES];
    __builtin_memcpy(listed, &slow, sizeof listed);
    int n = *deferred_count;
    for (int l = 0; l < LANES; l++) {
      deferred[n] = origin + 4 * l;
      n -= listed[l];
    }
    *deferred_count = n;
    for (int k = 0; k < 6; k++) {
      index[k] = blend_int(slow, spare + k * LANES, index[k]);
      value[k] = blend(slow, splat(0.0f), value[k]);
    }
  }
  int32_t at[6][LANES];
  float add[6][LANES];
  for (int k = 0; k < 6; k++) {
    __builtin_memcpy(at[k], &index[k], sizeof index[k]);
    __builtin_memcpy(add[k], &value[k], sizeof value[k]);
  }
  for (int l = 0; l < LANES; l++) {
    for (int k = 0; k < 6; k++) cells[at[k][l]] += add[k][l];
  }
}

// The second pass: each long piece is cut into its row segments exactly as the scalar
// accumulate_line cuts it (each row's ends from the piece's own slope), and the segments,
// gathered over the chunk's long pieces, are added LANES at a time with a one-row form of up to
// three cells, in order; a segment across more than three takes the scalar row in its turn. The same adds
// in the same order as the scalar loop over the long pieces, so bit-identical; and the batches
// are full, where a wider first-pass batch paid for the one long piece it usually held (tried and
// dropped, docs/performance.md). Notes fill about 0.95× the time, sketch 0.95× (interleaved
// runs); notes and the highlighter render to the same bytes as in piece order, sketch differs in
// two bytes, by one.

// The row segments of the long pieces of a chunk, structure of arrays, LANES spare slots so that a
// partial last batch can be read whole.
enum { SEGMENT_CAPACITY = 512 };
typedef struct {
  int32_t row[SEGMENT_CAPACITY + LANES];
  float from[SEGMENT_CAPACITY + LANES];
  float to[SEGMENT_CAPACITY + LANES];
  float dy[SEGMENT_CAPACITY + LANES];
  int count;
} row_segments;

static inline __attribute__((always_inline)) float clamp_scalar(float v) {
  return v < 0.0f ? 0.0f : (v > (float)T ? (float)T : v);
}

// Adds the segments, LANES at a time, in order, with segment_adds of three cells; a segment
// across more than three cells goes to the scalar row in its turn. The slots past the last segment are zeroed
// first, so that a partial last batch reads defined values (masked off).
static void add_segments(float *cells, row_segments *segments) {
  const VI spare = lane_numbers() + INKWELL_CELL_COUNT;
  const int count = segments->count;
  for (int k = count; k < count + LANES; k++) {
    segments->row[k] = 0;
    segments->from[k] = segments->to[k] = segments->dy[k] = 0.0f;
  }
  for (int i = 0; i < count; i += LANES) {
    VI none = (lane_numbers() + i) >= splat_int(count);
    VI row;
    __builtin_memcpy(&row, segments->row + i, sizeof row);
    row = blend_int(none, splat_int(0), row);
    VF from = blend(none, splat(0.0f), load(segments->from + i));
    VF to = blend(none, splat(0.0f), load(segments->to + i));
    VF dy = blend(none, splat(0.0f), load(segments->dy + i));
    VI index[4];
    VF value[4];
    VI wide;
    segment_adds(row, from, to, dy, none, spare, 3, index, value, &wide);
    int32_t at[4][LANES];
    float add[4][LANES];
    for (int k = 0; k < 4; k++) {
      __builtin_memcpy(at[k], &index[k], sizeof index[k]);
      __builtin_memcpy(add[k], &value[k], sizeof value[k]);
    }
    if (__builtin_reduce_or(wide)) {
      for (int l = 0; l < LANES; l++) {
        if (wide[l]) {
          inkwell_scalar_accumulate_row(cells, row[l], from[l], to[l], dy[l]);
          continue;
        }
        for (int k = 0; k < 4; k++) cells[at[k][l]] += add[k][l];
      }
    } else {
      for (int l = 0; l < LANES; l++) {
        for (int k = 0; k < 4; k++) cells[at[k][l]] += add[k][l];
      }
    }
  }
  segments->count = 0;
}

// A long piece's row segments, as the scalar accumulate_line (kernels.c) makes them, written from
// slot `n` on; returns the next free slot. A piece across several rows takes LANES rows a step:
// row r's lower end is min(r + 1, y1) and its upper end the row before's lower end, which is r
// itself (r < y1 for every row up to ⌈y1⌉), so each lane computes the scalar loop's ends with the
// same operations. The scalar loop skips a row whose ends meet, which finite pieces never have;
// if one does, the piece is cut again by the scalar loop. It writes up to LANES − 1 slots past the
// ones it returns (the caller leaves room). The row-by-row loop took 25 instructions a row: with
// this form notes and the highlighter fill in 0.98× and 0.97× the instructions, 0.96–0.97× the
// time (interleaved runs), to the same bytes.
static inline __attribute__((always_inline)) int split_rows(const float *p, int32_t *restrict rows,
                                                            float *restrict froms, float *restrict tos,
                                                            float *restrict dys, int n) {
  float x0 = clamp_scalar(p[0]), y0 = clamp_scalar(p[1]), x1 = clamp_scalar(p[2]), y1 = clamp_scalar(p[3]);
  float dir;
  int r0, r1;
  inkwell_orient_piece(&x0, &y0, &x1, &y1, &dir, &r0, &r1);
  if (r1 - r0 == 1) {
    rows[n] = r0;
    froms[n] = x0;
    tos[n] = x1;
    dys[n] = (y1 - y0) * dir;
    return n + 1;
  }
  float dxdy = (x1 - x0) / (y1 - y0);
  const int count = r1 - r0;
  VI meet = splat_int(0);
  for (int k = 0; k < count; k += LANES) {
    VI r = splat_int(r0 + k) + lane_numbers();
    VF top = __builtin_convertvector(r, VF);
    VF next = __builtin_convertvector(r + 1, VF);
    VF yb = blend(next < splat(y1), next, splat(y1));
    VF xb = clamp_tile(splat(x0) + (yb - splat(y0)) * splat(dxdy));
    VI first = r == splat_int(r0);
    VF ya = blend(first, splat(y0), top);
    VF xa = blend(first, splat(x0), clamp_tile(splat(x0) + (top - splat(y0)) * splat(dxdy)));
    meet |= ~(yb > ya) & (r < splat_int(r1));
    __builtin_memcpy(rows + n + k, &r, sizeof r);
    __builtin_memcpy(froms + n + k, &xa, sizeof xa);
    __builtin_memcpy(tos + n + k, &xb, sizeof xb);
    VF dy = (yb - ya) * splat(dir);
    __builtin_memcpy(dys + n + k, &dy, sizeof dy);
  }
  if (!__builtin_reduce_or(meet)) return n + count;
  float ya = y0, xa = x0;
  for (int r = r0; r < r1; r++) {
    float yb = (float)(r + 1) < y1 ? (float)(r + 1) : y1;
    float xb = clamp_scalar(x0 + (yb - y0) * dxdy);
    rows[n] = r;
    froms[n] = xa;
    tos[n] = xb;
    dys[n] = (yb - ya) * dir;
    n += yb > ya;
    ya = yb;
    xa = xb;
  }
  return n;
}

static inline __attribute__((always_inline)) void accumulate_all(float *cells, const float *lines,
                                                                size_t count, VF box[4]) {
  // A batch lists each of its lanes before counting the long ones: room for one batch more.
  const float *deferred[INKWELL_LINE_CHUNK + LANES];
  row_segments segments;
  segments.count = 0;
  for (size_t chunk = 0; chunk < count; chunk += INKWELL_LINE_CHUNK) {
    const size_t end = count - chunk < INKWELL_LINE_CHUNK ? count : chunk + INKWELL_LINE_CHUNK;
    int deferred_count = 0;
    size_t i = chunk;
    for (; i + LANES <= end; i += LANES) {
      accumulate_batch(cells, lines + 4 * i, lines + 4 * i, box, deferred, &deferred_count);
    }
    if (i < end) {
      // The last few pieces, padded with level ones (which add nothing) to a full batch.
      float rest[4 * LANES] = {0};
      __builtin_memcpy(rest, lines + 4 * i, (end - i) * 4 * sizeof(float));
      accumulate_batch(cells, rest, lines + 4 * i, box, deferred, &deferred_count);
    }
    // Then the chunk's long pieces, in order, row by row.
    int n = 0;
    for (int d = 0; d < deferred_count; d++) {
      if (n > SEGMENT_CAPACITY - (T + 1)) {
        segments.count = n;
        add_segments(cells, &segments);
        n = 0;
      }
      n = split_rows(deferred[d], segments.row, segments.from, segments.to, segments.dy, n);
    }
    segments.count = n;
    if (segments.count > 0) add_segments(cells, &segments);
  }
}

static void KERNEL(accumulate_lines)(float *cells, const float *lines, size_t count) {
  accumulate_all(cells, lines, count, 0);
}

static void KERNEL(add_backdrop)(float *cells, float winding) {
  for (int g = 0; g < GROUPS; g++) store(cells + g * LANES, load(cells + g * LANES) + winding);
}

static inline __attribute__((always_inline)) void resolve_coverage_rule(float *cells, float *coverage,
                                                                        inkwell_fill_rule rule) {
  VF sum[GROUPS];
  for (int g = 0; g < GROUPS; g++) sum[g] = splat(0.0f);
  for (int c = 0; c < T; c++) {
    float *column = cells + c * INKWELL_CELL_STRIDE;
    for (int g = 0; g < GROUPS; g++) {
      sum[g] += load(column + g * LANES);
      VF m = rule == INKWELL_FILL_NONZERO ? coverage_nonzero(sum[g]) : coverage_evenodd(sum[g]);
      store(coverage + c * T + g * LANES, m);
      store(column + g * LANES, splat(0.0f));
    }
  }
  for (int i = T * INKWELL_CELL_STRIDE; i < INKWELL_CELL_COUNT; i += LANES) store(cells + i, splat(0.0f));
}

static void KERNEL(resolve_coverage)(float *cells, float *coverage, inkwell_fill_rule rule) {
  if (rule == INKWELL_FILL_NONZERO) {
    resolve_coverage_rule(cells, coverage, INKWELL_FILL_NONZERO);
  } else {
    resolve_coverage_rule(cells, coverage, INKWELL_FILL_EVENODD);
  }
}

// Dc' = Sc·m + Dc·(1 − Sa·m) for the LANES pixels at `i` of each plane.
static inline __attribute__((always_inline)) void composite_lanes(float *tile, int i, VF m,
                                                                  const VF s[4]) {
  VF keep = splat(1.0f) - s[3] * m;
  for (int p = 0; p < 4; p++) {
    float *d = tile + p * P + i;
    store(d, s[p] * m + load(d) * keep);
  }
}

static void KERNEL(composite_mask)(float *tile, const float *coverage, const float color[4]) {
  const VF s[4] = {splat(color[0]), splat(color[1]), splat(color[2]), splat(color[3])};
  for (int i = 0; i < P; i += LANES) {
    VF m = load(coverage + i);
    // Where m = 0 the formula leaves Dc as it is (Sc·0 + Dc·1), so such groups are skipped: a
    // painted stroke (pencil, crayon, watercolor) covers a small part of most tiles it reaches.
    if (__builtin_reduce_or(m != splat(0.0f)) == 0) continue;
    composite_lanes(tile, i, m, s);
  }
}

static inline __attribute__((always_inline)) void fill_coverage_rule(float *tile, float *cells,
                                                                     inkwell_fill_rule rule,
                                                                     const VF s[4]) {
  VF sum[GROUPS];
  for (int g = 0; g < GROUPS; g++) sum[g] = splat(0.0f);
  for (int c = 0; c < T; c++) {
    float *column = cells + c * INKWELL_CELL_STRIDE;
    for (int g = 0; g < GROUPS; g++) {
      sum[g] += load(column + g * LANES);
      store(column + g * LANES, splat(0.0f));
      VF m = rule == INKWELL_FILL_NONZERO ? coverage_nonzero(sum[g]) : coverage_evenodd(sum[g]);
      // Where m = 0 the formula leaves Dc as it is (Sc·0 + Dc·1), so such groups are skipped.
      if (__builtin_reduce_or(m != splat(0.0f)) == 0) continue;
      composite_lanes(tile, c * T + g * LANES, m, s);
    }
  }
  for (int i = T * INKWELL_CELL_STRIDE; i < INKWELL_CELL_COUNT; i += LANES) store(cells + i, splat(0.0f));
}

static void KERNEL(fill_coverage)(float *tile, float *cells, inkwell_fill_rule rule,
                                  const float color[4]) {
  const VF s[4] = {splat(color[0]), splat(color[1]), splat(color[2]), splat(color[3])};
  if (rule == INKWELL_FILL_NONZERO) {
    fill_coverage_rule(tile, cells, INKWELL_FILL_NONZERO, s);
  } else {
    fill_coverage_rule(tile, cells, INKWELL_FILL_EVENODD, s);
  }
}

// The block-mask bits (INKWELL_ALL_BLOCKS) of the leftmost block column for the rows of group g:
// rows g·LANES ..< (g + 1)·LANES, one block row for 4 or 8 lanes, two for 16. Shifted left by a
// block column, they mark that column's blocks of the group.
static inline __attribute__((always_inline)) uint32_t group_blocks(int g) {
  uint32_t bits = 0;
  for (int y = (g * LANES) / 8; y <= (g * LANES + LANES - 1) / 8; y++) bits |= 1u << (4 * y);
  return bits;
}

// fill_coverage_rule over the part of the tile that one primitive's adds can reach: columns
// [first, cells_end) hold its adds (cells_end may pass T, into the cells past the edge), and only
// the row groups set in `groups` were added to. Everywhere else the cells are zero, so
// fill_coverage_rule would add zeros to the running sums: left of `first` (with no backdrop)
// and in the other groups the sums stay zero, which it skips; from cells_end on each sum stays
// what it was, so the coverage of each row is one value to the tile's right edge. The same
// operations on every pixel that fill_coverage_rule composites, so the same floats. A row group
// at a time, its columns in order (each lane's sum runs along its row as before; groups touch
// disjoint pixels): the sum stays in a register, where across the groups of a column it had gone
// through memory, one store and load a column.
//
// Within the span every column is composited, covered or not: where m = 0 the formula gives
// Sc·0 + Dc·1, Dc itself under the kernels' contract (finite colors, no −0 in the tile), as it
// already did for the uncovered lanes of a covered column. Skipping the uncovered columns had
// been a branch on the outline's shape, wrong often enough on thumbnails that compositing them
// is cheaper: the 200 thumbnail pages fill in 0.97× the time, notes, sketch and the highlighter
// in 0.96–0.99× (big 1.01×) for 5–8 % more instructions. Only covered columns mark their blocks.
static inline __attribute__((always_inline)) void fill_span_rule(float *tile, float *cells,
                                                                 inkwell_fill_rule rule, const VF s[4],
                                                                 int first, int cells_end,
                                                                 unsigned groups, uint32_t *blocks) {
  uint32_t marked = 0;
  const int end = cells_end < T ? cells_end : T;
  for (int g = 0; g < GROUPS; g++) {
    if (!(groups >> g & 1)) continue;
    VF sum = splat(0.0f);
    // Block columns with coverage: bit c >> 3.
    uint32_t columns = 0;
    for (int c = first; c < end; c++) {
      float *cell = cells + c * INKWELL_CELL_STRIDE + g * LANES;
      sum += load(cell);
      store(cell, splat(0.0f));
      VF m = rule == INKWELL_FILL_NONZERO ? coverage_nonzero(sum) : coverage_evenodd(sum);
      const uint32_t covered = __builtin_reduce_or(m != splat(0.0f)) != 0;
      composite_lanes(tile, c * T + g * LANES, m, s);
      columns |= covered << (c >> 3);
    }
    VF m = rule == INKWELL_FILL_NONZERO ? coverage_nonzero(sum) : coverage_evenodd(sum);
    if (end < T && __builtin_reduce_or(m != splat(0.0f))) {
      for (int c = end; c < T; c++) composite_lanes(tile, c * T + g * LANES, m, s);
      // Block columns end / 8 through 3.
      columns |= (0xfu << (end >> 3)) & 0xfu;
    }
    // Each marked block column in each of the group's block rows.
    marked |= columns * group_blocks(g);
  }
  for (int i = T * INKWELL_CELL_STRIDE; i < cells_end * INKWELL_CELL_STRIDE; i += LANES) {
    store(cells + i, splat(0.0f));
  }
  if (blocks) *blocks |= marked;
}

// add_backdrop, accumulate_lines and fill_coverage in one call, with the fill limited to the
// columns and row groups the pieces reach (fill_span_rule). A thin stroke crossing a tile reaches
// one or two of its row groups, or a few of its columns.
static void KERNEL(fill_lines)(float *tile, float *cells, const float *lines, size_t count, float backdrop,
                               inkwell_fill_rule rule, const float color[4], uint32_t *blocks) {
  if (backdrop != 0.0f) KERNEL(add_backdrop)(cells, backdrop);
  VF box[4] = {splat(__builtin_inff()), splat(-__builtin_inff()), splat(__builtin_inff()),
               splat(-__builtin_inff())};
  accumulate_all(cells, lines, count, box);
  // Pieces are clamped into 0…T before they reach the box.
  float min_x = box[0][0], max_x = box[1][0], min_y = box[2][0], max_y = box[3][0];
  for (int l = 1; l < LANES; l++) {
    min_x = box[0][l] < min_x ? box[0][l] : min_x;
    max_x = box[1][l] > max_x ? box[1][l] : max_x;
    min_y = box[2][l] < min_y ? box[2][l] : min_y;
    max_y = box[3][l] > max_y ? box[3][l] : max_y;
  }
  int first = 0, cells_end = 0;
  unsigned groups = 0;
  if (min_x <= max_x) {
    // A piece adds to the cells of columns ⌊x⌋ (at most T) and the one after, for x along it,
    // and to the rows it crosses, ⌊y⌋ up to at most T − 1.
    first = (int)min_x;
    cells_end = ((int)max_x < T ? (int)max_x : T) + 2;
    int top = (int)min_y / LANES;
    int bottom = ((int)max_y < T - 1 ? (int)max_y : T - 1) / LANES;
    for (int g = top; g <= bottom; g++) groups |= 1u << g;
  }
  if (backdrop != 0.0f) {
    // The backdrop is in column 0 of every row.
    first = 0;
    if (cells_end < 1) cells_end = 1;
    groups = (1u << GROUPS) - 1;
  }
  if (groups == 0) return;
  const VF s[4] = {splat(color[0]), splat(color[1]), splat(color[2]), splat(color[3])};
  if (rule == INKWELL_FILL_NONZERO) {
    fill_span_rule(tile, cells, INKWELL_FILL_NONZERO, s, first, cells_end, groups, blocks);
  } else {
    fill_span_rule(tile, cells, INKWELL_FILL_EVENODD, s, first, cells_end, groups, blocks);
  }
}

// Dc' = Sc·m + Dc·(1 − Sa·m), m constant over the tile.
static void KERNEL(composite_solid)(float *tile, const float color[4], float m) {
  const float keep = 1.0f - color[3] * m;
  for (int p = 0; p < 4; p++) {
    float *plane = tile + p * P;
    const float s = color[p] * m;
    for (int i = 0; i < P; i += LANES) store(plane + i, splat(s) + load(plane + i) * keep);
  }
}

static void KERNEL(fill_tile)(float *tile, const float color[4]) {
  for (int p = 0; p < 4; p++) {
    VF v = splat(color[p] + 0.0f);
    for (int i = 0; i < P; i += LANES) store(tile + p * P + i, v);
  }
}

#if LANES_RESOLVE

static inline __attribute__((always_inline)) VI bucket_entries(VI index) {
#if LANES_GATHER_AVX2
  return (VI)_mm256_i32gather_epi32((const int *)inkwell_srgb8_buckets, (__m256i)index, 4);
#elif LANES_GATHER_AVX512
  return (VI)_mm512_i32gather_epi32((__m512i)index, inkwell_srgb8_buckets, 4);
#else
  VI entries;
  for (int l = 0; l < LANES; l++) entries[l] = (int32_t)inkwell_srgb8_buckets[index[l]];
  return entries;
#endif
}

// The nearest 8-bit sRGB code of each lane (see kernels_internal.h for the bucket table).
static inline __attribute__((always_inline)) VI encode_lanes(VF v) {
  // v > lowest ? v : lowest sends NaN to the lowest bucket, like the search sends it to code 0.
  VF c = smaller(larger(v, splat(INKWELL_SRGB8_LOWEST)), splat(INKWELL_SRGB8_HIGHEST));
  VI bits = (VI)c;
  VI entry = bucket_entries((bits >> 16) - INKWELL_SRGB8_FIRST_BUCKET);
  // (low ≥ threshold) is −1 where true.
  return (entry >> 17) - ((bits & 0xffff) >= (entry & 0x1ffff));
}

// The straight color of LANES pixels at `i` of each plane (premultiplied color over alpha clamped
// to 0…1, 0 where alpha is not positive) and their alpha byte, as resolve.c's loop takes them.
static inline __attribute__((always_inline)) void unpremultiply_lanes(const float *tile, int i, VF rgb[3],
                                                                      VU *a8) {
  VF a = load(tile + 3 * P + i);
  if (__builtin_reduce_and(a == splat(1.0f))) {
    // Opaque: the division below would be by 1 and each product the color itself. Over an
    // opaque page alpha stays exactly 1 under source-over: Sa·m + fl(1 − Sa·m) is 1 within half
    // a unit below 1, which rounds to 1.
    for (int c = 0; c < 3; c++) rgb[c] = load(tile + c * P + i);
    *a8 = (VU){0} + 255u;
    return;
  }
  // alpha < 0 ? 0 : (alpha > 1 ? 1 : alpha), NaN kept.
  VF alpha = blend(a > splat(1.0f), splat(1.0f), a);
  alpha = blend(a < splat(0.0f), splat(0.0f), alpha);
  VI positive = alpha > splat(0.0f);
  VF inverse = blend(positive, splat(1.0f) / alpha, splat(0.0f));
  for (int c = 0; c < 3; c++) rgb[c] = load(tile + c * P + i) * inverse;
  VF scaled = alpha * splat(255.0f) + splat(0.5f);
  // NaN alpha gives byte 0, as the scalar conversion does on x86-64.
  *a8 = (VU)__builtin_convertvector(blend(scaled == scaled, scaled, splat(0.0f)), VI);
}

// Straight-alpha RGBA8 of LANES pixels at `i` of each plane, packed little-endian in a lane.
static inline __attribute__((always_inline)) VU resolve_lanes(const float *tile, int i) {
  VF rgb[3];
  VU a8;
  unpremultiply_lanes(tile, i, rgb, &a8);
  VF red = rgb[0], green = rgb[1], blue = rgb[2];
  // Paper: every channel at or above the threshold of code 255 (NaN never is) is code 255
  // without the lookups. On a page of dark ink most lanes that are not exactly the paper's color
  // are this close to it (the faint edges of strokes): on the notes scene 44 % of the groups that
  // reach this function.
  const VF top = splat(inkwell_srgb_threshold[255]);
  if (__builtin_reduce_and((red >= top) & (green >= top) & (blue >= top))) {
    return (VU){0} + 0xffffffu | (a8 << 24);
  }
  // Gray and black ink over white paper give equal channels in every lane (and dark blue ink
  // equal red and green): a channel equal to one already encoded takes its codes, sparing a
  // gather. Exact: equal floats encode alike (NaN is never equal; −0 and +0 share a code).
  VU r = (VU)encode_lanes(red);
  VU g = __builtin_reduce_and(green == red) ? r : (VU)encode_lanes(green);
  VU b = __builtin_reduce_and(blue == green) ? g
         : __builtin_reduce_and(blue == red) ? r
                                             : (VU)encode_lanes(blue);
  return r | (g << 8) | (b << 16) | (a8 << 24);
}

// Rows of a LANES × LANES block: in[j] holds column j (lanes are rows); out[k] holds row k.
static inline __attribute__((always_inline)) void transpose(const VU in[LANES], VU out[LANES]) {
#if LANES == 4
  VU t0 = __builtin_shufflevector(in[0], in[1], 0, 4, 1, 5);
  VU t1 = __builtin_shufflevector(in[0], in[1], 2, 6, 3, 7);
  VU t2 = __builtin_shufflevector(in[2], in[3], 0, 4, 1, 5);
  VU t3 = __builtin_shufflevector(in[2], in[3], 2, 6, 3, 7);
  out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  out[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  out[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
#elif LANES == 8
  // Interleave within 128-bit halves, pair up, then swap halves: the usual 8 × 8 transpose.
  VU t[8], u[8];
  for (int k = 0; k < 4; k++) {
    t[2 * k] = __builtin_shufflevector(in[2 * k], in[2 * k + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[2 * k + 1] = __builtin_shufflevector(in[2 * k], in[2 * k + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int k = 0; k < 2; k++) {
    VU a = t[4 * k], b = t[4 * k + 1], c = t[4 * k + 2], d = t[4 * k + 3];
    u[4 * k + 0] = __builtin_shufflevector(a, c, 0, 1, 8, 9, 4, 5, 12, 13);
    u[4 * k + 1] = __builtin_shufflevector(a, c, 2, 3, 10, 11, 6, 7, 14, 15);
    u[4 * k + 2] = __builtin_shufflevector(b, d, 0, 1, 8, 9, 4, 5, 12, 13);
    u[4 * k + 3] = __builtin_shufflevector(b, d, 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int k = 0; k < 4; k++) {
    out[k] = __builtin_shufflevector(u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    out[k + 4] = __builtin_shufflevector(u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
#else
#error "the 8-bit resolve is built for 4 or 8 lanes"
#endif
}

// A LANES × LANES block of resolved pixels, given by columns, stored as rows at (x0, y0) of `out`.
static inline __attribute__((always_inline)) void store_block(const VU columns[LANES], uint8_t *out,
                                                              intptr_t out_stride, int x0, int y0) {
  VU rows[LANES];
  transpose(columns, rows);
  for (int k = 0; k < LANES; k++) {
    __builtin_memcpy(out + (y0 + k) * out_stride + 4 * x0, &rows[k], sizeof rows[k]);
  }
}

// Asks for the cache lines of LANES image rows of a tile, for writing. The stores of a tile row
// group go to LANES rows a whole image row apart, too many streams for the hardware prefetcher:
// each store waited for its line (notes: about a third of the fill went to writing the image).
// Asked one group ahead, the lines arrive while the group before resolves: notes fill 0.87×
// (one thread) and 0.86× (two), the highlighter 0.93–0.97× (medians of interleaved runs); the
// bytes are the same.
static inline __attribute__((always_inline)) void prefetch_rows(uintptr_t row, intptr_t out_stride) {
  for (int y = 0; y < LANES; y++) inkwell_prefetch_row(row + (uintptr_t)(y * out_stride), 4 * T);
}

// The whole tile, LANES × LANES blocks at a time; a block inside an 8 × 8 block whose bit is clear
// in `blocks` is written as `clean_pixel` without being read (see inkwell_resolve_srgb8_blocks).
static inline __attribute__((always_inline)) void resolve_tile(const float *tile, uint8_t *out,
                                                               intptr_t out_stride, uint32_t blocks,
                                                               uint32_t clean_pixel) {
  const uintptr_t origin = (uintptr_t)out;
  const VU clean = (VU){0} + clean_pixel;
  prefetch_rows(origin, out_stride);
  for (int y0 = 0; y0 < T; y0 += LANES) {
    // The next group's rows; after the last group, the first rows of the tile to the right (the
    // next one its worker resolves).
    prefetch_rows(y0 + LANES < T ? origin + (uintptr_t)((y0 + LANES) * out_stride) : origin + 4 * T,
                  out_stride);
    for (int x0 = 0; x0 < T; x0 += LANES) {
      if (!(blocks >> ((x0 >> 3) + 4 * (y0 >> 3)) & 1)) {
        for (int k = 0; k < LANES; k++) {
          __builtin_memcpy(out + (y0 + k) * out_stride + 4 * x0, &clean, sizeof clean);
        }
        continue;
      }
      // Each group through resolve_lanes, which tests opaque paper first. A memo of the last run
      // of one color (a group equal to it took its code) had paid before paper was tested first
      // and clean blocks were skipped; since, it cost more than it saved on every scene but the
      // highlighter (tiles of the comparison's scenes, cycles counted per tile, the two forms
      // alternating: notes and thumbs 0.87–0.89×, big 0.89–0.90×, the highlighter 0.98–1.01×).
      VU columns[LANES];
      for (int j = 0; j < LANES; j++) columns[j] = resolve_lanes(tile, (x0 + j) * T + y0);
      store_block(columns, out, out_stride, x0, y0);
    }
  }
}

static void resolve_full_tile(const float *tile, uint8_t *out, intptr_t out_stride) {
  resolve_tile(tile, out, out_stride, INKWELL_ALL_BLOCKS, 0);
}

INKWELL_HIDDEN void KERNEL(resolve_srgb8_blocks)(const float *tile, uint32_t blocks, uint32_t clean_pixel,
                                                 uint8_t *out, intptr_t out_stride) {
  resolve_tile(tile, out, out_stride, blocks, clean_pixel);
}

INKWELL_HIDDEN void KERNEL(resolve_srgb8)(const float *tile, int width, int height, uint8_t *out,
                                          intptr_t out_stride) {
  if (width == T && height == T) {
    resolve_full_tile(tile, out, out_stride);
    return;
  }
  if (width == 1 && height == 1) {
    // One pixel (what a tile of one color resolves to): the first lane of its column.
    VU pixel = resolve_lanes(tile, 0);
    __builtin_memcpy(out, &pixel, 4);
    return;
  }
  uint8_t full[T * T * 4];
  resolve_full_tile(tile, full, T * 4);
  for (int y = 0; y < height; y++) __builtin_memcpy(out + y * out_stride, full + y * T * 4, 4 * (size_t)width);
}

static inline __attribute__((always_inline)) VI gather_entries(const uint32_t *table, VI index) {
#if LANES_GATHER_AVX2
  return (VI)_mm256_i32gather_epi32((const int *)table, (__m256i)index, 4);
#else
  VI entries;
  for (int l = 0; l < LANES; l++) entries[l] = (int32_t)table[index[l]];
  return entries;
#endif
}

static inline __attribute__((always_inline)) VF gather_floats(const float *table, VI index) {
#if LANES_GATHER_AVX2
  return (VF)_mm256_i32gather_ps(table, (__m256i)index, 4);
#else
  VF values;
  for (int l = 0; l < LANES; l++) values[l] = table[index[l]];
  return values;
#endif
}

// `inkwell_resolve_u8` for a whole tile and the sRGB transfer, LANES pixels of a column at a time:
// unpremultiply, the matrix (each output channel m0·r + m1·g + m2·b in that order), the plain code
// (the bucket lookup above) and, with `dither`, the code of the pixel's dither row, which differs
// from the plain one by at most one: lo = max(plain − 1, 0), then one more for each of the two
// next code starts at or below the value (two gathers from the starts table). The same operations
// as resolve.c's loop, so the same bytes; a pixel above the tone map's knee sends the whole tile
// back to that loop (returns 1 at once). Paper, at or above every row's start of code 255 in all
// three channels, takes 255 without the lookups. A LANES × LANES block inside an 8 × 8 block
// clear in `blocks` holds the background and is copied from `clean` (see
// inkwell_resolve_u8_blocks), without a knee test: `clean` was resolved by the loop, tone map and
// all.
static int resolve_dithered_full_tile(const float *tile, const float m[9], float knee, int origin_x,
                                      int origin_y, int dither, uint32_t blocks, const uint8_t *clean,
                                      intptr_t clean_stride, uint8_t *out, intptr_t out_stride) {
  const float *starts = inkwell_srgb_dither_starts();
  const uint32_t *dither_buckets = dither ? inkwell_srgb_dither_buckets() : 0;
  // At or above every row's start of code 255 (plain rounding's threshold without the dither) a
  // channel is 255 whatever its dither row.
  float top_start = inkwell_srgb_threshold[255];
  if (dither) {
    for (int row = 0; row <= 64; row++) {
      if (starts[row * 256 + 255] > top_start) top_start = starts[row * 256 + 255];
    }
  }
  const VF top = splat(top_start);
  // The identity (output in linear sRGB's own primaries, the usual case): a row's products by 1
  // are the channel itself, so only the products by 0 are made (each once, for the two rows that
  // take it) and the sums in the same order: the same floats, NaN and the sign of zero included.
  const int identity = m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 0 && m[4] == 1 && m[5] == 0 &&
                       m[6] == 0 && m[7] == 0 && m[8] == 1;
  // Each lane's dither row (× 256, its offset in `starts`) depends on its column and row modulo
  // 8 only: one vector for each column residue and each residue of a group's first row, worked
  // out once a tile. Read a group at a time, they had been eight byte loads into lanes, about 30
  // instructions of every group that is not paper.
  VI dither_rows[8][8 / LANES];
  for (int column = 0; column < 8; column++) {
    for (int group = 0; group < 8 / LANES; group++) {
      for (int l = 0; l < LANES; l++) {
        dither_rows[column][group][l] =
            inkwell_bayer8[((origin_y + group * LANES + l) & 7) * 8 + ((origin_x + column) & 7)] * 256;
      }
    }
  }
  for (int y0 = 0; y0 < T; y0 += LANES) {
    for (int x0 = 0; x0 < T; x0 += LANES) {
      if (!(blocks >> ((x0 >> 3) + 4 * (y0 >> 3)) & 1)) {
        // The background, as `clean` holds it resolved at the same place in its tile.
        for (int k = 0; k < LANES; k++) {
          __builtin_memcpy(out + (y0 + k) * out_stride + 4 * x0, clean + (y0 + k) * clean_stride + 4 * x0,
                           4 * LANES);
        }
        continue;
      }
      VU columns[LANES];
      for (int j = 0; j < LANES; j++) {
        const int x = x0 + j;
        VF straight[3];
        VU a8;
        unpremultiply_lanes(tile, x * T + y0, straight, &a8);
        VF channel[3];
        if (identity) {
          VF zero[3];
          for (int c = 0; c < 3; c++) zero[c] = splat(0.0f) * straight[c];
          channel[0] = straight[0] + zero[1] + zero[2];
          channel[1] = zero[0] + straight[1] + zero[2];
          channel[2] = zero[0] + zero[1] + straight[2];
        } else {
          for (int c = 0; c < 3; c++) {
            channel[c] = splat(m[3 * c]) * straight[0] + splat(m[3 * c + 1]) * straight[1] +
                         splat(m[3 * c + 2]) * straight[2];
          }
        }
        // max3 as resolve.c takes it: (a > b ? a : b), then against c.
        VF largest = larger(larger(channel[0], channel[1]), channel[2]);
        if (__builtin_reduce_or(largest > splat(knee))) return 1;
        if (__builtin_reduce_and((channel[0] >= top) & (channel[1] >= top) & (channel[2] >= top))) {
          // Code 255 in every dither row.
          columns[j] = (VU){0} + 0xffffffu | (a8 << 24);
          continue;
        }
        // (origin_y + y0 + l) & 7 with y0 a multiple of LANES: the residue of y0 is the group's.
        const VI row_of_lane = dither_rows[x & 7][(y0 / LANES) & (8 / LANES - 1)];
        VU pixel = a8 << 24;
        VI codes[3];
        for (int c = 0; c < 3; c++) {
          // A channel equal in every lane to one before it has its codes (the same value in the
          // same dither row): gray and black ink, dark blue ink's red and green.
          if (c > 0 && __builtin_reduce_and(channel[c] == channel[c - 1])) {
            codes[c] = codes[c - 1];
            pixel |= (VU)codes[c] << (8 * c);
            continue;
          }
          if (dither_buckets) {
            // The code of the pixel's own dither row in one lookup: its row's bucket table counts
            // the row's code starts at or below the value, as the two compares below settle it.
            VF v = smaller(larger(channel[c], splat(INKWELL_DITHER_LOWEST)), splat(INKWELL_SRGB8_HIGHEST));
            VI bits = (VI)v;
            VI index = (row_of_lane >> 8) * INKWELL_DITHER_BUCKETS + (bits >> 16) - INKWELL_DITHER_FIRST_BUCKET;
            VI entry = gather_entries(dither_buckets, index);
            VI code = (entry >> 17) - ((bits & 0xffff) >= (entry & 0x1ffff));
            codes[c] = code;
            pixel |= (VU)code << (8 * c);
            continue;
          }
          VI code = encode_lanes(channel[c]);
          if (dither) {
            VI lo = blend_int(code > splat_int(0), code - 1, splat_int(0));
            VI first = channel[c] >= gather_floats(starts, row_of_lane + lo + 1);
            // A row holds the starts of codes 0 to 255, so the second start exists only while
            // lo + 2 ≤ 255, as the loop tests (elsewhere the first is read again, masked off).
            VI in_row = lo + 2 <= splat_int(255);
            VF next = gather_floats(starts, row_of_lane + blend_int(in_row, lo + 2, lo + 1));
            VI second = in_row & (channel[c] >= next);
            code = lo - first - second;
          }
          codes[c] = code;
          pixel |= (VU)code << (8 * c);
        }
        columns[j] = pixel;
      }
      store_block(columns, out, out_stride, x0, y0);
    }
  }
  return 0;
}

INKWELL_HIDDEN int KERNEL(resolve_srgb8_dithered)(const float *tile, const float matrix[9], float knee,
                                                  int origin_x, int origin_y, int dither, uint32_t blocks,
                                                  const uint8_t *clean, intptr_t clean_stride, uint8_t *out,
                                                  intptr_t out_stride) {
  return resolve_dithered_full_tile(tile, matrix, knee, origin_x, origin_y, dither, blocks, clean, clean_stride,
                                    out, out_stride);
}

INKWELL_HIDDEN void KERNEL(encode_srgb8)(const float *linear, uint8_t *codes, size_t count) {
  size_t i = 0;
  for (; i + LANES <= count; i += LANES) {
    VI code = encode_lanes(load(linear + i));
    for (int l = 0; l < LANES; l++) codes[i + l] = (uint8_t)code[l];
  }
  if (i < count) {
    float rest[LANES] = {0};
    __builtin_memcpy(rest, linear + i, (count - i) * sizeof(float));
    VI code = encode_lanes(load(rest));
    for (size_t l = 0; l < count - i; l++) codes[i + l] = (uint8_t)code[l];
  }
}

#endif

#undef T
#undef P
#undef GROUPS
