// Binning's contour walk: a path's edges cut at the canvas border and at tile borders into
// pieces, each stored in the coordinates of the tile its midpoint lies in, and the winding each
// piece carries across tile borders (see Sources/InkwellRender/Bin/TileBinner.swift for the
// scheme: backdrop differences per tile row, partial columns per tile).
//
// Most edges of a flattened outline are a pixel or two long and stay in the tile of the piece
// before them: such runs take the innermost loop (no cut, no change of tile). Most of the others
// cross one tile line and no canvas border, and are cut without a scratch list; the rest collect
// their cuts along each axis in order and merge the two. The walk had been Swift around this C
// loop for the runs, an edge that left its tile costing about 500 instructions (a scratch list
// and a sort for its cuts, checked arithmetic, a call back per run). In C whole, binning the 200
// thumbnails (warm-up and one run, callgrind) took 135.6 → 114.8 M instructions, the walk itself
// (all but the bounds, the sort by tile and the entries) about 88 → 63 M; sketch 300.6 → 240.9 M,
// notes 23.2 → 18.9 M.
//
// Every float operation is the one the Swift walk made, in the same order (no contraction), so
// the pieces and windings stayed the same bit for bit (every image and golden byte-identical).

#include "InkwellKernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma clang fp contract(off)

#define TILE ((float)INKWELL_TILE)
// 1 / TILE, a power of two: multiplying by it gives the quotient's float exactly.
#define PER_TILE (1.0f / (float)INKWELL_TILE)

static void *grow(void *buffer, size_t *capacity, size_t needed, size_t size) {
  if (needed <= *capacity) return buffer;
  size_t larger = *capacity < 64 ? 64 : *capacity;
  while (larger < needed) larger *= 2;
  void *moved = realloc(buffer, larger * size);
  if (moved == NULL) abort();
  *capacity = larger;
  return moved;
}

static inline void add_piece(inkwell_bin_walk *w, int32_t tile, float x0, float y0, float x1, float y1) {
  if (w->piece_count == w->piece_capacity) {
    w->pieces = grow(w->pieces, &w->piece_capacity, w->piece_count + 1, sizeof *w->pieces);
  }
  w->pieces[w->piece_count++] = (inkwell_tile_piece){tile, x0, y0, x1, y1};
}

void inkwell_bin_walk_add_piece(inkwell_bin_walk *w, int32_t tile, float x0, float y0, float x1, float y1) {
  add_piece(w, tile, x0, y0, x1, y1);
}

void inkwell_bin_walk_reserve(inkwell_bin_walk *w, size_t pieces) {
  w->pieces = grow(w->pieces, &w->piece_capacity, pieces, sizeof *w->pieces);
}

void inkwell_bin_walk_free(inkwell_bin_walk *w) {
  free(w->pieces);
  free(w->partials);
  free(w->partial_heads);
  free(w->cuts);
  free(w->sorted);
  free(w->spans);
  free(w->counts);
  memset(w, 0, sizeof *w);
}

// Whether a tile's `n` pieces (x0, y0, x1, y1 each) change nothing inside it but by whole
// windings down its left edge, which then join `winding`: level pieces (which add nothing), pieces
// on or past its right edge (whose adds land in the cells past the tile, never composited) and
// pieces down or up the whole of its left edge (which add ±1 to the first cell of every row, as a
// backdrop of ±1 does). Such a tile is the edge of a fill whose sides lie on tile borders, a page
// covered by one fill among them: with no pieces it is covered solid, or left alone, without the
// accumulation and a full resolve. Only a tile whose pieces are all of these kinds is changed, so
// every cell sums the same values as before: the same bytes.
static int only_border_pieces(const float *pieces, uint32_t n, int32_t *winding) {
  int32_t carried = 0;
  for (uint32_t i = 0; i < n; i++) {
    const float x0 = pieces[4 * i], y0 = pieces[4 * i + 1], x1 = pieces[4 * i + 2], y1 = pieces[4 * i + 3];
    if (y0 == y1) continue;
    if (x0 >= TILE && x1 >= TILE) continue;
    if (x0 == 0.0f && x1 == 0.0f && ((y0 == 0.0f && y1 == TILE) || (y0 == TILE && y1 == 0.0f))) {
      carried = (int32_t)((uint32_t)carried + (y1 > y0 ? 1u : 0xffffffffu));
      continue;
    }
    return 0;
  }
  *winding = (int32_t)((uint32_t)*winding + (uint32_t)carried);
  return 1;
}

