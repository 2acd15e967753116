/*
 * libpng behind setjmp: see CInkwellPNG.h for the contract.
 *
 * Each public function that calls into libpng installs setjmp first, because
 * a jmp_buf is only valid while the function that filled it is running.
 * libpng reaches our error callback, which records the message and longjmps
 * back there; the function then frees what it owns and returns a status.
 * State that the error path reads lives outside the frame that calls setjmp
 * (in the heap-allocated encoder, or a decode session owned by the caller's
 * frame), so no local is modified between setjmp and longjmp; the encoder
 * functions read only their unmodified parameters after a longjmp.
 *
 * Output callbacks (memory growth, the caller's sink) cannot return an error
 * through libpng, so they record a specific status in the failure report and
 * raise png_error; the report keeps that status instead of the generic one.
 */
#include "CInkwellPNG.h"

#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAILURE_MESSAGE_CAPACITY = 256 };

/* Where libpng's error callback leaves its message. */
typedef struct failure_report {
  inkwell_png_status status;
  char message[FAILURE_MESSAGE_CAPACITY];
} failure_report;

struct inkwell_png_encoder {
  png_structp png;
  png_infop info;
  failure_report failure;
  bool failed;

  inkwell_png_write_fn write; /* NULL: collect into memory */
  void *write_context;
  uint8_t *memory;
  size_t memory_size;
  size_t memory_capacity;

  size_t input_row_bytes;
  uint32_t height;
  uint32_t rows_written;
};

static void copy_message(char *destination, size_t capacity, const char *text) {
  if (destination != NULL && capacity > 0) {
    snprintf(destination, capacity, "%s", text);
  }
}

static inkwell_png_status report(char *message, size_t capacity, inkwell_png_status status,
                                 const char *text) {
  copy_message(message, capacity, text);
  return status;
}

static void record_failure(failure_report *failure, inkwell_png_status status, const char *text) {
  failure->status = status;
  snprintf(failure->message, sizeof failure->message, "%s", text);
}

static void on_libpng_error(png_structp png, png_const_charp text) {
  failure_report *failure = png_get_error_ptr(png);
  if (failure->status == INKWELL_PNG_OK) {
    failure->status = INKWELL_PNG_LIBPNG_ERROR;
    snprintf(failure->message, sizeof failure->message, "%s", text);
  }
  png_longjmp(png, 1);
}

/* Warnings (a benign but odd ancillary chunk, say) must not reach stderr,
 * and they do not change the outcome, so they are dropped. */
static void on_libpng_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

/* ---- Encoding ----------------------------------------------------------- */

static void on_write_to_memory(png_structp png, png_bytep bytes, size_t count) {
  inkwell_png_encoder *encoder = png_get_io_ptr(png);
  if (count > SIZE_MAX - encoder->memory_size) {
    record_failure(&encoder->failure, INKWELL_PNG_OUT_OF_MEMORY, "encoded file exceeds memory");
    png_error(png, "encoded file exceeds memory");
  }
  size_t needed = encoder->memory_size + count;
  if (needed > encoder->memory_capacity) {
    size_t capacity = encoder->memory_capacity > 0 ? encoder->memory_capacity : 64 * 1024;
    while (capacity < needed) {
      capacity = capacity <= SIZE_MAX / 2 ? capacity * 2 : needed;
    }
    uint8_t *grown = realloc(encoder->memory, capacity);
    if (grown == NULL) {
      record_failure(&encoder->failure, INKWELL_PNG_OUT_OF_MEMORY,
                     "out of memory growing the output buffer");
      png_error(png, "out of memory growing the output buffer");
    }
    encoder->memory = grown;
    encoder->memory_capacity = capacity;
  }
  memcpy(encoder->memory + encoder->memory_size, bytes, count);
  encoder->memory_size = needed;
}

static void on_write_to_sink(png_structp png, png_bytep bytes, size_t count) {
  inkwell_png_encoder *encoder = png_get_io_ptr(png);
  if (encoder->write(encoder->write_context, bytes, count) != 0) {
    record_failure(&encoder->failure, INKWELL_PNG_SINK_FAILED, "the output sink failed");
    png_error(png, "the output sink failed");
  }
}

static void on_flush(png_structp png) {
  (void)png;
}

