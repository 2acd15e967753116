/*
 * Band-parallel PNG image data.
 *
 * A PNG's image data is one zlib stream over filtered rows. Deflating it in
 * bands of rows, each band with its own compressor, lets the bands be
 * compressed on different threads: every band but the last ends with a
 * sync flush (a byte-aligned empty stored block), so the raw deflate data
 * of consecutive bands concatenates into one valid stream; each band's
 * back-references stay inside the band. The zlib header goes in front and
 * the Adler-32 of all filtered bytes (combined from the bands') at the end.
 * Band boundaries are chosen from the image alone, so the bytes do not
 * depend on how many threads compress them.
 *
 * libpng still writes the container (inkwell_png_encoder_write_idat and
 * inkwell_png_encoder_finish_idat in CInkwellPNG.h).
 */
#ifndef CINKWELLPNG_BANDS_H
#define CINKWELLPNG_BANDS_H

#include <stddef.h>
#include <stdint.h>

#include "CInkwellPNG.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How each row is filtered before deflate. */
typedef enum inkwell_png_band_filter {
  INKWELL_PNG_BAND_FILTER_NONE = 0,
  INKWELL_PNG_BAND_FILTER_SUB = 1,
  INKWELL_PNG_BAND_FILTER_UP = 2,
  INKWELL_PNG_BAND_FILTER_PAETH = 4,
  /* Per row, the filter whose output has the smallest sum of absolute
   * values (as signed bytes), among none, sub, up, average and paeth. */
  INKWELL_PNG_BAND_FILTER_ADAPTIVE = 5,
  /* The band deflated both unfiltered and with ADAPTIVE, keeping the smaller
   * (the unfiltered one on a tie). Adaptive rows suit photographs and
   * colorful pages; a page of dark strokes on paper deflates better
   * unfiltered, where the heuristic trades runs of paper for small sums.
   * Palette indices (one channel) are also deflated unfiltered at level 1
   * with Z_RLE, the effort-1 form for them, so more effort is never larger. */
  INKWELL_PNG_BAND_FILTER_SMALLER = 6,
} inkwell_png_band_filter;

typedef struct inkwell_png_band_options {
  uint32_t width;
  int input_channels;  /* samples per pixel in memory: 4 (RGBA8), or 1 (palette indices) */
  int output_channels; /* 3 (drop the fourth sample) or 4; 1 with 1 */
  int level;           /* zlib level 1 ... 9 */
  int strategy;        /* zlib strategy: 0 default, 3 run-length (Z_RLE) */
  inkwell_png_band_filter filter;
} inkwell_png_band_options;

/* Filters and deflates `row_count` rows starting at `rows` (`stride` bytes
 * apart). `previous_row` is the input row just above the band (NULL for
 * the first band). `is_last` ends the stream; otherwise the band ends with
 * a sync flush. On success *out_bytes (free with inkwell_png_free) holds the
 * raw deflate data, *out_size its length, *out_adler the Adler-32 of the
 * band's filtered bytes, *out_length their count. Thread-safe. Compressors
 * are kept for later bands (at most eight, about 330 KiB each with their
 * scratch rows), which write the same bytes as new ones. */
inkwell_png_status inkwell_png_deflate_band(const inkwell_png_band_options *options,
                                            const uint8_t *rows, size_t stride,
                                            const uint8_t *previous_row, uint32_t row_count,
                                            int is_last, uint8_t **out_bytes, size_t *out_size,
                                            uint32_t *out_adler, uint64_t *out_length);

/* Maps each pixel of an RGBA8 image (rows `stride` bytes apart) to an entry
 * of a palette of at most 256 colors, numbered in order of first appearance
 * in raster order; without `with_alpha` the fourth byte is ignored and every
 * entry's alpha is 255. Writes `width` indices a row to `indices` (rows
 * `width` bytes apart) and the entries, four bytes each (R, G, B, A), to
 * `palette` (room for 256). Returns the number of entries, or 0 when the
 * image has more than 256 colors (the outputs then hold nothing useful). */
int inkwell_png_index_colors(const uint8_t *rgba, size_t stride, uint32_t width, uint32_t height,
                             int with_alpha, uint8_t *indices, uint8_t *palette);

/* The Adler-32 of `count` bytes continued from `adler` (1 for none yet):
 * vectors where the processor has them, zlib's adler32 otherwise. */
uint32_t inkwell_png_adler32(uint32_t adler, const uint8_t *bytes, size_t count);

/* zlib's adler32, the reference the vectors are tested against. */
uint32_t inkwell_png_adler32_reference(uint32_t adler, const uint8_t *bytes, size_t count);

/* Adler-32 of two byte runs joined, from each run's Adler-32 and the second's length. */
uint32_t inkwell_png_adler32_combine(uint32_t first, uint32_t second, uint64_t second_length);

#ifdef __cplusplus
}
#endif

#endif