size_t inkwell_bin_walk_sort(inkwell_bin_walk *w, const int32_t *backdrop_delta, int even_odd) {
  const size_t tiles = (size_t)w->cols * (size_t)w->rows;
  const size_t count = w->piece_count;
  w->counts = grow(w->counts, &w->count_capacity, tiles + 1, sizeof *w->counts);
  w->spans = grow(w->spans, &w->span_capacity, tiles, sizeof *w->spans);
  w->sorted = grow(w->sorted, &w->sorted_capacity, 4 * (count > 0 ? count : 1), sizeof *w->sorted);
  uint32_t *counts = w->counts;
  // A counting sort: each tile's pieces start where the tiles before it end.
  memset(counts, 0, (tiles + 1) * sizeof *counts);
  const inkwell_tile_piece *pieces = w->pieces;
  for (size_t i = 0; i < count; i++) counts[pieces[i].tile + 1]++;
  for (size_t t = 0; t < tiles; t++) counts[t + 1] += counts[t];
  // The first pass's totals become the cursors; each tile's start is then its count before it.
  float *sorted = w->sorted;
  for (size_t i = 0; i < count; i++) {
    const inkwell_tile_piece piece = pieces[i];
    float *to = sorted + 4 * (size_t)counts[piece.tile]++;
    to[0] = piece.x0;
    to[1] = piece.y0;
    to[2] = piece.x1;
    to[3] = piece.y1;
  }
  // counts[t] is now where tile t ends, that is where tile t + 1 starts.
  size_t listed = 0;
  const size_t cols = (size_t)w->cols;
  for (size_t row = 0; row < (size_t)w->rows; row++) {
    int32_t winding = 0;
    const int32_t *delta = backdrop_delta + row * (cols + 1);
    for (size_t col = 0; col < cols; col++) {
      winding = (int32_t)((uint32_t)winding + (uint32_t)delta[col]);
      const size_t local = row * cols + col;
      const uint32_t first = local == 0 ? 0 : counts[local - 1];
      uint32_t n = counts[local] - first;
      int32_t tile_winding = winding;
      if (n > 0 && only_border_pieces(sorted + 4 * (size_t)first, n, &tile_winding)) n = 0;
      const int inside = even_odd ? (tile_winding & 1) != 0 : tile_winding != 0;
      if (n == 0 && !inside) continue;
      w->spans[listed++] = (inkwell_bin_tile_span){(int32_t)local, first, n, tile_winding};
    }
  }
  return listed;
}

// A winding of `sign` down the left edge of region tile `local`, from `y` to the tile's bottom.
static void add_partial(inkwell_bin_walk *w, int32_t local, float y, int32_t sign) {
  if (w->partial_count == 0) {
    const size_t tiles = (size_t)w->cols * (size_t)w->rows;
    w->partial_heads = grow(w->partial_heads, &w->head_capacity, tiles, sizeof *w->partial_heads);
    for (size_t t = 0; t < tiles; t++) w->partial_heads[t] = -1;
  }
  if (w->partial_count == w->partial_capacity) {
    w->partials = grow(w->partials, &w->partial_capacity, w->partial_count + 1, sizeof *w->partials);
  }
  w->partials[w->partial_count] = (inkwell_partial_column){local, y, sign, w->partial_heads[local]};
  w->partial_heads[local] = (int32_t)w->partial_count;
  w->partial_count++;
}

static inline void add_backdrop(inkwell_bin_walk *w, int32_t local_row, int32_t after_local_col, int32_t winding) {
  int32_t *cell = w->backdrop_delta + (size_t)local_row * (size_t)(w->cols + 1) + (size_t)after_local_col + 1;
  *cell = (int32_t)((uint32_t)*cell + (uint32_t)winding);
}