static void encoder_destroy(inkwell_png_encoder *encoder) {
  png_destroy_write_struct(&encoder->png, &encoder->info);
  free(encoder->memory);
  free(encoder);
}

static int libpng_filter_mask(inkwell_png_filter filter) {
  switch (filter) {
  case INKWELL_PNG_FILTER_ADAPTIVE: return PNG_ALL_FILTERS;
  case INKWELL_PNG_FILTER_NONE: return PNG_FILTER_NONE;
  case INKWELL_PNG_FILTER_SUB: return PNG_FILTER_SUB;
  case INKWELL_PNG_FILTER_UP: return PNG_FILTER_UP;
  case INKWELL_PNG_FILTER_AVERAGE: return PNG_FILTER_AVG;
  case INKWELL_PNG_FILTER_PAETH: return PNG_FILTER_PAETH;
  }
  return -1;
}

static size_t samples_in_memory(inkwell_png_layout layout) {
  return layout == INKWELL_PNG_LAYOUT_RGB ? 3 : (layout == INKWELL_PNG_LAYOUT_INDEXED ? 1 : 4);
}

/* Returns NULL when the options are valid, or the reason they are not. */
static const char *options_problem(const inkwell_png_encode_options *options) {
  if (options == NULL) return "no encode options given";
  if (options->width == 0 || options->height == 0) return "image width and height must be positive";
  if (options->width > PNG_UINT_31_MAX || options->height > PNG_UINT_31_MAX)
    return "image width or height exceeds 2^31 - 1";
  if (options->bit_depth != 8 && options->bit_depth != 16) return "bit depth must be 8 or 16";
  if (options->layout != INKWELL_PNG_LAYOUT_RGBA && options->layout != INKWELL_PNG_LAYOUT_RGB &&
      options->layout != INKWELL_PNG_LAYOUT_RGBX && options->layout != INKWELL_PNG_LAYOUT_INDEXED)
    return "unknown pixel layout";
  if (options->layout == INKWELL_PNG_LAYOUT_INDEXED) {
    if (options->bit_depth != 8) return "a palette image must have bit depth 8";
    if (options->palette == NULL || options->palette_entries < 1 || options->palette_entries > 256)
      return "a palette image needs 1...256 palette entries";
  } else if (options->palette != NULL || options->palette_entries != 0) {
    return "only a palette image takes palette entries";
  }
  if (options->byte_order != INKWELL_PNG_BIG_ENDIAN &&
      options->byte_order != INKWELL_PNG_LITTLE_ENDIAN)
    return "unknown byte order";
  if (options->compression_level < 0 || options->compression_level > 9)
    return "compression level must be 0...9";
  if (libpng_filter_mask(options->filter) < 0) return "unknown filter";
  if (options->extra_chunks == NULL && options->extra_chunks_size != 0)
    return "extra chunk bytes missing";
  size_t at = 0;
  while (at < options->extra_chunks_size) {
    if (options->extra_chunks_size - at < 8) return "extra chunk header truncated";
    const uint8_t *c = options->extra_chunks + at;
    for (int i = 0; i < 4; i++) {
      uint8_t t = c[i];
      if (!((t >= 'a' && t <= 'z') || (t >= 'A' && t <= 'Z'))) return "extra chunk type is not 4 letters";
    }
    if ((c[0] & 0x20) == 0) return "extra chunk is not ancillary";
    size_t length = ((size_t)c[4] << 24) | ((size_t)c[5] << 16) | ((size_t)c[6] << 8) | c[7];
    if (length > options->extra_chunks_size - at - 8) return "extra chunk data truncated";
    at += 8 + length;
  }
  return NULL;
}

