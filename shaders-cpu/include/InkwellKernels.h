// Inkwell's per-pixel kernels.
//
// The rasterizer works on square tiles of INKWELL_TILE × INKWELL_TILE pixels. For each primitive
// that touches a tile it accumulates exact signed area into a cell buffer, turns the running sum
// along each pixel row into coverage under a fill rule, and composites a premultiplied linear-light
// color into a planar float tile (four planes: red, green, blue, alpha). A finished tile is
// resolved to 8-bit sRGB.
//
// Layout: column-major. Pixel (x, y) of a tile plane, and cell (x, y) of the cell buffer, live at
// x·INKWELL_TILE + y. The running sum goes along x, so with rows in the lanes every column is one
// vector step for all 32 rows at once: the sum for each pixel is taken in the same order as a
// scalar loop along its row, with no transposes and no reassociation. The only transpose left is in
// the 8-bit resolve, once per tile instead of once per primitive.
//
// SIMD levels (inkwell_simd_level), chosen at run time; see shaders-cpu/README.md for the measured
// numbers and the reasons:
//   scalar  portable C, loops kept scalar (auto-vectorization off): the baseline.
//   sse2    4 lanes, x86-64 baseline, no target attribute needed.
//   avx2    8 lanes, functions compiled with __attribute__((target("avx2"))).
//   avx512  16 lanes (avx512f) for coverage and compositing; the 8-bit resolve uses the avx2 code.
//           Never chosen by default: on a 2-core AMD EPYC with AVX-512 it took 1.14–1.21× the
//           avx2 level's time to fill every comparison scene (shaders-cpu/README.md);
//           INKWELL_SIMD=avx512 or the explicit API selects it.
//   neon    4 lanes on arm64.
// The default is the best available (avx2, else sse2 on x86-64; neon on arm64). The environment
// variable INKWELL_SIMD=scalar|sse2|avx2|avx512|neon, read once at first use, forces a level; a
// level this machine lacks falls back to the best available below it, with a one-line note on
// standard error; an unknown name falls back to the default, with the same note. Nothing crashes.
//
// Exactness: every level is BIT-IDENTICAL to the scalar reference, in the float tile and in the
// 8-bit output. Each lane performs the reference's operations in the reference's order (the
// vectors run across rows, never along the sum), using only exactly rounded IEEE operations
// (add, subtract, multiply, divide, compare, select, floor, absolute value); floating-point
// contraction is off (`#pragma clang fp contract(off)`, no FMA is written), and no approximate
// reciprocal is used. The 8-bit sRGB encode is a threshold search in every level: the scalar
// level does a binary search over 255 thresholds, the vector levels look up a coarse bucket from
// the float's upper 16 bits and make one compare (srgb8_buckets.c), proved equal to the search
// for every float by an exhaustive check (shaders-cpu/README.md); the dithered resolve looks up
// one table per dither rank the same way, built from that rank's code starts at first use (tested
// at every start and an ulp either side, not exhaustively). Line accumulation runs across
// pieces instead of rows (a lane computes one piece's adds, or one row segment of a long piece)
// and then adds them in the order INKWELL_LINE_CHUNK defines, so each cell sums the same values
// in the same order as the scalar level. Two documented preconditions,
// which the rasterizer guarantees: colors are finite, and the tile holds no −0 and no NaN (the
// vector compositors skip groups of pixels whose coverage is all zero, where the formula would
// only turn −0 into +0). Non-finite tile values are outside the contract of the 8-bit resolve.
//
// Every function here has a scalar Swift twin in Sources/InkwellRender/Raster/KernelReference.swift;
// the tests hold every level equal to it.

