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

static inline pen_mask pen_splat_int(int32_t x) {
  pen_mask v;
  for (int l = 0; l < PEN_LANES; l++) v[l] = x;
  return v;
}

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

// ---- Discs ----------------------------------------------------------------------------------

// PenBrush's `discs` loop for the sample at `index`: its center through the map, skipped when not
// finite or, unless it is the last, when closer than `minimum_spacing` to the disc before; its
// radius from the width (the ink's where the point's is not a positive finite number), the
// pressure table and the speed scale, skipped when not finite.
static inline void PEN_KERNEL(pen_disc)(const float *p, size_t index, const inkwell_pen_disc_params *q,
                                        inkwell_pen_disc_run *run, float *arcs, float *discs) {
  float cx = q->map[0] * p[0] + q->map[2] * p[1] + q->map[4];
  float cy = q->map[1] * p[0] + q->map[3] * p[1] + q->map[5];
  if (!(__builtin_fabsf(cx) < __builtin_inff() && __builtin_fabsf(cy) < __builtin_inff())) return;
  float step = 0.0f;
  if (run->count > 0) {
    float dx = run->previous_x - cx, dy = run->previous_y - cy;
    step = __builtin_elementwise_sqrt(dx * dx + dy * dy);
    if (step < q->minimum_spacing && index != q->count - 1) return;
  }
  float w = p[3];
  float width = w > 0.0f && w < __builtin_inff() ? w : q->ink_width;
  // Swift.max(v, 0) keeps v unless 0 ≥ v, Swift.min(v, 1) unless 1 < v.
  float force = p[4];
  float f = __builtin_fabsf(force) < __builtin_inff() ? force : 1.0f;
  f = 0.0f >= f ? 0.0f : f;
  f = 1.0f < f ? 1.0f : f;
  float x = f * (float)INKWELL_PEN_PRESSURE_STEPS;
  int32_t k = (int32_t)x;
  k = INKWELL_PEN_PRESSURE_STEPS - 1 < k ? INKWELL_PEN_PRESSURE_STEPS - 1 : k;
  float low = q->pressure[k];
  float pressure = low + (q->pressure[k + 1] - low) * (x - (float)k);
  float r = 0.5f * width * pressure * q->scale;
  if (q->speed_scales) {
    float speed = q->speed_scales[index];
    r *= speed < 1.0f ? speed : 1.0f;
  }
  if (!(__builtin_fabsf(r) < __builtin_inff())) return;
  run->arc = run->arc + step;
  arcs[run->count] = run->arc;
  discs[3 * run->count] = cx;
  discs[3 * run->count + 1] = cy;
  discs[3 * run->count + 2] = r;
  run->count += 1;
  run->previous_x = cx;
  run->previous_y = cy;
  float opacity = p[5];
  float o = 0.0f >= opacity ? 0.0f : opacity;
  o = 2.0f < o ? 2.0f : o;
  run->opacity_sum += __builtin_fabsf(opacity) < __builtin_inff() ? o : 1.0f;
}

// A field of PEN_LANES consecutive tip points (six floats each), lane l from point l.
static inline pen_lanes pen_tip_field(const float *points, int field) {
#if PEN_GATHER_AVX2
  const __m256i offsets = _mm256_setr_epi32(0, 6, 12, 18, 24, 30, 36, 42);
  return (pen_lanes)_mm256_i32gather_ps(points + field, offsets, 4);
#else
  pen_lanes v;
  for (int l = 0; l < PEN_LANES; l++) v[l] = points[6 * l + field];
  return v;
#endif
}

static inline pen_lanes pen_gather(const float *table, pen_mask index) {
#if PEN_GATHER_AVX2
  return (pen_lanes)_mm256_i32gather_ps(table, (__m256i)index, 4);
#else
  pen_lanes v;
  for (int l = 0; l < PEN_LANES; l++) v[l] = table[index[l]];
  return v;
#endif
}

// Lanes moved up by one, `first` in lane 0: each lane's neighbour before it.
static inline pen_lanes pen_after(float first, pen_lanes v) {
  pen_lanes shifted;
  shifted[0] = first;
  for (int l = 1; l < PEN_LANES; l++) shifted[l] = v[l - 1];
  return shifted;
}