// `sign` × the part of row `row` below `y`, for every tile of the row right of `after_col`.
static void carry(inkwell_bin_walk *w, int32_t row, int32_t after_col, float y, int32_t sign) {
  const float top = (float)row * TILE;
  if (y <= top) {
    add_backdrop(w, row - w->row0, after_col - w->col0, sign);
  } else if (y < top + TILE) {
    const int32_t last = w->col0 + w->cols - 1;
    for (int32_t c = after_col + 1; c <= last; c++) {
      add_partial(w, (row - w->row0) * w->cols + (c - w->col0), y - top, sign);
    }
  }
}

// The winding terms where one piece ends and the next begins, at height y (canvas pixels).
static void transition(inkwell_bin_walk *w, int32_t from_row, int32_t from_col, int32_t to_row, int32_t to_col,
                       float y) {
  if (from_row == to_row) {
    if (from_col == to_col) return;
    const float top = (float)from_row * TILE;
    if (y <= top) {
      add_backdrop(w, from_row - w->row0, from_col - w->col0, -1);
      add_backdrop(w, to_row - w->row0, to_col - w->col0, 1);
    } else if (y < top + TILE) {
      const float local_y = y - top;
      const int32_t base = (from_row - w->row0) * w->cols - w->col0;
      if (from_col < to_col) {
        for (int32_t c = from_col + 1; c <= to_col; c++) add_partial(w, base + c, local_y, -1);
      } else {
        for (int32_t c = to_col + 1; c <= from_col; c++) add_partial(w, base + c, local_y, 1);
      }
    }
    return;
  }
  carry(w, from_row, from_col, y, -1);
  carry(w, to_row, to_col, y, 1);
}

// The tile index ⌊v⌋ clamped to low…high (for v ≥ 0 as the truncating conversion gives it), NaN
// taken as low: clamped as a float first, so no value out of range is converted.
static inline int32_t tile_index(float v, int32_t low, int32_t high) {
  const float lo = (float)low, hi = (float)high;
  float c = v >= lo ? v : lo;
  c = c <= hi ? c : hi;
  return (int32_t)c;
}

// One piece from a to b (both clamped to the canvas): its tile, by its midpoint within the
// region, the transition from the piece before, and the piece itself unless it is level.
static void piece(inkwell_bin_walk *w, float ax, float ay, float bx, float by) {
  if (ax == bx && ay == by) return;
  const float mx = (ax + bx) * 0.5f;
  const float my = (ay + by) * 0.5f;
  const int32_t col = tile_index(mx * PER_TILE, w->col0, w->col0 + w->cols - 1);
  const int32_t row = tile_index(my * PER_TILE, w->row0, w->row0 + w->rows - 1);
  if (w->has_previous) {
    if (row != w->previous_row || col != w->previous_col) {
      transition(w, w->previous_row, w->previous_col, row, col, ay);
    }
  } else {
    w->has_previous = 1;
    w->first_row = row;
    w->first_col = col;
    w->first_y = ay;
  }
  w->previous_row = row;
  w->previous_col = col;
  if (ay != by) {
    const float ox = (float)col * TILE;
    const float oy = (float)row * TILE;
    add_piece(w, (row - w->row0) * w->cols + (col - w->col0), ax - ox, ay - oy, bx - ox, by - oy);
  }
}

static inline float clamp_x(const inkwell_bin_walk *w, float x) {
  // As Swift's min(max(x, 0), width): max keeps x unless 0 ≥ x, min keeps it unless width < it.
  const float low = 0.0f >= x ? 0.0f : x;
  return w->width < low ? w->width : low;
}

static inline float clamp_y(const inkwell_bin_walk *w, float y) {
  const float low = w->top >= y ? w->top : y;
  return w->bottom < low ? w->bottom : low;
}

// `v` rounded to a whole number, halves to even: adding and taking away 1.5 · 2^23 leaves no bits
// below the units for |v| < 2^22, and a float at or above 2^22 (or not finite) is kept. Only a
// tie differs from roundf, and a tie lies half a tile from the nearest border, far from the 10⁻³
// below; roundf is a library call on x86-64 without SSE4.1, and the registers the walk keeps
// across the call went to the stack and back at every cut.
static inline float nearest_whole(float v) {
  const float shift = 0x1.8p23f;
  return fabsf(v) < 0x1p22f ? (v + shift) - shift : v;
}

