// The pen outline's join plan at PEN_LANES lanes (4 or 8), included by pen.c and pen_avx2.c with
// PEN_LANES and PEN_KERNEL(name) defined. See pen.c.

#pragma clang fp contract(off)

// Points in front of the right side's points, for the reversed lanes of the last joins.
#define PEN_POINT_PADDING 8

typedef float pen_lanes __attribute__((vector_size(4 * PEN_LANES)));
typedef int32_t pen_mask __attribute__((vector_size(4 * PEN_LANES)));

static inline pen_lanes pen_load(const float *p) {
  pen_lanes v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

static inline void pen_store(float *p, pen_lanes v) { __builtin_memcpy(p, &v, sizeof v); }

static inline pen_lanes pen_splat(float x) {
  pen_lanes v;
  for (int l = 0; l < PEN_LANES; l++) v[l] = x;
  return v;
}

// Lanes last to first.
static inline pen_lanes pen_reverse(pen_lanes v) {
#if PEN_LANES == 4
  return __builtin_shufflevector(v, v, 3, 2, 1, 0);
#else
  return __builtin_shufflevector(v, v, 7, 6, 5, 4, 3, 2, 1, 0);
#endif
}

// Lane l of x and y as the point (x, y) at p[2l], p[2l + 1].
static inline void pen_store_points(float *p, pen_lanes x, pen_lanes y) {
#if PEN_LANES == 4
  pen_store(p, __builtin_shufflevector(x, y, 0, 4, 1, 5));
  pen_store(p + 4, __builtin_shufflevector(x, y, 2, 6, 3, 7));
#else
  pen_store(p, __builtin_shufflevector(x, y, 0, 8, 1, 9, 2, 10, 3, 11));
  pen_store(p + 8, __builtin_shufflevector(x, y, 4, 12, 5, 13, 6, 14, 7, 15));
#endif
}

// `mask ? a : b`, lane by lane.
static inline pen_lanes pen_select(pen_mask mask, pen_lanes a, pen_lanes b) {
  return (pen_lanes)((mask & (pen_mask)a) | (~mask & (pen_mask)b));
}

static inline pen_lanes pen_magnitude(pen_lanes v) {
  pen_mask m;
  for (int l = 0; l < PEN_LANES; l++) m[l] = 0x7fffffff;
  return (pen_lanes)((pen_mask)v & m);
}

INKWELL_HIDDEN void PEN_KERNEL(pen_plan_joins)(const float *discs, size_t count, float *plan, size_t stride,
                                               float arc_tolerance) {
  float *x = plan, *y = plan + stride, *radius = plan + 2 * stride;
  for (size_t k = 0; k < count; k++) {
    x[k] = discs[3 * k];
    y[k] = discs[3 * k + 1];
    radius[k] = discs[3 * k + 2];
  }
  // The lanes past the last disc read copies of it; what they compute is never read.
  for (size_t k = count; k < stride; k++) {
    x[k] = x[count - 1];
    y[k] = y[count - 1];
    radius[k] = radius[count - 1];
  }
  size_t segments = count - 1;
  float *offset_x[2] = {plan + 3 * stride, plan + 5 * stride};
  float *offset_y[2] = {plan + 4 * stride, plan + 6 * stride};

  // tangents(discs[i], discs[i + 1]): the unit direction d, sine = clamp((rb − ra) / |delta|,
  // −1, 1), cosine = √|1 − sine²|, normal n = (−d.y, d.x); left n·cos − d·sine, right
  // n·(−cos) − d·sine.
  // Past the last capsule too, as far as the joins' lanes read (count + PEN_LANES − 3).
  const pen_lanes one = pen_splat(1.0f);
  for (size_t i = 0; i < count + PEN_LANES - 2; i += PEN_LANES) {
    pen_lanes dx = pen_load(x + i + 1) - pen_load(x + i);
    pen_lanes dy = pen_load(y + i + 1) - pen_load(y + i);
    pen_lanes inverse_length = one / __builtin_elementwise_sqrt(dx * dx + dy * dy);
    pen_lanes ux = dx * inverse_length;
    pen_lanes uy = dy * inverse_length;
    pen_lanes sine = (pen_load(radius + i + 1) - pen_load(radius + i)) * inverse_length;
    // Swift.max(v, −1) keeps v unless −1 ≥ v; Swift.min(v, 1) unless 1 < v.
    sine = pen_select(sine <= -one, -one, sine);
    sine = pen_select(sine > one, one, sine);
    pen_lanes cosine = __builtin_elementwise_sqrt(pen_magnitude(one - sine * sine));
    pen_lanes nx = -uy;
    pen_lanes ny = ux;
    pen_store(offset_x[0] + i, nx * cosine - ux * sine);
    pen_store(offset_y[0] + i, ny * cosine - uy * sine);
    pen_store(offset_x[1] + i, nx * -cosine - ux * sine);
    pen_store(offset_y[1] + i, ny * -cosine - uy * sine);
  }

  // Join j of a side: side a is capsule j − 1's, b capsule j's, at disc j. Where the side turns
  // outwards (turn·sign > 0; the left side's sign is −1), the corner center + (a + b)·r / k,
  // k = 1 + a·b, when k ≥ 2q² for q = r / (r + ε); else the crossing of the sides' lines at
  // fractions ta, tb, when the lines are not parallel and it lies on both sides.
  float *left_points = plan + 13 * stride;
  float *right_points = plan + 15 * stride + 2 * PEN_POINT_PADDING;
  const float wide_epsilon = arc_tolerance * 0.9f;
  const float narrow_epsilon = arc_tolerance * 0.25f;
  for (int side = 0; side < 2; side++) {
    const pen_lanes sign = pen_splat(side == 0 ? -1.0f : 1.0f);
    const float *ox = offset_x[side], *oy = offset_y[side];
    float *along = plan + (7 + 3 * side) * stride;
    float *along_next = plan + (8 + 3 * side) * stride;
    float *kind = plan + (9 + 3 * side) * stride;
    for (size_t j = 1; j < segments; j += PEN_LANES) {
      pen_lanes ax = pen_load(ox + j - 1), ay = pen_load(oy + j - 1);
      pen_lanes bx = pen_load(ox + j), by = pen_load(oy + j);
      pen_lanes cx = pen_load(x + j), cy = pen_load(y + j), r = pen_load(radius + j);
      pen_lanes turn = ax * by - ay * bx;
      pen_mask outer = turn * sign > pen_splat(0.0f);
      pen_lanes k = one + (ax * bx + ay * by);
      pen_lanes epsilon =
          pen_select(r > pen_splat(arc_tolerance), pen_splat(wide_epsilon), pen_splat(narrow_epsilon));
      pen_lanes q = r / (r + epsilon);
      pen_mask corner = k >= pen_splat(2.0f) * q * q;
      pen_lanes reach = r / k;
      pen_lanes corner_x = cx + (ax + bx) * reach;
      pen_lanes corner_y = cy + (ay + by) * reach;

      pen_lanes previous_r = pen_load(radius + j - 1), next_r = pen_load(radius + j + 1);
      pen_lanes a_start_x = pen_load(x + j - 1) + ax * previous_r;
      pen_lanes a_start_y = pen_load(y + j - 1) + ay * previous_r;
      pen_lanes a_end_x = cx + ax * r, a_end_y = cy + ay * r;
      pen_lanes b_start_x = cx + bx * r, b_start_y = cy + by * r;
      pen_lanes b_end_x = pen_load(x + j + 1) + bx * next_r;
      pen_lanes b_end_y = pen_load(y + j + 1) + by * next_r;
      pen_lanes dax = a_end_x - a_start_x, day = a_end_y - a_start_y;
      pen_lanes dbx = b_end_x - b_start_x, dby = b_end_y - b_start_y;
      pen_lanes denominator = dax * dby - day * dbx;
      pen_lanes wx = b_start_x - a_start_x, wy = b_start_y - a_start_y;
      pen_lanes ta = (wx * dby - wy * dbx) / denominator;
      pen_lanes tb = (wx * day - wy * dax) / denominator;
      pen_mask crossing =
          ~outer & (pen_magnitude(denominator) > pen_splat(1e-12f)) & (ta <= one) & (tb >= pen_splat(0.0f));

      pen_lanes chosen = pen_select(crossing, pen_splat(INKWELL_PEN_JOIN_CROSSING), pen_splat(INKWELL_PEN_JOIN_OTHER));
      pen_store(kind + j, pen_select(outer & corner, pen_splat(INKWELL_PEN_JOIN_CORNER), chosen));
      pen_lanes point_x = pen_select(outer, corner_x, a_start_x + dax * ta);
      pen_lanes point_y = pen_select(outer, corner_y, a_start_y + day * ta);
      if (side == 0) {
        pen_store_points(left_points + 2 * j, point_x, point_y);
      } else {
        // Join j's point at position segments − 1 − j, so that the backward walk reads forward.
        pen_store_points(right_points + 2 * ((ptrdiff_t)segments - (ptrdiff_t)j - PEN_LANES),
                         pen_reverse(point_x), pen_reverse(point_y));
      }
      pen_store(along + j, ta);
      pen_store(along_next + j, tb);
    }
  }
}