static inkwell_png_status encoder_begin(const inkwell_png_encode_options *options,
                                        inkwell_png_write_fn write, void *write_context,
                                        inkwell_png_encoder **out_encoder, char *message,
                                        size_t message_capacity) {
  if (out_encoder == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no encoder out-pointer");
  }
  *out_encoder = NULL;
  const char *problem = options_problem(options);
  if (problem != NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, problem);
  }

  inkwell_png_encoder *encoder = calloc(1, sizeof *encoder);
  if (encoder == NULL) {
    return report(message, message_capacity, INKWELL_PNG_OUT_OF_MEMORY, "out of memory");
  }
  encoder->write = write;
  encoder->write_context = write_context;
  encoder->height = options->height;
  encoder->input_row_bytes =
      (size_t)options->width * samples_in_memory(options->layout) * (size_t)(options->bit_depth / 8);
  encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &encoder->failure, on_libpng_error,
                                         on_libpng_warning);
  if (encoder->png != NULL) {
    encoder->info = png_create_info_struct(encoder->png);
  }
  if (encoder->png == NULL || encoder->info == NULL) {
    encoder_destroy(encoder);
    return report(message, message_capacity, INKWELL_PNG_OUT_OF_MEMORY, "out of memory");
  }

  if (setjmp(png_jmpbuf(encoder->png))) {
    inkwell_png_status status = encoder->failure.status;
    copy_message(message, message_capacity, encoder->failure.message);
    encoder_destroy(encoder);
    return status;
  }

  png_structp png = encoder->png;
  png_infop info = encoder->info;
  png_set_write_fn(png, encoder, write != NULL ? on_write_to_sink : on_write_to_memory, on_flush);
  png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
  int color_type = options->layout == INKWELL_PNG_LAYOUT_RGBA      ? PNG_COLOR_TYPE_RGBA
                   : options->layout == INKWELL_PNG_LAYOUT_INDEXED ? PNG_COLOR_TYPE_PALETTE
                                                                   : PNG_COLOR_TYPE_RGB;
  png_set_IHDR(png, info, options->width, options->height, options->bit_depth, color_type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (options->layout == INKWELL_PNG_LAYOUT_INDEXED) {
    png_color colors[256];
    png_byte alphas[256];
    int transparent = 0; /* entries up to the last with alpha below 255 */
    for (int i = 0; i < options->palette_entries; i++) {
      const uint8_t *entry = options->palette + 4 * i;
      colors[i].red = entry[0];
      colors[i].green = entry[1];
      colors[i].blue = entry[2];
      alphas[i] = entry[3];
      if (entry[3] != 255) transparent = i + 1;
    }
    png_set_PLTE(png, info, colors, options->palette_entries);
    if (transparent > 0) png_set_tRNS(png, info, alphas, transparent, NULL);
  }
  png_set_compression_level(png, options->compression_level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, libpng_filter_mask(options->filter));
  if (options->write_srgb_chunk) {
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  }
  png_write_info(png, info);
  for (size_t at = 0; at < options->extra_chunks_size;) {
    const uint8_t *c = options->extra_chunks + at;
    size_t length = ((size_t)c[4] << 24) | ((size_t)c[5] << 16) | ((size_t)c[6] << 8) | c[7];
    png_write_chunk(png, c, c + 8, length);
    at += 8 + length;
  }

  /* Input transformations are declared after the header is written. */
  if (options->layout == INKWELL_PNG_LAYOUT_RGBX) {
    png_set_filler(png, 0, PNG_FILLER_AFTER);
  }
  if (options->bit_depth == 16 && options->byte_order == INKWELL_PNG_LITTLE_ENDIAN) {
    png_set_swap(png);
  }

  *out_encoder = encoder;
  return INKWELL_PNG_OK;
}

inkwell_png_status inkwell_png_encoder_begin_memory(const inkwell_png_encode_options *options,
                                                    inkwell_png_encoder **out_encoder,
                                                    char *message, size_t message_capacity) {
  return encoder_begin(options, NULL, NULL, out_encoder, message, message_capacity);
}

inkwell_png_status inkwell_png_encoder_begin_stream(const inkwell_png_encode_options *options,
                                                    inkwell_png_write_fn write, void *write_context,
                                                    inkwell_png_encoder **out_encoder,
                                                    char *message, size_t message_capacity) {
  if (write == NULL) {
    if (out_encoder != NULL) *out_encoder = NULL;
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no write callback given");
  }
  return encoder_begin(options, write, write_context, out_encoder, message, message_capacity);
}