// The point at t along a → b, landing exactly on a tile border within 10⁻³ of one.
static inline void point_at(float ax, float ay, float bx, float by, float t, float *px, float *py) {
  float x = ax + (bx - ax) * t;
  float y = ay + (by - ay) * t;
  const float rx = nearest_whole(x * PER_TILE) * TILE;
  const float ry = nearest_whole(y * PER_TILE) * TILE;
  if (fabsf(x - rx) < 1e-3f) x = rx;
  if (fabsf(y - ry) < 1e-3f) y = ry;
  *px = x;
  *py = y;
}

static inline void cut_piece(inkwell_bin_walk *w, float ax, float ay, float bx, float by, float t, float *sx,
                             float *sy) {
  float px, py;
  point_at(ax, ay, bx, by, t, &px, &py);
  const float ex = clamp_x(w, px), ey = clamp_y(w, py);
  piece(w, *sx, *sy, ex, ey);
  *sx = ex;
  *sy = ey;
}

// The cuts of one axis from p to q against [low, high] and the tile lines inside, in increasing
// order of their parameter, appended to w->cuts from `start`; returns the new end.
static size_t axis_cuts(inkwell_bin_walk *w, size_t start, float p, float q, float low, float high) {
  if (p == q) return start;
  // Swift's max(min(p, q), low) and min(max(p, q), high), which pick as written here.
  const float lo_raw = q < p ? q : p, hi_raw = q >= p ? q : p;
  const float lo = low >= lo_raw ? low : lo_raw;
  const float hi = high < hi_raw ? high : hi_raw;
  size_t lines = 0;
  float k0 = 0.0f;
  if (lo < hi) {
    k0 = ceilf(lo * PER_TILE);
    // At most one line a tile of the span (the bound stops a float count that no longer grows,
    // on a canvas over 2²⁴ tiles wide, where k + 1 rounds back to k).
    const double most = (double)hi * (double)PER_TILE - (double)k0 + 2.0;
    for (float k = k0; k * TILE < hi && (double)lines < most; k += 1.0f) lines++;
  }
  const size_t count = lines + 2;
  w->cuts = grow(w->cuts, &w->cut_capacity, start + count, sizeof *w->cuts);
  // In coordinate order: the low border, the lines, the high border; the parameter grows with
  // the coordinate when q > p and falls when q < p (a rounded difference over a fixed divisor
  // is monotone), so the list is reversed for q < p.
  float *c = w->cuts + start;
  size_t n = 0;
  const float d = q - p;
  if (p < low || q < low) c[n++] = (low - p) / d;
  float k = k0;
  for (size_t i = 0; i < lines; i++, k += 1.0f) c[n++] = (k * TILE - p) / d;
  if (p > high || q > high) c[n++] = (high - p) / d;
  if (q < p) {
    for (size_t i = 0, j = n - 1; i < j && n > 0; i++, j--) {
      const float s = c[i];
      c[i] = c[j];
      c[j] = s;
    }
  }
  return start + n;
}

// An edge anywhere: cut at the canvas border and at every tile line, in order along the edge.
static void edge_anywhere(inkwell_bin_walk *w, float ax, float ay, float bx, float by) {
  const size_t nx = axis_cuts(w, 0, ax, bx, 0.0f, w->width);
  const size_t end = axis_cuts(w, nx, ay, by, w->top, w->bottom);
  const float *cuts = w->cuts;
  float sx = clamp_x(w, ax), sy = clamp_y(w, ay);
  size_t i = 0, j = nx;
  while (i < nx || j < end) {
    float t;
    if (j == end || (i < nx && !(cuts[j] < cuts[i]))) {
      t = cuts[i++];
    } else {
      t = cuts[j++];
    }
    if (t > 0.0f && t < 1.0f) cut_piece(w, ax, ay, bx, by, t, &sx, &sy);
  }
  piece(w, sx, sy, clamp_x(w, bx), clamp_y(w, by));
}

