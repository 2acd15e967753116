/*
 * CInkwellEXR: the only code in Inkwell that calls OpenEXR, through its core C API.
 *
 * Writes and reads single-part scanline RGBA images held in memory, ZIP-compressed, with
 * interleaved samples on the caller's side: half (as raw 16-bit patterns) or 32-bit float. Every
 * function returns 0 on success or an OpenEXR result code, and on failure copies a one-line message
 * into the caller's buffer. Nothing is printed.
 */
#ifndef CINKWELLEXR_H
#define CINKWELLEXR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  INKWELL_EXR_HALF = 1,
  INKWELL_EXR_FLOAT = 2,
} inkwell_exr_sample_type;

/* CIE xy chromaticities of red, green, blue and white, in that order. */
typedef struct {
  float xy[8];
} inkwell_exr_chromaticities;

/* Encodes `width` × `height` RGBA pixels (interleaved, rows `row_stride` bytes apart; halfs as
 * uint16_t bit patterns or floats as `type` says) into a new buffer: *out_bytes (release with
 * inkwell_exr_free) and *out_size. `chromaticities` may be NULL (then none is written, meaning
 * BT.709 / sRGB primaries). */
int inkwell_exr_encode(const void *pixels, int width, int height, size_t row_stride,
                       inkwell_exr_sample_type type,
                       const inkwell_exr_chromaticities *chromaticities, uint8_t **out_bytes,
                       size_t *out_size, char *message, size_t message_capacity);

typedef struct {
  int width;
  int height;
  /* RGBA floats, interleaved, rows packed; channels absent from the file are 0 (alpha 1). */
  float *pixels;
  int has_chromaticities;
  inkwell_exr_chromaticities chromaticities;
} inkwell_exr_image;

/* Decodes an EXR file held in memory (single part, scanline, R G B and optional A channels of any
 * sample type) into float RGBA. Refuses more than `max_pixels` pixels before allocating them. */
int inkwell_exr_decode(const uint8_t *bytes, size_t size, uint64_t max_pixels,
                       inkwell_exr_image *out_image, char *message, size_t message_capacity);

void inkwell_exr_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