inkwell_png_status inkwell_png_encoder_write_rows(inkwell_png_encoder *encoder, const void *rows,
                                                  size_t row_count, size_t row_stride,
                                                  char *message, size_t message_capacity) {
  if (encoder == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no encoder given");
  }
  if (encoder->failed) {
    return report(message, message_capacity, INKWELL_PNG_ENCODER_FAILED,
                  "the encoder already failed");
  }
  if (row_count == 0) {
    return INKWELL_PNG_OK;
  }
  if (rows == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no rows given");
  }
  if (row_count > (size_t)(encoder->height - encoder->rows_written)) {
    char text[FAILURE_MESSAGE_CAPACITY];
    snprintf(text, sizeof text, "%zu rows given but only %u of %u remain", row_count,
             encoder->height - encoder->rows_written, encoder->height);
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, text);
  }
  if (row_count > 1 && row_stride < encoder->input_row_bytes) {
    char text[FAILURE_MESSAGE_CAPACITY];
    snprintf(text, sizeof text, "row stride %zu is shorter than a row (%zu bytes)", row_stride,
             encoder->input_row_bytes);
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, text);
  }

  if (setjmp(png_jmpbuf(encoder->png))) {
    encoder->failed = true;
    copy_message(message, message_capacity, encoder->failure.message);
    return encoder->failure.status;
  }
  const uint8_t *row = rows;
  for (size_t index = 0; index < row_count; index++) {
    png_write_row(encoder->png, row);
    encoder->rows_written += 1;
    row += row_stride;
  }
  return INKWELL_PNG_OK;
}

/* Ends the file and frees the encoder, whether or not it succeeds: after rows (write_end
 * checks that every row arrived) or after pre-deflated image data (pre_deflated: IEND alone). */
static inkwell_png_status encoder_end(inkwell_png_encoder *encoder, bool pre_deflated,
                                      uint8_t **out_bytes, size_t *out_size, char *message,
                                      size_t message_capacity) {
  if (out_bytes != NULL) *out_bytes = NULL;
  if (out_size != NULL) *out_size = 0;
  if (encoder == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no encoder given");
  }
  if (encoder->failed) {
    inkwell_png_status status = encoder->failure.status;
    copy_message(message, message_capacity, encoder->failure.message);
    encoder_destroy(encoder);
    return status;
  }
  if (!pre_deflated && encoder->rows_written < encoder->height) {
    char text[FAILURE_MESSAGE_CAPACITY];
    snprintf(text, sizeof text, "only %u of %u rows were written", encoder->rows_written,
             encoder->height);
    encoder_destroy(encoder);
    return report(message, message_capacity, INKWELL_PNG_INCOMPLETE, text);
  }

  if (setjmp(png_jmpbuf(encoder->png))) {
    inkwell_png_status status = encoder->failure.status;
    copy_message(message, message_capacity, encoder->failure.message);
    encoder_destroy(encoder);
    return status;
  }
  if (pre_deflated) {
    static const png_byte iend[5] = {'I', 'E', 'N', 'D', '\0'};
    png_write_chunk(encoder->png, iend, NULL, 0);
  } else {
    png_write_end(encoder->png, NULL);
  }

  if (encoder->write == NULL && out_bytes != NULL && out_size != NULL) {
    *out_bytes = encoder->memory;
    *out_size = encoder->memory_size;
    encoder->memory = NULL;
  }
  encoder_destroy(encoder);
  return INKWELL_PNG_OK;
}

inkwell_png_status inkwell_png_encoder_finish(inkwell_png_encoder *encoder, uint8_t **out_bytes,
                                              size_t *out_size, char *message,
                                              size_t message_capacity) {
  return encoder_end(encoder, false, out_bytes, out_size, message, message_capacity);
}

void inkwell_png_encoder_abort(inkwell_png_encoder *encoder) {
  if (encoder != NULL) {
    encoder_destroy(encoder);
  }
}

inkwell_png_status inkwell_png_encode(const inkwell_png_encode_options *options, const void *pixels,
                                      size_t row_stride, uint8_t **out_bytes, size_t *out_size,
                                      char *message, size_t message_capacity) {
  if (out_bytes != NULL) *out_bytes = NULL;
  if (out_size != NULL) *out_size = 0;
  if (out_bytes == NULL || out_size == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT,
                  "no output out-pointers given");
  }
  inkwell_png_encoder *encoder = NULL;
  inkwell_png_status status =
      inkwell_png_encoder_begin_memory(options, &encoder, message, message_capacity);
  if (status != INKWELL_PNG_OK) return status;
  status = inkwell_png_encoder_write_rows(encoder, pixels, options->height, row_stride, message,
                                          message_capacity);
  if (status != INKWELL_PNG_OK) {
    inkwell_png_encoder_abort(encoder);
    return status;
  }
  return inkwell_png_encoder_finish(encoder, out_bytes, out_size, message, message_capacity);
}

