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
  const float inverse_tile = 1.0f / (float)INKWELL_TILE;
  const float ox = (float)col * (float)INKWELL_TILE;
  const float oy = (float)row * (float)INKWELL_TILE;
  float ax = points[2 * (first - 1)], ay = points[2 * (first - 1) + 1];
  if (!(ax >= 0.0f && ax < width && ay >= top && ay < bottom)) return first;
  if ((int)(ax * inverse_tile) != col || (int)(ay * inverse_tile) != row) return first;
  size_t n = *count;
  size_t i = first;
  for (; i < end; i++) {
    float bx = points[2 * i], by = points[2 * i + 1];
    if (!(bx >= 0.0f && bx < width && by >= top && by < bottom)) break;
    if ((int)(bx * inverse_tile) != col || (int)(by * inverse_tile) != row) break;
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