INKWELL_HIDDEN void PEN_KERNEL(pen_discs)(const float *points, const inkwell_pen_disc_params *q,
                                          inkwell_pen_disc_run *run, float *arcs, float *discs) {
  size_t n = q->count, index = 0;
  // The first disc has no neighbour before it.
  while (index < n && run->count == 0) {
    PEN_KERNEL(pen_disc)(points + 6 * index, index, q, run, arcs, discs);
    index++;
  }
  const pen_lanes infinity = pen_splat(__builtin_inff()), zero = pen_splat(0.0f), one = pen_splat(1.0f);
  pen_mask lane;
  for (int l = 0; l < PEN_LANES; l++) lane[l] = l;
  for (; index + PEN_LANES <= n; index += PEN_LANES) {
    const float *p = points + 6 * index;
    pen_lanes px = pen_tip_field(p, 0), py = pen_tip_field(p, 1);
    pen_lanes cx = pen_splat(q->map[0]) * px + pen_splat(q->map[2]) * py + pen_splat(q->map[4]);
    pen_lanes cy = pen_splat(q->map[1]) * px + pen_splat(q->map[3]) * py + pen_splat(q->map[5]);
    pen_lanes dx = pen_after(run->previous_x, cx) - cx, dy = pen_after(run->previous_y, cy) - cy;
    pen_lanes step = __builtin_elementwise_sqrt(dx * dx + dy * dy);
    size_t to_last = n - 1 - index;
    pen_mask is_last = lane == pen_splat_int(to_last < PEN_LANES ? (int32_t)to_last : PEN_LANES);
    pen_lanes w = pen_tip_field(p, 3);
    pen_lanes width = pen_select((w > zero) & (w < infinity), w, pen_splat(q->ink_width));
    pen_lanes force = pen_tip_field(p, 4);
    pen_lanes f = pen_select(pen_magnitude(force) < infinity, force, one);
    f = pen_select(zero >= f, zero, f);
    f = pen_select(one < f, one, f);
    pen_lanes x = f * pen_splat((float)INKWELL_PEN_PRESSURE_STEPS);
    pen_mask k = __builtin_convertvector(x, pen_mask);
    pen_mask highest = pen_splat_int(INKWELL_PEN_PRESSURE_STEPS - 1);
    pen_mask over = highest < k;
    k = (over & highest) | (~over & k);
    pen_lanes low = pen_gather(q->pressure, k);
    pen_lanes high = pen_gather(q->pressure + 1, k);
    pen_lanes pressure = low + (high - low) * (x - __builtin_convertvector(k, pen_lanes));
    pen_lanes r = pen_splat(0.5f) * width * pressure * pen_splat(q->scale);
    if (q->speed_scales) {
      pen_lanes speed = pen_load(q->speed_scales + index);
      r = r * pen_select(speed < one, speed, one);
    }
    pen_mask kept = (pen_magnitude(cx) < infinity) & (pen_magnitude(cy) < infinity) &
                    ~((step < pen_splat(q->minimum_spacing)) & ~is_last) & (pen_magnitude(r) < infinity);
    int all = 1;
    for (int l = 0; l < PEN_LANES; l++) all &= kept[l] != 0;
    if (!all) {
      for (int l = 0; l < PEN_LANES; l++) PEN_KERNEL(pen_disc)(p + 6 * l, index + (size_t)l, q, run, arcs, discs);
      continue;
    }
    pen_lanes opacity = pen_tip_field(p, 5);
    pen_lanes o = pen_select(zero >= opacity, zero, opacity);
    o = pen_select(pen_splat(2.0f) < o, pen_splat(2.0f), o);
    o = pen_select(pen_magnitude(opacity) < infinity, o, one);
    size_t c = run->count;
    float arc = run->arc, opacity_sum = run->opacity_sum;
    for (int l = 0; l < PEN_LANES; l++) {
      arc = arc + step[l];
      arcs[c + (size_t)l] = arc;
      discs[3 * (c + (size_t)l)] = cx[l];
      discs[3 * (c + (size_t)l) + 1] = cy[l];
      discs[3 * (c + (size_t)l) + 2] = r[l];
      opacity_sum += o[l];
    }
    run->count = c + PEN_LANES;
    run->arc = arc;
    run->opacity_sum = opacity_sum;
    run->previous_x = cx[PEN_LANES - 1];
    run->previous_y = cy[PEN_LANES - 1];
  }
  for (; index < n; index++) PEN_KERNEL(pen_disc)(points + 6 * index, index, q, run, arcs, discs);
}

// ---- Tip points along the spline ------------------------------------------------------------

// One tip point's lanes: location x and y, time, width, force, opacity, two zeros.
typedef float pen_tip __attribute__((vector_size(32)));