/* ---- Decoding ----------------------------------------------------------- */

typedef struct memory_source {
  const uint8_t *bytes;
  size_t size;
  size_t offset;
} memory_source;

static void on_read_from_memory(png_structp png, png_bytep destination, size_t count) {
  memory_source *source = png_get_io_ptr(png);
  if (count > source->size - source->offset) {
    png_error(png, "unexpected end of data (the file is truncated)");
  }
  memcpy(destination, source->bytes + source->offset, count);
  source->offset += count;
}

static bool product_fits(size_t a, size_t b) {
  return b == 0 || a <= SIZE_MAX / b;
}

/* Expands any PNG to RGBA at the requested depth, without gamma handling. */
static void request_rgba(png_structp png, png_infop info, int bit_depth,
                         inkwell_png_byte_order byte_order) {
  int color_type = png_get_color_type(png, info);
  int file_bit_depth = png_get_bit_depth(png, info);
  bool has_alpha =
      (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;

  png_set_expand(png); /* palette to RGB, low depths to 8 bits, tRNS to alpha */
  if (bit_depth == 16) {
    png_set_expand_16(png);
  } else if (file_bit_depth == 16) {
    png_set_scale_16(png);
  }
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0) {
    png_set_gray_to_rgb(png);
  }
  if (!has_alpha) {
    png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
  }
  if (bit_depth == 16 && byte_order == INKWELL_PNG_LITTLE_ENDIAN) {
    png_set_swap(png);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
}

/* Everything a decode owns, kept outside the frame that calls setjmp so
 * that no local is modified between setjmp and longjmp. */
typedef struct decode_session {
  failure_report failure;
  memory_source source;
  png_structp png;
  png_infop info;
  uint8_t *pixels;
  png_bytep *row_pointers;
  uint32_t width;
  uint32_t height;
} decode_session;

static void decode_session_release(decode_session *session) {
  free(session->row_pointers);
  session->row_pointers = NULL;
  png_destroy_read_struct(&session->png, &session->info, NULL);
}

/* Runs libpng under setjmp; on success leaves the pixels in the session. */
static bool decode_under_setjmp(decode_session *session, int bit_depth,
                                inkwell_png_byte_order byte_order, uint64_t max_pixels,
                                inkwell_png_decoded_image *out_image) {
  png_structp png = session->png;
  png_infop info = session->info;
  if (setjmp(png_jmpbuf(png))) {
    return false;
  }

  png_set_read_fn(png, &session->source, on_read_from_memory);
  png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
  png_read_info(png, info);

  uint32_t width = png_get_image_width(png, info);
  uint32_t height = png_get_image_height(png, info);
  session->width = width;
  session->height = height;
  if ((uint64_t)width * height > max_pixels) {
    char text[FAILURE_MESSAGE_CAPACITY];
    snprintf(text, sizeof text, "%ux%u image exceeds the limit of %llu pixels", width, height,
             (unsigned long long)max_pixels);
    record_failure(&session->failure, INKWELL_PNG_TOO_LARGE, text);
    png_error(png, text);
  }

  request_rgba(png, info, bit_depth, byte_order);
  size_t row_bytes = (size_t)width * 4 * (size_t)(bit_depth / 8);
  if (png_get_rowbytes(png, info) != row_bytes) {
    png_error(png, "unexpected row layout after expansion to RGBA");
  }
  if (!product_fits(height, row_bytes) || !product_fits(height, sizeof(png_bytep))) {
    record_failure(&session->failure, INKWELL_PNG_TOO_LARGE, "image does not fit in memory");
    png_error(png, "image does not fit in memory");
  }
  size_t byte_count = row_bytes * height;
  session->pixels = malloc(byte_count);
  session->row_pointers = malloc(height * sizeof(png_bytep));
  if (session->pixels == NULL || session->row_pointers == NULL) {
    record_failure(&session->failure, INKWELL_PNG_OUT_OF_MEMORY,
                   "out of memory for the decoded image");
    png_error(png, "out of memory for the decoded image");
  }
  for (uint32_t row = 0; row < height; row++) {
    session->row_pointers[row] = session->pixels + (size_t)row * row_bytes;
  }
  png_read_image(png, session->row_pointers);
  png_read_end(png, NULL);

  out_image->width = width;
  out_image->height = height;
  out_image->bit_depth = bit_depth;
  out_image->byte_count = byte_count;
  return true;
}

inkwell_png_status inkwell_png_decode(const uint8_t *bytes, size_t size, int bit_depth,
                                      inkwell_png_byte_order byte_order, uint64_t max_pixels,
                                      inkwell_png_decoded_image *out_image, char *message,
                                      size_t message_capacity) {
  if (out_image == NULL) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "no image out-pointer");
  }
  memset(out_image, 0, sizeof *out_image);
  if (bit_depth != 8 && bit_depth != 16) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT,
                  "bit depth must be 8 or 16");
  }
  if (byte_order != INKWELL_PNG_BIG_ENDIAN && byte_order != INKWELL_PNG_LITTLE_ENDIAN) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "unknown byte order");
  }
  if (bytes == NULL || size < 8 || png_sig_cmp(bytes, 0, 8) != 0) {
    return report(message, message_capacity, INKWELL_PNG_LIBPNG_ERROR,
                  "not a PNG file (bad signature)");
  }

  decode_session session = {
      .failure = {.status = INKWELL_PNG_OK},
      .source = {.bytes = bytes, .size = size, .offset = 0},
  };
  session.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &session.failure, on_libpng_error,
                                       on_libpng_warning);
  if (session.png != NULL) {
    session.info = png_create_info_struct(session.png);
  }
  if (session.png == NULL || session.info == NULL) {
    decode_session_release(&session);
    return report(message, message_capacity, INKWELL_PNG_OUT_OF_MEMORY, "out of memory");
  }

  bool decoded = decode_under_setjmp(&session, bit_depth, byte_order, max_pixels, out_image);
  decode_session_release(&session);
  if (!decoded) {
    free(session.pixels);
    memset(out_image, 0, sizeof *out_image);
    if (session.failure.status == INKWELL_PNG_TOO_LARGE) {
      out_image->width = session.width;
      out_image->height = session.height;
    }
    copy_message(message, message_capacity, session.failure.message);
    return session.failure.status;
  }
  out_image->pixels = session.pixels;
  return INKWELL_PNG_OK;
}