#ifndef INKWELL_KERNELS_H
#define INKWELL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Tile side, in pixels.
#define INKWELL_TILE 32
/// Floats between the starts of two columns of the cell buffer (one float per pixel row).
#define INKWELL_CELL_STRIDE 32
/// Floats in the cell buffer: the tile's 32 columns, the column just past the right edge (a line
/// at x = 32 lands there) and one more that a piece ending there spills into.
#define INKWELL_CELL_COUNT 1088
/// Floats to allocate for a cell buffer: INKWELL_CELL_COUNT, then spare cells that the vector line
/// accumulation adds its empty contributions to (never read, never cleared; see lanes.h).
#define INKWELL_CELL_BUFFER_COUNT 1184
/// Floats in one plane of a color tile.
#define INKWELL_TILE_PIXELS 1024
/// Lines accumulated together take this many at a time, and within each such chunk first the
/// short ones in order (level or not a number, or across at most two pixel rows and at most two
/// cells of each), then the others in order. Every level and the reference keep this order, so a
/// cell sums the same values in the same order whatever the level.
#define INKWELL_LINE_CHUNK 256
// (Plain numbers, so that Swift imports them; kernels.c checks them against INKWELL_TILE.)
/// The 8 × 8 blocks of a tile, as bits of a block mask: block (x, y), for pixels x·8 ..< x·8 + 8
/// across and y·8 ..< y·8 + 8 down, is bit x + 4·y.
#define INKWELL_ALL_BLOCKS 0xffffu
/// Coverage below this (2⁻¹⁶) counts as none. Where a closed contour's pieces cancel, the exact
/// running sum is a whole winding, but each piece's area is split between two cells in float, so
/// the sum lands a few units in the last place off it: 10⁻⁷ to 10⁻⁶ of coverage, over whole rows
/// right of a stroke. Composited, that residue changed the float tile by as little and no 8-bit
/// pixel but a handful, yet it cost a composite per group of pixels and marked their blocks
/// changed (on notes half the composites, on thumbnails two thirds). A sliver of real coverage
/// this small adds at most 2⁻¹⁶ of its color, under a 16-bit level.
#define INKWELL_COVERAGE_FLOOR 0x1p-16f
/// Byte alignment that lets the kernels use aligned full-width loads (they also accept less).
#define INKWELL_KERNEL_ALIGNMENT 64

typedef enum {
  INKWELL_FILL_NONZERO = 0,
  INKWELL_FILL_EVENODD = 1,
} inkwell_fill_rule;

typedef enum {
  INKWELL_SIMD_SCALAR = 0,
  INKWELL_SIMD_SSE2 = 1,
  INKWELL_SIMD_AVX2 = 2,
  INKWELL_SIMD_AVX512 = 3,
  INKWELL_SIMD_NEON = 4,
} inkwell_simd_level;

/// One set of kernels. The contract of each member is that of the function of the same name below.
typedef struct {
  void (*accumulate_line)(float *cells, float x0, float y0, float x1, float y1);
  void (*accumulate_lines)(float *cells, const float *lines, size_t count);
  void (*add_backdrop)(float *cells, float winding);
  void (*resolve_coverage)(float *cells, float *coverage, inkwell_fill_rule rule);
  void (*composite_mask)(float *tile, const float *coverage, const float color[4]);
  void (*fill_coverage)(float *tile, float *cells, inkwell_fill_rule rule, const float color[4]);
  void (*fill_lines)(float *tile, float *cells, const float *lines, size_t count, float backdrop,
                     inkwell_fill_rule rule, const float color[4], uint32_t *blocks);
  void (*composite_solid)(float *tile, const float color[4], float m);
  void (*fill_tile)(float *tile, const float color[4]);
  void (*resolve_srgb8)(const float *tile, int width, int height, uint8_t *out, intptr_t out_stride);
  void (*resolve_srgb8_blocks)(const float *tile, uint32_t blocks, uint32_t clean_pixel, uint8_t *out,
                               intptr_t out_stride);
  void (*encode_srgb8)(const float *linear, uint8_t *codes, size_t count);
  /// `inkwell_resolve_u8` of a whole tile for the sRGB transfer (`matrix`, row-major, and the tone
  /// map's `knee` from its parameters), or NULL where a level has none. Returns 0 when every pixel
  /// it resolved was at or below the knee (the tone map changes nothing there); otherwise the tile
  /// must be resolved again by `inkwell_resolve_u8`, whose output replaces this one's. The 8 × 8
  /// blocks whose bit is clear in `blocks` (see INKWELL_ALL_BLOCKS) are copied from `clean`
  /// instead, as `inkwell_resolve_u8_blocks` describes.
  int (*resolve_srgb8_dithered)(const float *tile, const float matrix[9], float knee, int origin_x,
                                int origin_y, int dither, uint32_t blocks, const uint8_t *clean,
                                intptr_t clean_stride, uint8_t *out, intptr_t out_stride);
} inkwell_kernel_table;

/// Whether this machine (CPU and operating system) can run `level`.
int inkwell_simd_is_available(inkwell_simd_level level);

/// The best level this machine can run that is chosen by default (see the module head).
inkwell_simd_level inkwell_simd_best(void);

