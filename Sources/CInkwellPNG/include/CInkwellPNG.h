/*
 * CInkwellPNG: the only code in Inkwell that calls libpng.
 *
 * libpng reports errors by calling an error handler that must not return;
 * its default handler longjmps (or aborts), which Swift frames cannot
 * survive. Every libpng call therefore happens inside a function of this
 * file that has installed setjmp and its own error and warning callbacks.
 * Each function returns an inkwell_png_status and, on failure, copies a
 * one-line message into a buffer the caller provides (NUL-terminated and
 * truncated to its capacity). Failed calls free whatever they allocated.
 *
 * Encoding is row-streamed: begin, write rows in bands of any size, then
 * finish (or abort). Output goes either to a growable memory buffer or to a
 * caller callback, so a renderer can feed bands without holding the image.
 * inkwell_png_encode is the one-call form built on the same stream.
 *
 * Decoding returns raw samples: no gamma or color-space conversion is
 * applied, whatever gAMA, sRGB or iCCP chunks say. Palette, grayscale and
 * low bit depths are expanded to RGBA; missing alpha is filled as opaque.
 */
#ifndef CINKWELLPNG_H
#define CINKWELLPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum inkwell_png_status {
  INKWELL_PNG_OK = 0,
  /* An argument was out of range (dimensions, level, stride, row count). */
  INKWELL_PNG_INVALID_ARGUMENT = 1,
  /* libpng rejected the data or the request; see the message. */
  INKWELL_PNG_LIBPNG_ERROR = 2,
  INKWELL_PNG_OUT_OF_MEMORY = 3,
  /* The image has more pixels than the caller allowed. */
  INKWELL_PNG_TOO_LARGE = 4,
  /* The caller's write callback reported a failure. */
  INKWELL_PNG_SINK_FAILED = 5,
  /* Finish was called before every row was written. */
  INKWELL_PNG_INCOMPLETE = 6,
  /* The encoder already failed; only finish or abort may follow. */
  INKWELL_PNG_ENCODER_FAILED = 7,
} inkwell_png_status;

/* Sample layout of the caller's rows. */
typedef enum inkwell_png_layout {
  /* Four samples per pixel, written as RGBA. */
  INKWELL_PNG_LAYOUT_RGBA = 0,
  /* Three samples per pixel, written as RGB. */
  INKWELL_PNG_LAYOUT_RGB = 1,
  /* Four samples per pixel in memory; the fourth is dropped, RGB written. */
  INKWELL_PNG_LAYOUT_RGBX = 2,
  /* One byte per pixel, an index into `palette` (8-bit only). */
  INKWELL_PNG_LAYOUT_INDEXED = 3,
} inkwell_png_layout;

/* Byte order of 16-bit samples in memory (8-bit samples ignore it). */
typedef enum inkwell_png_byte_order {
  INKWELL_PNG_BIG_ENDIAN = 0, /* PNG's own order */
  INKWELL_PNG_LITTLE_ENDIAN = 1,
} inkwell_png_byte_order;

/* Row filter. ADAPTIVE lets libpng choose per row among all five filters
 * (smallest files); a fixed filter skips the search (faster). */
typedef enum inkwell_png_filter {
  INKWELL_PNG_FILTER_ADAPTIVE = 0,
  INKWELL_PNG_FILTER_NONE = 1,
  INKWELL_PNG_FILTER_SUB = 2,
  INKWELL_PNG_FILTER_UP = 3,
  INKWELL_PNG_FILTER_AVERAGE = 4,
  INKWELL_PNG_FILTER_PAETH = 5,
} inkwell_png_filter;

typedef struct inkwell_png_encode_options {
  uint32_t width;  /* 1 ... 2^31 - 1 */
  uint32_t height; /* 1 ... 2^31 - 1 */
  int bit_depth;   /* 8 or 16 */
  inkwell_png_layout layout;
  inkwell_png_byte_order byte_order;
  int compression_level; /* zlib level, 0 (store) ... 9 (smallest) */
  inkwell_png_filter filter;
  int write_srgb_chunk; /* nonzero: write sRGB, perceptual intent */
  /* Ancillary chunks written after the header (and sRGB) and before the
   * image data, back to back: 4-byte type, 4-byte big-endian data length,
   * data. NULL / 0 for none. Read only while the encoder begins. Used for
   * cICP, mDCV and cLLI, which libpng 1.6.39 has no API for. */
  const uint8_t *extra_chunks;
  size_t extra_chunks_size;
  /* INKWELL_PNG_LAYOUT_INDEXED: `palette_entries` (1 ... 256) colors of four
   * bytes, R, G, B, A, written as PLTE and, where an alpha is below 255, tRNS.
   * Read only while the encoder begins. NULL / 0 for other layouts. */
  const uint8_t *palette;
  int palette_entries;
} inkwell_png_encode_options;

