// The innermost loop of binning: consecutive outline edges that stay inside one tile.
//
// A flattened outline has an edge every pixel or two, so most of a contour is runs of edges that
// begin and end in the tile the previous piece lay in. Such an edge is its own piece (no cut, no
// change of tile, so no winding carried across a border); the binner in Swift (Bin/TileBinner)
// hands each run here and takes over at the first edge that leaves the tile or the canvas. The
// piece is stored as Swift stores it: the same subtractions in the same order, so the tile lists
// are the same bit for bit.

#include "InkwellKernels.h"

#pragma clang fp contract(off)

size_t inkwell_bin_edges_in_tile(const float *points, size_t first, size_t end, int col, int row,
                                 int32_t local_tile, float width, float top, float bottom,
                                 inkwell_tile_piece *pieces, size_t *count, size_t capacity) {
  if (first == 0 || first >= end) return first;
  const float ox = (float)col * (float)INKWELL_TILE;
  const float oy = (float)row * (float)INKWELL_TILE;
  // Inside the canvas rows and in tile (col, row): x in [0, width) with floor(x / 32) = col, that
  // is x in [max(0, ox), min(width, ox + 32)), and likewise for y. (Dividing by 32 is exact, so the
  // two tests agree for every float; NaN fails both.)
  const float x_low = ox > 0.0f ? ox : 0.0f;
  const float x_high = ox + (float)INKWELL_TILE < width ? ox + (float)INKWELL_TILE : width;
  const float y_low = oy > top ? oy : top;
  const float y_high = oy + (float)INKWELL_TILE < bottom ? oy + (float)INKWELL_TILE : bottom;
  float ax = points[2 * (first - 1)], ay = points[2 * (first - 1) + 1];
  if (!(ax >= x_low && ax < x_high && ay >= y_low && ay < y_high)) return first;
  size_t n = *count;
  size_t i = first;
  for (; i < end; i++) {
    float bx = points[2 * i], by = points[2 * i + 1];
    if (!(bx >= x_low && bx < x_high && by >= y_low && by < y_high)) break;
    if (ay != by) {
      if (n == capacity) break;
      pieces[n] = (inkwell_tile_piece){local_tile, ax - ox, ay - oy, bx - ox, by - oy};
      n++;
    }
    ax = bx;
    ay = by;
  }
  *count = n;
  return i;
}