/// The level the plain entry points below use: INKWELL_SIMD if set and available, else the best.
/// The environment is read once, at the first call; safe to call from any thread.
inkwell_simd_level inkwell_simd_selected(void);

/// The kernels of `level`, or NULL when this machine cannot run it.
const inkwell_kernel_table *inkwell_kernels_for(inkwell_simd_level level);

/// The lower-case name of `level` ("scalar", "sse2", "avx2", "avx512", "neon"), as INKWELL_SIMD
/// spells it.
const char *inkwell_simd_name(inkwell_simd_level level);

// The entry points below run the selected level's kernels.

/// Adds the exact signed area of the line from (x0, y0) to (x1, y1), in tile pixels, to `cells`
/// (INKWELL_CELL_BUFFER_COUNT floats, column-major; the first INKWELL_CELL_COUNT are the cells). A line going down (y increasing) adds positive
/// winding to the pixels on its right. Coordinates are clamped into 0…INKWELL_TILE.
void inkwell_accumulate_line(float *cells, float x0, float y0, float x1, float y1);

/// A line piece of a path in one tile's coordinates, and the tile (numbered within the path's
/// region of tiles) it belongs to.
typedef struct {
  int32_t tile;
  float x0, y0, x1, y1;
} inkwell_tile_piece;

/// A winding of `sign` down the left edge of region tile `local_tile`, from `y` (tile
/// coordinates) to the tile's bottom; `next` is the tile's partial column before it (−1: none).
typedef struct {
  int32_t local_tile;
  float y;
  int32_t sign;
  int32_t next;
} inkwell_partial_column;

/// Binning's walk of one path (bin.c): the caller sets the canvas, the path's region of tiles and
/// its zeroed backdrop differences, and empties `piece_count` and `partial_count`; the walk
/// appends the path's pieces (numbered by region tile, row-major), its partial columns (linked
/// per tile from `partial_heads`, which the first one sets up) and the windings carried across
/// tile rows. The buffers are the walk's own, grown as needed and kept from path to path; free
/// them with `inkwell_bin_walk_free`. Zero-initialize a new walk.
typedef struct {
  float width, top, bottom;
  int32_t col0, row0, cols, rows;
  /// rows × (cols + 1) differences: entry (r, c + 1) is added to every tile right of column c.
  int32_t *backdrop_delta;
  inkwell_tile_piece *pieces;
  size_t piece_count, piece_capacity;
  inkwell_partial_column *partials;
  size_t partial_count, partial_capacity;
  int32_t *partial_heads;
  size_t head_capacity;
  float *cuts;
  size_t cut_capacity;
  int32_t previous_row, previous_col, has_previous, first_row, first_col;
  float first_y;
  /// `inkwell_bin_walk_sort`'s results and scratch.
  float *sorted;
  size_t sorted_capacity;
  struct inkwell_bin_tile_span *spans;
  size_t span_capacity;
  uint32_t *counts;
  size_t count_capacity;
} inkwell_bin_walk;

/// A region tile that gets an entry for the path: its pieces are `sorted[first ..< first + count]`
/// and `winding` is the winding brought in from its left.
typedef struct inkwell_bin_tile_span {
  int32_t tile;
  uint32_t first, count;
  int32_t winding;
} inkwell_bin_tile_span;

/// Sorts the path's pieces by region tile into `walk->sorted` (x0, y0, x1, y1 quadruples, tile
/// after tile, each tile's in the order they came) and lists in `walk->spans`, row by row, the
/// region tiles that get an entry: those with pieces, and those whose winding from the left
/// (summed from `backdrop_delta`, as the walk left it) is inside under the rule (`even_odd` 0:
/// non-zero). Returns how many tiles it listed.
size_t inkwell_bin_walk_sort(inkwell_bin_walk *walk, const int32_t *backdrop_delta, int even_odd);

/// Walks one closed contour of `count` points (x, y pairs; edge i runs from point i − 1 to point
/// i, edge 0 from the last point): every edge clamped to the canvas, cut at tile borders into
/// pieces, each belonging to the tile its midpoint lies in.
void inkwell_bin_walk_contour(inkwell_bin_walk *walk, const float *points, size_t count);

/// Appends a piece of region tile `tile`.
void inkwell_bin_walk_add_piece(inkwell_bin_walk *walk, int32_t tile, float x0, float y0, float x1, float y1);