INKWELL_HIDDEN void PEN_KERNEL(pen_tip_points)(const float *lanes, size_t knots, const float *parameters,
                                               size_t count, float *out) {
  const float last = (float)(knots - 1);
  const pen_lanes zero = pen_splat(0.0f), one = pen_splat(1.0f), sixth = pen_splat(1.0f / 6.0f);
  const pen_mask last_segment = pen_splat_int((int32_t)(knots - 2));
  float weights[4][PEN_LANES];
  int32_t segments[PEN_LANES];
  // PEN_LANES parameters at a time, the last group ending at the last parameter (fewer than
  // PEN_LANES in all: one group over them, the rest of its lanes copies of the last).
  for (size_t j = 0; j < count;) {
    size_t start = count >= PEN_LANES ? (j + PEN_LANES <= count ? j : count - PEN_LANES) : 0;
    pen_lanes t;
    for (int l = 0; l < PEN_LANES; l++) {
      size_t at = start + (size_t)l;
      t[l] = parameters[at < count ? at : count - 1];
    }
    // tc = t clamped into 0…last, NaN to 0 (Swift.max(t, 0) is 0 where 0 ≥ t, Swift.min(x,
    // last) is last where last < x); i = min(⌊tc⌋, knots − 2); the basis at u = tc − i.
    pen_lanes tc = pen_select(t <= zero, zero, t);
    tc = pen_select(tc > pen_splat(last), pen_splat(last), tc);
    tc = pen_select(t != t, zero, tc);
    pen_mask i = __builtin_convertvector(tc, pen_mask);
    pen_mask over = i > last_segment;
    i = (over & last_segment) | (~over & i);
    pen_lanes u = tc - __builtin_convertvector(i, pen_lanes);
    pen_lanes u2 = u * u;
    pen_lanes u3 = u2 * u;
    pen_lanes v = one - u;
    pen_lanes w[4] = {
        v * v * v * sixth,
        (pen_splat(3.0f) * u3 - pen_splat(6.0f) * u2 + pen_splat(4.0f)) * sixth,
        (pen_splat(-3.0f) * u3 + pen_splat(3.0f) * u2 + pen_splat(3.0f) * u + one) * sixth,
        u3 * sixth,
    };
    for (int k = 0; k < 4; k++) __builtin_memcpy(weights[k], &w[k], sizeof w[k]);
    __builtin_memcpy(segments, &i, sizeof i);
    size_t end = start + PEN_LANES < count ? start + PEN_LANES : count;
    for (size_t at = j; at < end; at++) {
      int l = (int)(at - start);
      const float *entry = lanes + 8 * (size_t)segments[l];
      pen_tip e[4];
      __builtin_memcpy(e, entry, sizeof e);
      pen_tip b = e[0] * weights[0][l];
      b += e[1] * weights[1][l];
      b += e[2] * weights[2][l];
      b += e[3] * weights[3][l];
      // Width and force at least 0 (Swift.max(0, x) is x where x ≥ 0), opacity within 0…2.
      float opacity = 0.0f >= b[5] ? 0.0f : b[5];
      float tip[6] = {b[0], b[1], b[2], b[3] >= 0.0f ? b[3] : 0.0f, b[4] >= 0.0f ? b[4] : 0.0f,
                      2.0f < opacity ? 2.0f : opacity};
      __builtin_memcpy(out + 6 * at, tip, sizeof tip);
    }
    j = end;
  }
}

// ---- Speeds between samples -----------------------------------------------------------------

INKWELL_HIDDEN void PEN_KERNEL(pen_speeds)(const float *points, size_t n, float steady, float *speeds,
                                           int32_t *valid_counts, int32_t *fast_counts) {
  int32_t valid = 0, fast = 0;
  size_t k = 0;
  const pen_lanes infinity = pen_splat(__builtin_inff());
  for (; k + PEN_LANES < n; k += PEN_LANES) {
    const float *p = points + 6 * k;
    pen_lanes dt = pen_tip_field(p + 6, 2) - pen_tip_field(p, 2);
    pen_lanes dx = pen_tip_field(p, 0) - pen_tip_field(p + 6, 0);
    pen_lanes dy = pen_tip_field(p, 1) - pen_tip_field(p + 6, 1);
    pen_lanes d = __builtin_elementwise_sqrt(dx * dx + dy * dy);
    pen_mask ok = (dt > pen_splat(1e-6f)) & (dt < infinity) & (d < infinity);
    pen_lanes speed = d / dt;
    pen_mask quick = ok & (speed > pen_splat(steady));
    pen_store(speeds + k, pen_select(ok, speed, pen_splat(0.0f)));
    for (int l = 0; l < PEN_LANES; l++) {
      valid -= ok[l];
      fast -= quick[l];
      valid_counts[k + (size_t)l] = valid;
      fast_counts[k + (size_t)l] = fast;
    }
  }
  for (; k + 1 < n; k++) {
    const float *p = points + 6 * k;
    float dt = p[8] - p[2];
    float dx = p[0] - p[6], dy = p[1] - p[7];
    float d = __builtin_elementwise_sqrt(dx * dx + dy * dy);
    float speed = 0.0f;
    if (dt > 1e-6f && dt < __builtin_inff() && d < __builtin_inff()) {
      speed = d / dt;
      valid += 1;
      fast += speed > steady;
    }
    speeds[k] = speed;
    valid_counts[k] = valid;
    fast_counts[k] = fast;
  }
}