// For an edge along one axis from p to q, both inside the canvas: how many tile lines it crosses
// inside its span (2 standing for two or more) and, for one, the parameter there.
static inline int tile_line_cut(float p, float q, float *t) {
  *t = 0.0f;
  if (p == q) return 0;
  const float lo = q < p ? q : p, hi = q >= p ? q : p;
  const float k = ceilf(lo * PER_TILE);
  if (!(k * TILE < hi)) return 0;
  if (!((k + 1.0f) * TILE >= hi)) return 2;
  *t = (k * TILE - p) / (q - p);
  return 1;
}

static void edge(inkwell_bin_walk *w, float ax, float ay, float bx, float by) {
  if (ax >= 0.0f && ax <= w->width && bx >= 0.0f && bx <= w->width && ay >= w->top && ay <= w->bottom &&
      by >= w->top && by <= w->bottom) {
    // A pixel-long edge crosses at most one tile line an axis and no border.
    float tx, ty;
    if (tile_line_cut(ax, bx, &tx) < 2 && tile_line_cut(ay, by, &ty) < 2) {
      float sx = clamp_x(w, ax), sy = clamp_y(w, ay);
      const float first = tx <= ty ? tx : ty, second = tx <= ty ? ty : tx;
      if (first > 0.0f && first < 1.0f) cut_piece(w, ax, ay, bx, by, first, &sx, &sy);
      if (second > 0.0f && second < 1.0f) cut_piece(w, ax, ay, bx, by, second, &sx, &sy);
      piece(w, sx, sy, clamp_x(w, bx), clamp_y(w, by));
      return;
    }
  }
  edge_anywhere(w, ax, ay, bx, by);
}

// From edge `first`, the edges that start and end inside the canvas rows and in the tile of the
// piece before: each is its own piece (no cut, no change of tile). Returns the first edge that
// is not.
static size_t edges_in_tile(inkwell_bin_walk *w, const float *points, size_t first, size_t end) {
  const int32_t col = w->previous_col, row = w->previous_row;
  const float ox = (float)col * TILE;
  const float oy = (float)row * TILE;
  // x in [max(0, ox), min(width, ox + 32)) is floor(x / 32) = col inside the canvas (dividing by
  // 32 is exact, so the two tests agree for every float; NaN fails both), and likewise for y.
  const float x_low = ox > 0.0f ? ox : 0.0f;
  const float x_high = ox + TILE < w->width ? ox + TILE : w->width;
  const float y_low = oy > w->top ? oy : w->top;
  const float y_high = oy + TILE < w->bottom ? oy + TILE : w->bottom;
  float ax = points[2 * (first - 1)], ay = points[2 * (first - 1) + 1];
  if (!(ax >= x_low && ax < x_high && ay >= y_low && ay < y_high)) return first;
  const int32_t local = (row - w->row0) * w->cols + (col - w->col0);
  // Room for every edge of the run up front, so the loop stores without a test.
  w->pieces = grow(w->pieces, &w->piece_capacity, w->piece_count + (end - first), sizeof *w->pieces);
  inkwell_tile_piece *pieces = w->pieces;
  size_t n = w->piece_count;
  size_t i = first;
  for (; i < end; i++) {
    const float bx = points[2 * i], by = points[2 * i + 1];
    if (!(bx >= x_low && bx < x_high && by >= y_low && by < y_high)) break;
    if (ay != by) {
      pieces[n] = (inkwell_tile_piece){local, ax - ox, ay - oy, bx - ox, by - oy};
      n++;
    }
    ax = bx;
    ay = by;
  }
  w->piece_count = n;
  return i;
}

void inkwell_bin_walk_contour(inkwell_bin_walk *w, const float *points, size_t count) {
  w->has_previous = 0;
  if (count == 0) return;
  float px = points[2 * (count - 1)], py = points[2 * (count - 1) + 1];
  size_t i = 0;
  while (i < count) {
    const float bx = points[2 * i], by = points[2 * i + 1];
    edge(w, px, py, bx, by);
    px = bx;
    py = by;
    i++;
    if (w->has_previous && i < count) {
      const size_t next = edges_in_tile(w, points, i, count);
      if (next > i) {
        px = points[2 * (next - 1)];
        py = points[2 * (next - 1) + 1];
        i = next;
      }
    }
  }
  if (w->has_previous) transition(w, w->previous_row, w->previous_col, w->first_row, w->first_col, w->first_y);
}