/// Makes room for at least `pieces` pieces.
void inkwell_bin_walk_reserve(inkwell_bin_walk *walk, size_t pieces);

/// Frees the walk's buffers and zeroes it.
void inkwell_bin_walk_free(inkwell_bin_walk *walk);

/// Asks for the cache lines of up to the first 64 of `count` lines (x0, y0, x1, y1 quadruples),
/// for reading: the rasterizer names the next tile entry's pieces while it fills the current one.
static inline void inkwell_prefetch_lines(const float *lines, size_t count) {
  const char *bytes = (const char *)lines;
  const size_t size = (count < 64 ? count : 64) * 4 * sizeof(float);
  for (size_t offset = 0; offset < size; offset += 64) __builtin_prefetch(bytes + offset, 0, 3);
}

/// Asks for the cache line holding `address`, for reading (no fault where nothing is mapped).
static inline void inkwell_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// `inkwell_accumulate_line` for `count` lines stored as x0, y0, x1, y1 quadruples, in the order
/// INKWELL_LINE_CHUNK describes.
void inkwell_accumulate_lines(float *cells, const float *lines, size_t count);

/// Adds `winding` to the first cell of each row, so every pixel of the tile starts from it.
void inkwell_add_backdrop(float *cells, float winding);

/// Running sum of each row of `cells` → coverage 0…1 under `rule`, written to `coverage`
/// (INKWELL_TILE_PIXELS floats, column-major). Clears `cells` for the next primitive. A coverage
/// under INKWELL_COVERAGE_FLOOR is 0 (see there).
void inkwell_resolve_coverage(float *cells, float *coverage, inkwell_fill_rule rule);

/// Source-over of a premultiplied color through a coverage mask:
///   Dc' = Sc·m + Dc·(1 − Sa·m)   for each plane c of the planar tile, with m the coverage.
void inkwell_composite_mask(float *tile, const float *coverage, const float color[4]);

/// `inkwell_resolve_coverage` then `inkwell_composite_mask` in one pass, without the coverage
/// buffer: the coverage of each column goes straight into the compositor. Clears `cells`.
void inkwell_fill_coverage(float *tile, float *cells, inkwell_fill_rule rule, const float color[4]);

/// One primitive's fill of a tile: `inkwell_add_backdrop(cells, backdrop)` when `backdrop` is not
/// zero, `inkwell_accumulate_lines(cells, lines, count)`, then `inkwell_fill_coverage`. The vector
/// levels resolve and composite only the columns and row groups the pieces reach (and the constant
/// coverage right of them), which gives the same floats. Clears `cells`. Unless `blocks` is NULL,
/// ORs into it the bit of every 8 × 8 block of the tile the call may have changed (see
/// INKWELL_ALL_BLOCKS); a level may mark blocks it left alone, never the other way round.
void inkwell_fill_lines(float *tile, float *cells, const float *lines, size_t count, float backdrop,
                        inkwell_fill_rule rule, const float color[4], uint32_t *blocks);

/// Source-over of a premultiplied color over the whole tile at constant coverage `m`:
///   Dc' = Sc·m + Dc·(1 − Sa·m).
void inkwell_composite_solid(float *tile, const float color[4], float m);

/// Fills every pixel of the planar tile with `color` (a −0 component is stored as +0).
void inkwell_fill_tile(float *tile, const float color[4]);

/// Converts the top-left `width` × `height` pixels of the planar tile (premultiplied, linear) to
/// straight-alpha 8-bit sRGB RGBA at `out`, whose rows are `out_stride` bytes apart. Color is
/// unpremultiplied, clamped to 0…1 and rounded to the nearest 8-bit sRGB code; alpha is clamped
/// and rounded to 8 bits.
void inkwell_resolve_srgb8(const float *tile, int width, int height, uint8_t *out,
                           intptr_t out_stride);

/// `inkwell_resolve_srgb8` of a whole tile, given that every 8 × 8 block whose bit is clear in
/// `blocks` holds one color everywhere, whose resolved pixel (as stored) is `clean_pixel`: those
/// blocks are written as `clean_pixel` without being read, the others resolved. A paper page's
/// tiles that a thin stroke crosses are mostly such blocks.
void inkwell_resolve_srgb8_blocks(const float *tile, uint32_t blocks, uint32_t clean_pixel, uint8_t *out,
                                  intptr_t out_stride);