/* Receives encoded bytes in order. Returns 0 on success, nonzero to stop
 * the encoder with INKWELL_PNG_SINK_FAILED. */
typedef int (*inkwell_png_write_fn)(void *context, const uint8_t *bytes, size_t count);

typedef struct inkwell_png_encoder inkwell_png_encoder;

/* Starts an encoder that collects the file in memory; finish hands it out.
 * On success *out_encoder is set; on failure it is left NULL. */
inkwell_png_status inkwell_png_encoder_begin_memory(const inkwell_png_encode_options *options,
                                                    inkwell_png_encoder **out_encoder,
                                                    char *message, size_t message_capacity);

/* Starts an encoder that passes the file to `write` as it is produced.
 * The PNG signature and header are written before this returns. */
inkwell_png_status inkwell_png_encoder_begin_stream(const inkwell_png_encode_options *options,
                                                    inkwell_png_write_fn write, void *write_context,
                                                    inkwell_png_encoder **out_encoder,
                                                    char *message, size_t message_capacity);

/* Encodes `row_count` rows, `row_stride` bytes apart, starting at `rows`.
 * Writing more rows than the image height is INKWELL_PNG_INVALID_ARGUMENT
 * and writes nothing. After any other failure the encoder is spent: later
 * writes return INKWELL_PNG_ENCODER_FAILED; call finish or abort. */
inkwell_png_status inkwell_png_encoder_write_rows(inkwell_png_encoder *encoder, const void *rows,
                                                  size_t row_count, size_t row_stride,
                                                  char *message, size_t message_capacity);

/* Writes the end of the file and frees the encoder, whether or not it
 * succeeds. For a memory encoder, on success *out_bytes receives a buffer
 * to release with inkwell_png_free and *out_size its length; for a stream
 * encoder both may be NULL and are set to NULL / 0. */
inkwell_png_status inkwell_png_encoder_finish(inkwell_png_encoder *encoder, uint8_t **out_bytes,
                                              size_t *out_size, char *message,
                                              size_t message_capacity);

/* Frees an encoder without finishing the file. Accepts NULL. */
void inkwell_png_encoder_abort(inkwell_png_encoder *encoder);

/* Encodes a whole image into memory: begin, one band of rows, finish. */
inkwell_png_status inkwell_png_encode(const inkwell_png_encode_options *options, const void *pixels,
                                      size_t row_stride, uint8_t **out_bytes, size_t *out_size,
                                      char *message, size_t message_capacity);

/* Writes already-deflated image data (a piece of the zlib stream) as one
 * IDAT chunk, after begin. Used instead of write_rows. */
inkwell_png_status inkwell_png_encoder_write_idat(inkwell_png_encoder *encoder, const uint8_t *bytes,
                                                  size_t count, char *message,
                                                  size_t message_capacity);

/* Ends a file whose image data went through write_idat: writes IEND and
 * frees the encoder, handing out memory as finish does. */
inkwell_png_status inkwell_png_encoder_finish_idat(inkwell_png_encoder *encoder, uint8_t **out_bytes,
                                                   size_t *out_size, char *message,
                                                   size_t message_capacity);

typedef struct inkwell_png_decoded_image {
  uint32_t width;
  uint32_t height;
  int bit_depth;     /* 8 or 16, as requested */
  void *pixels;      /* RGBA rows, tightly packed; free with inkwell_png_free */
  size_t byte_count; /* width * height * 4 * bit_depth / 8 */
} inkwell_png_decoded_image;

/* Decodes a PNG file held in memory into RGBA with `bit_depth` (8 or 16)
 * bits per sample. 16-bit files decoded to 8 bits are scaled with rounding;
 * 8-bit files decoded to 16 bits are scaled exactly (v * 257). Images with
 * more than `max_pixels` pixels are refused before any pixel memory is
 * allocated. On failure *out_image is zeroed, except that for
 * INKWELL_PNG_TOO_LARGE it carries the refused width and height. */
inkwell_png_status inkwell_png_decode(const uint8_t *bytes, size_t size, int bit_depth,
                                      inkwell_png_byte_order byte_order, uint64_t max_pixels,
                                      inkwell_png_decoded_image *out_image, char *message,
                                      size_t message_capacity);

/* Releases a buffer returned by this library. Accepts NULL. */
void inkwell_png_free(void *buffer);

#ifdef __cplusplus
}
#endif

#include "CInkwellPNGBands.h"

#endif