void inkwell_png_free(void *buffer) {
  free(buffer);
}

/* ---- Pre-compressed image data ------------------------------------------ */

/* The band encoder deflates the image itself (in parallel, see png_bands.c);
 * libpng still writes the container: signature, header, ancillary chunks and
 * every chunk's length and CRC. These two calls replace write_rows/finish. */

inkwell_png_status inkwell_png_encoder_write_idat(inkwell_png_encoder *encoder, const uint8_t *bytes,
                                                  size_t count, char *message,
                                                  size_t message_capacity) {
  if (encoder == NULL || (bytes == NULL && count > 0) || count > PNG_UINT_31_MAX) {
    return report(message, message_capacity, INKWELL_PNG_INVALID_ARGUMENT, "invalid IDAT data");
  }
  if (encoder->failed) {
    copy_message(message, message_capacity, encoder->failure.message);
    return INKWELL_PNG_ENCODER_FAILED;
  }
  if (setjmp(png_jmpbuf(encoder->png))) {
    encoder->failed = true;
    copy_message(message, message_capacity, encoder->failure.message);
    return encoder->failure.status;
  }
  static const png_byte idat[5] = {'I', 'D', 'A', 'T', '\0'};
  png_write_chunk(encoder->png, idat, bytes, count);
  return INKWELL_PNG_OK;
}

inkwell_png_status inkwell_png_encoder_finish_idat(inkwell_png_encoder *encoder, uint8_t **out_bytes,
                                                   size_t *out_size, char *message,
                                                   size_t message_capacity) {
  return encoder_end(encoder, true, out_bytes, out_size, message, message_capacity);
}