/// Writes the 32-bit `pixel` to the `width` × `height` pixels at `out`, whose rows are
/// `out_stride` bytes apart (`out` and `out_stride` multiples of 4), asking for the cache lines of
/// the rows ahead and of the `height` rows to the right (the next tile a worker writes) as it goes.
/// Rows `4 · width` bytes apart (whole image rows) are written as one run, without the requests.
/// With `stream` nonzero, rows of at least 4 KiB go out with streaming stores instead, whole cache
/// lines written to memory without being read first (kernels.c): for an image too large to stay
/// in the cache, which would only evict it.
void inkwell_fill_pixels(uint8_t *out, intptr_t out_stride, int width, int height, uint32_t pixel,
                         int stream);

/// The nearest 8-bit sRGB code of each of `count` linear values (clamped to 0…1; NaN gives 0).
void inkwell_encode_srgb8(const float *linear, uint8_t *codes, size_t count);

/// The linear-light threshold at which 8-bit sRGB code `k` begins (k in 1…255): the smallest
/// linear value that rounds to `k`, as a float. Exposed for the reference implementation's tests.
float inkwell_srgb8_threshold(int k);

/// Clips a coverage mask by another: m' = m · c, per pixel.
void inkwell_coverage_intersect(float *coverage, const float *clip);

/// Cuts an erased area out of a coverage mask: m' = m · (1 − e), per pixel.
void inkwell_coverage_subtract(float *coverage, const float *erased);

/// Sets every pixel of a coverage mask to `m`.
void inkwell_coverage_fill(float *coverage, float m);

// Ink paint stages (shaders-cpu/inks.c): maps of a coverage mask m → m' applied before compositing.

/// A 32-bit hash of lattice point (x, y) and `seed`, for grain.
uint32_t inkwell_grain_hash(int32_t x, int32_t y, uint32_t seed);

/// Smooth value noise in 0…1 at (u, v) for `seed`: hashed lattice values blended with smoothstep
/// weights.
float inkwell_value_noise(float u, float v, uint32_t seed);

/// Grain: for the pixel centers of the tile at (x0, y0), (u, v) = m·(x + ½, y + ½) (layout a, b, c,
/// d, tx, ty, mapping pixels to grain cells), with params = {bite, depth, o, w, contrast, gain},
///   n = clamp(½ + (noise(u, v)·(1 − w) + noise(o·u + 17.31, o·v + 5.77)·w − ½)·contrast, 0, 1)
///   m' = clamp((m − bite·(1 − n))·gain, 0, 1) · (1 − depth·(1 − n)).
void inkwell_paint_grain(float *coverage, int x0, int y0, const float m[6], uint32_t seed,
                         const float params[4]);

/// Threshold: m' = max(m − t, 0) · inverse_span, clamped to 1, with inverse_span = 1 / (1 − t).
void inkwell_paint_threshold(float *coverage, float threshold, float inverse_span);

/// Alpha profile: m' = m · α, where α is interpolated along the nearest of `count` segments
/// (6 floats each: ax, ay, αa, bx, by, αb, pixels) to the pixel center; the first nearest wins.
void inkwell_paint_profile(float *coverage, int x0, int y0, const float *segments, int count);

/// Threshold along the spine: t interpolated along the nearest segment (as for the profile, the
/// values being thresholds), then m' = max(m − t, 0)/(1 − t), clamped to 1; 0 where t ≥ 1.
void inkwell_paint_threshold_profile(float *coverage, int x0, int y0, const float *segments,
                                     int count);

/// The vector paint stages of one level: 8 lanes for avx2 and avx512, 4 for the others (the scalar
/// level included: they have no scalar C form; `PaintReference` is their scalar twin).
/// `inkwell_paint_grain`, `inkwell_paint_profile` and `inkwell_paint_threshold_profile` run the
/// selected level's.
typedef struct {
  void (*grain)(float *coverage, int x0, int y0, const float m[6], uint32_t seed, const float params[4]);
  void (*profile)(float *coverage, int x0, int y0, const float *segments, int count);
  void (*threshold_profile)(float *coverage, int x0, int y0, const float *segments, int count);
} inkwell_paint_table;

/// The vector paint stages of `level`, or NULL when this machine cannot run it.
const inkwell_paint_table *inkwell_paint_kernels_for(inkwell_simd_level level);

/// Multiply of a premultiplied color through a coverage mask (the marker's blend), with
/// Sc = color·m, Sa = alpha·m:
///   Dc' = Sc·(1 − Da) + Dc·(1 − Sa) + Sc·Dc,   Da' = Sa + Da·(1 − Sa).
/// Pixels of zero coverage keep their values, as the formula leaves them under the contract above
/// (finite colors, no −0 and no NaN in the tile); four at a time are skipped.
void inkwell_composite_multiply(float *tile, const float *coverage, const float color[4]);

// ---- The nib sweep's support search (nib.c) -----------------------------------------------------

/// The index of the vertex (x, y pairs) of a nib farthest in direction (nx, ny): the first whose
/// dot product x·nx + y·ny exceeds every one before it by more than 10⁻⁶, as a scan in order
/// finds it.
int inkwell_nib_support(const float *vertices, int count, float nx, float ny);

// ---- The pen outline's join plan (pen.c) --------------------------------------------------------

/// How a join of the pen outline ends, as `inkwell_pen_plan_joins` plans it (stored as floats).
enum { INKWELL_PEN_JOIN_CORNER = 0, INKWELL_PEN_JOIN_CROSSING = 1, INKWELL_PEN_JOIN_OTHER = 2 };

/// The floats of a plan for discs `stride` − 16 or fewer.
#define INKWELL_PEN_PLAN_FLOATS(stride) (17 * (stride) + 16)

/// Plans the outline of `count` (at least 2) pen discs (x, y, radius each), none inside a
/// neighbour, into `plan`, INKWELL_PEN_PLAN_FLOATS(stride) floats for a `stride` of at least
/// count + 16. Arrays of `stride` floats: 0–2 the discs' x, y and radius; 3–6 capsule i's left
/// offset x, y and right offset x, y (PenBrush's `tangents`); 7–9 for the left side and 10–12 for
/// the right, join j's (1 ≤ j < count − 1) crossing fractions along the previous and the next side
/// and its kind: INKWELL_PEN_JOIN_CORNER (the outer corner, its point), _CROSSING (the sides cross
/// within both; its point where the chain's entry allows) or _OTHER. Then the points (x, y) of the
/// left joins, join j's at plan + 13·stride + 2j, and of the right joins in the order the
/// backward walk takes them, join j's at plan + 15·stride + 16 + 2(count − 2 − j). The floats are
/// those of PenBrush's scalar `tangents`, `Side`, `join` and `crossing` for `arc_tolerance`.
/// At the selected level: four lanes, or eight at avx2 and avx512; the same floats at every level.
void inkwell_pen_plan_joins(const float *discs, size_t count, float *plan, size_t stride,
                            float arc_tolerance);

/// `inkwell_pen_plan_joins` at `level`; 0, writing nothing, when this machine cannot run it.
int inkwell_pen_plan_joins_at(inkwell_simd_level level, const float *discs, size_t count, float *plan,
                              size_t stride, float arc_tolerance);

// ---- The pen's discs (pen.c) ---------------------------------------------------------------------

/// Steps of the pen's pressure table: its 4097 entries are the pressure scale at forces k / 4096.
#define INKWELL_PEN_PRESSURE_STEPS 4096

/// What PenBrush's `discs` reads.
typedef struct {
  /// `count` tip points, six floats each: location x and y, time, width, force, opacity.
  size_t count;
  /// The map to pixels: a, b, c, d, tx, ty (x' = a·x + c·y + tx, y' = b·x + d·y + ty).
  float map[6];
  float scale;
  float ink_width;
  float minimum_spacing;
  /// INKWELL_PEN_PRESSURE_STEPS + 1 entries.
  const float *pressure;
  /// One speed scale a point, or NULL where every scale is 1.
  const float *speed_scales;
} inkwell_pen_disc_params;

/// The discs so far: how many, the arc length to the last, the sum of their opacities and the
/// last one's center.
typedef struct {
  size_t count;
  float arc;
  float opacity_sum;
  float previous_x;
  float previous_y;
} inkwell_pen_disc_run;

/// PenBrush's `discs` loop over `params->count` tip points, from `run` (zeroed to start): each
/// point's center through the map and its radius, the disc kept unless its center or radius is
/// not finite or (but for the last point) its center lies nearer than `minimum_spacing` to the
/// disc before it. Kept discs go to `discs` (x, y, radius) and their arc lengths to `arcs`, from
/// `run->count` on. The floats of the Swift loop at every level: four lanes, eight at avx2 and
/// avx512, where every point of a group is kept (else the group goes point by point).
void inkwell_pen_discs(const float *points, const inkwell_pen_disc_params *params, inkwell_pen_disc_run *run,
                       float *arcs, float *discs);

/// `inkwell_pen_discs` at `level`; 0, writing nothing, when this machine cannot run it.
int inkwell_pen_discs_at(inkwell_simd_level level, const float *points, const inkwell_pen_disc_params *params,
                         inkwell_pen_disc_run *run, float *arcs, float *discs);

// ---- Tip points along the pen's spline (pen.c) ------------------------------------------------------

/// StrokePath's `interpolateTipPoints`: for each of `count` parameters t, the cubic B-spline tip
/// point at t of a path of `knots` (2 to 2³¹ − 1) control points, as six floats at `out` + 6j
/// (location x and y, time, width, force, opacity; width and force at least 0, opacity within
/// 0…2). `lanes` holds knots + 2 entries of eight floats (`writeTipLanes`): segment i blends
/// entries i … i + 3 with the basis at u = tc − i, tc = t clamped into 0…knots − 1 (NaN to 0),
/// i = min(⌊tc⌋, knots − 2). The floats of the Swift function at every level.
void inkwell_pen_tip_points(const float *lanes, size_t knots, const float *parameters, size_t count, float *out);

/// `inkwell_pen_tip_points` at `level`; 0, writing nothing, when this machine cannot run it.
int inkwell_pen_tip_points_at(inkwell_simd_level level, const float *lanes, size_t knots, const float *parameters,
                              size_t count, float *out);

// ---- Speeds between the pen's samples (pen.c) -------------------------------------------------------

/// The speeds of PenBrush's `speedScales`: for each k < n − 1 of `n` tip points (six floats each),
/// dt = time[k + 1] − time[k] and d = |location[k] − location[k + 1]|. Where dt > 10⁻⁶ and dt and d
/// are finite, speeds[k] = d / dt and the speed is valid (else speeds[k] = 0), and fast when
/// above `steady`; valid_counts[k] and fast_counts[k] count the valid and fast speeds
/// among 0…k. The floats of the Swift loop at every level.
void inkwell_pen_speeds(const float *points, size_t n, float steady, float *speeds, int32_t *valid_counts,
                        int32_t *fast_counts);

/// `inkwell_pen_speeds` at `level`; 0, writing nothing, when this machine cannot run it.
int inkwell_pen_speeds_at(inkwell_simd_level level, const float *points, size_t n, float steady, float *speeds,
                          int32_t *valid_counts, int32_t *fast_counts);

// ---- Resolve (resolve.c): finished float tiles → output samples ---------------------------------
//
// A resolve takes the planar premultiplied tile (linear light, sRGB primaries, values above 1
// kept), converts it to the output's primaries with a 3 × 3 matrix, unpremultiplies, tone maps the
// color to the output's headroom on its largest channel (so channel ratios, and with them hue, are
// kept), rolls compressed colors toward white by how much they were compressed, applies the
// output's transfer function and quantizes. Scalar twins: Sources/InkwellRender/Resolve/
// ResolveReference.swift.

typedef enum {
  /// Content fits the headroom: nothing changes (a final guard still scales any pixel above the
  /// headroom down to it, on its largest channel).
  INKWELL_TONE_NONE = 0,
  /// Largest channel limited to the headroom; no roll toward white.
  INKWELL_TONE_CLIP = 1,
  /// Extended Reinhard above the knee, reaching the headroom exactly at the content's peak.
  INKWELL_TONE_REINHARD = 2,
  /// The BT.2390 EETF (Hermite spline in PQ) above its knee.
  INKWELL_TONE_BT2390 = 3,
} inkwell_tone_curve;

typedef enum {
  INKWELL_TRANSFER_SRGB = 0,
  /// SMPTE ST 2084 / BT.2100 PQ, with 1.0 linear = `sdr_white_nits`.
  INKWELL_TRANSFER_PQ = 1,
  /// BT.2100 HLG with the reference OOTF for a display of `hlg_peak_nits` (γ = 1.2 at 1000 nits).
  INKWELL_TRANSFER_HLG = 2,
  /// No transfer: linear light.
  INKWELL_TRANSFER_LINEAR = 3,
} inkwell_transfer;

/// Everything a resolve needs, precomputed once per render (see ToneMapping.swift).
typedef struct {
  /// Linear sRGB primaries → output primaries, row-major.
  float matrix[9];
  int curve;   // inkwell_tone_curve
  float peak;  // E: content peak, linear (1 = SDR white)
  float headroom; // H: output peak, linear
  float knee;  // largest channels at or below this pass through unchanged
  /// Reinhard: white point of the normalized curve, W = (E − knee) / (H − knee).
  float reinhard_white;
  /// BT.2390, normalized to the source peak in PQ: knee start, target peak, spline tangent scale,
  /// and PQ code of the source peak (absolute).
  float eetf_knee, eetf_target, eetf_tangent, eetf_source_pq;
  /// How far a compressed color rolls toward white: t = path_to_white · (1 − m'/m).
  float path_to_white;
  int transfer;  // inkwell_transfer
  float sdr_white_nits; // PQ and HLG: nits of linear 1.0 (203, BT.2408)
  float hlg_peak_nits;  // HLG nominal peak (1000)
  /// Luminance weights of the output primaries (HLG's OOTF).
  float luma[3];
} inkwell_resolve_params;

/// Tone maps one unpremultiplied linear color (output primaries) in place.
void inkwell_tone_map(const inkwell_resolve_params *params, float rgb[3]);

/// The output transfer function: linear (1 = SDR white) → signal 0…1 (sRGB, PQ, HLG) or linear.
/// HLG takes all three channels (its OOTF mixes them).
void inkwell_transfer_encode(const inkwell_resolve_params *params, float rgb[3]);

/// The inverse of `inkwell_transfer_encode`: signal → linear (1 = SDR white).
void inkwell_transfer_decode(const inkwell_resolve_params *params, float rgb[3]);

/// Resolves `width` × `height` pixels of a planar tile to straight-alpha RGBA float, tone mapped
/// and in the output primaries, still linear (no transfer); rows `out_stride` floats apart.
void inkwell_resolve_f32(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, float *out, intptr_t out_stride);

/// Like `inkwell_resolve_f32`, but premultiplied (for OpenEXR).
void inkwell_resolve_premultiplied_f32(const float *tile, int width, int height,
                                       const inkwell_resolve_params *params, float *out,
                                       intptr_t out_stride);

/// Resolves to straight-alpha RGBA 16-bit samples through the transfer function: each signal
/// clamped to 0…1 and rounded to the nearest of 65 535 steps; rows `out_stride` samples apart.
void inkwell_resolve_u16(const float *tile, int width, int height,
                         const inkwell_resolve_params *params, uint16_t *out, intptr_t out_stride);

/// Resolves to straight-alpha RGBA 8-bit samples through the transfer function. With `dither`
/// nonzero, an 8 × 8 ordered (Bayer) threshold taken from the pixel's position on the canvas
/// (`origin_x` + x, `origin_y` + y) replaces the rounding offset 0.5, so a smooth ramp becomes a
/// fine pattern of neighboring codes instead of bands; signals that are exact codes do not move.
/// Alpha is rounded, never dithered.
/// Where 8-bit sRGB code `code` begins, in linear light, for dither row `row` (0…63: the offset
/// (row + ½)/64 of the ordered dither; 64: plain rounding). For tests of the Swift twin.
float inkwell_srgb_code_start(int row, int code);

void inkwell_resolve_u8(const float *tile, int width, int height, int origin_x, int origin_y,
                        int dither, const inkwell_resolve_params *params, uint8_t *out,
                        intptr_t out_stride);

/// `inkwell_resolve_u8` of a whole tile (INKWELL_TILE × INKWELL_TILE) of which only the 8 × 8 blocks
/// set in `blocks` may hold anything but the tile's background: every other block is copied from
/// `clean`, the background tile as `inkwell_resolve_u8` resolves it at an origin equal to this
/// one's modulo 8 (so the dither matches), rows `clean_stride` bytes apart. The same bytes as
/// `inkwell_resolve_u8` of the whole tile.
void inkwell_resolve_u8_blocks(const float *tile, uint32_t blocks, const uint8_t *clean,
                               intptr_t clean_stride, int origin_x, int origin_y, int dither,
                               const inkwell_resolve_params *params, uint8_t *out, intptr_t out_stride);

/// The ordered-dither offset at canvas position (x, y): (rank + 0.5) / 64, in (0, 1).
float inkwell_dither_offset(int x, int y);

#ifdef __cplusplus
}
#endif

#endif
