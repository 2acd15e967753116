/*
 * OpenEXR core behind status codes: see CInkwellEXR.h. The core reports errors through an error
 * handler; ours records the first message in the stream's state so the caller gets it back.
 */
#include "CInkwellEXR.h"

#include <OpenEXR/openexr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma clang fp contract(off)

typedef struct {
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  const uint8_t *input;
  size_t input_size;
  int failed;
  char message[256];
} memory_stream;

static void on_error(exr_const_context_t ctxt, exr_result_t code, const char *msg) {
  void *user = NULL;
  if (exr_get_user_data(ctxt, &user) == EXR_ERR_SUCCESS && user != NULL) {
    memory_stream *s = user;
    if (!s->failed) {
      s->failed = 1;
      snprintf(s->message, sizeof s->message, "%s (%s)", msg, exr_get_error_code_as_string(code));
    }
  }
}

static int64_t on_write(exr_const_context_t ctxt, void *user, const void *buffer, uint64_t sz,
                        uint64_t offset, exr_stream_error_func_ptr_t error_cb) {
  memory_stream *s = user;
  if (offset > SIZE_MAX - sz) {
    error_cb(ctxt, EXR_ERR_OUT_OF_MEMORY, "write beyond addressable memory");
    return -1;
  }
  size_t end = (size_t)(offset + sz);
  if (end > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : 64 * 1024;
    while (capacity < end) capacity = capacity <= SIZE_MAX / 2 ? capacity * 2 : end;
    uint8_t *grown = realloc(s->bytes, capacity);
    if (grown == NULL) {
      error_cb(ctxt, EXR_ERR_OUT_OF_MEMORY, "out of memory growing the output");
      return -1;
    }
    s->bytes = grown;
    s->capacity = capacity;
  }
  if (offset > s->size) memset(s->bytes + s->size, 0, (size_t)offset - s->size);
  memcpy(s->bytes + offset, buffer, (size_t)sz);
  if (end > s->size) s->size = end;
  return (int64_t)sz;
}

static int64_t on_read(exr_const_context_t ctxt, void *user, void *buffer, uint64_t sz,
                       uint64_t offset, exr_stream_error_func_ptr_t error_cb) {
  (void)ctxt;
  (void)error_cb;
  memory_stream *s = user;
  if (offset >= s->input_size) return 0;
  uint64_t n = s->input_size - offset;
  if (n > sz) n = sz;
  memcpy(buffer, s->input + offset, (size_t)n);
  return (int64_t)n;
}

static int64_t on_size(exr_const_context_t ctxt, void *user) {
  (void)ctxt;
  return (int64_t)((memory_stream *)user)->input_size;
}

static int fail(memory_stream *s, exr_result_t rv, char *message, size_t capacity,
                const char *what) {
  if (message != NULL && capacity > 0) {
    snprintf(message, capacity, "%s: %s", what,
             s->failed ? s->message : exr_get_error_code_as_string(rv));
  }
  return rv != EXR_ERR_SUCCESS ? (int)rv : (int)EXR_ERR_UNKNOWN;
}

#define CHECK(call, what)                                                                        \
  do {                                                                                           \
    rv = (call);                                                                                 \
    if (rv != EXR_ERR_SUCCESS) {                                                                 \
      status = fail(&stream, rv, message, message_capacity, what);                              \
      goto done;                                                                                 \
    }                                                                                            \
  } while (0)

int inkwell_exr_encode(const void *pixels, int width, int height, size_t row_stride,
                       inkwell_exr_sample_type type,
                       const inkwell_exr_chromaticities *chromaticities, uint8_t **out_bytes,
                       size_t *out_size, char *message, size_t message_capacity) {
  memory_stream stream = {0};
  exr_context_t ctxt = NULL;
  exr_encode_pipeline_t encoder = EXR_ENCODE_PIPELINE_INITIALIZER;
  int have_encoder = 0;
  int status = 0;
  exr_result_t rv;
  if (out_bytes == NULL || out_size == NULL || pixels == NULL || width <= 0 || height <= 0 ||
      (type != INKWELL_EXR_HALF && type != INKWELL_EXR_FLOAT)) {
    if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "invalid arguments");
    return (int)EXR_ERR_INVALID_ARGUMENT;
  }
  *out_bytes = NULL;
  *out_size = 0;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &stream;
  init.write_fn = on_write;
  init.error_handler_fn = on_error;
  exr_pixel_type_t ptype = type == INKWELL_EXR_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
  int bytes = type == INKWELL_EXR_HALF ? 2 : 4;
  int part = 0;
  CHECK(exr_start_write(&ctxt, "<memory>", EXR_WRITE_FILE_DIRECTLY, &init), "starting the file");
  CHECK(exr_add_part(ctxt, "rgba", EXR_STORAGE_SCANLINE, &part), "adding the image part");
  CHECK(exr_initialize_required_attr_simple(ctxt, part, width, height, EXR_COMPRESSION_ZIP),
        "setting the header");
  static const char *names[4] = {"A", "B", "G", "R"};
  for (int c = 0; c < 4; c++) {
    CHECK(exr_add_channel(ctxt, part, names[c], ptype, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1),
          "adding a channel");
  }
  if (chromaticities != NULL) {
    exr_attr_chromaticities_t chroma = {
        chromaticities->xy[0], chromaticities->xy[1], chromaticities->xy[2], chromaticities->xy[3],
        chromaticities->xy[4], chromaticities->xy[5], chromaticities->xy[6], chromaticities->xy[7]};
    CHECK(exr_attr_set_chromaticities(ctxt, part, "chromaticities", &chroma),
          "setting the chromaticities");
  }
  CHECK(exr_write_header(ctxt), "writing the header");
  int32_t lines = 1;
  CHECK(exr_get_scanlines_per_chunk(ctxt, part, &lines), "reading the chunk size");
  for (int y = 0; y < height; y += lines) {
    exr_chunk_info_t cinfo;
    CHECK(exr_write_scanline_chunk_info(ctxt, part, y, &cinfo), "starting a chunk");
    if (!have_encoder) {
      CHECK(exr_encoding_initialize(ctxt, part, &cinfo, &encoder), "starting the encoder");
      have_encoder = 1;
    } else {
      CHECK(exr_encoding_update(ctxt, part, &cinfo, &encoder), "updating the encoder");
    }
    const uint8_t *rows = (const uint8_t *)pixels + (size_t)cinfo.start_y * row_stride;
    for (int c = 0; c < encoder.channel_count; c++) {
      exr_coding_channel_info_t *ch = &encoder.channels[c];
      int index = 0;
      switch (ch->channel_name[0]) {
      case 'R': index = 0; break;
      case 'G': index = 1; break;
      case 'B': index = 2; break;
      default: index = 3; break;
      }
      ch->encode_from_ptr = rows + (size_t)index * (size_t)bytes;
      ch->user_pixel_stride = 4 * bytes;
      ch->user_line_stride = (int32_t)row_stride;
      ch->user_data_type = (uint16_t)ptype;
      ch->user_bytes_per_element = (int16_t)bytes;
    }
    if (y == 0) {
      CHECK(exr_encoding_choose_default_routines(ctxt, part, &encoder), "choosing the encoder");
    }
    CHECK(exr_encoding_run(ctxt, part, &encoder), "encoding a chunk");
  }
done:
  if (have_encoder) exr_encoding_destroy(ctxt, &encoder);
  if (ctxt != NULL) {
    rv = exr_finish(&ctxt);
    if (status == 0 && rv != EXR_ERR_SUCCESS) status = fail(&stream, rv, message, message_capacity, "finishing the file");
  }
  if (status != 0) {
    free(stream.bytes);
    return status;
  }
  *out_bytes = stream.bytes;
  *out_size = stream.size;
  return 0;
}

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      float v = (float)mantissa / 16777216.0f;  // 2^-24 per step
      return sign ? -v : v;
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

int inkwell_exr_decode(const uint8_t *bytes, size_t size, uint64_t max_pixels,
                       inkwell_exr_image *out_image, char *message, size_t message_capacity) {
  memory_stream stream = {0};
  exr_context_t ctxt = NULL;
  exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
  int have_decoder = 0;
  int status = 0;
  exr_result_t rv;
  uint8_t *chunk = NULL;
  float *pixels = NULL;
  if (out_image == NULL || bytes == NULL) {
    if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "invalid arguments");
    return (int)EXR_ERR_INVALID_ARGUMENT;
  }
  memset(out_image, 0, sizeof *out_image);
  stream.input = bytes;
  stream.input_size = size;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &stream;
  init.read_fn = on_read;
  init.size_fn = on_size;
  init.error_handler_fn = on_error;
  CHECK(exr_start_read(&ctxt, "<memory>", &init), "reading the header");
  exr_storage_t storage;
  CHECK(exr_get_storage(ctxt, 0, &storage), "reading the storage");
  if (storage != EXR_STORAGE_SCANLINE) {
    CHECK(EXR_ERR_FEATURE_NOT_IMPLEMENTED, "only scanline images are read");
  }
  exr_attr_box2i_t dw;
  CHECK(exr_get_data_window(ctxt, 0, &dw), "reading the data window");
  int64_t width = (int64_t)dw.max.x - dw.min.x + 1, height = (int64_t)dw.max.y - dw.min.y + 1;
  if (width <= 0 || height <= 0 || (uint64_t)width * (uint64_t)height > max_pixels) {
    out_image->width = (int)width;
    out_image->height = (int)height;
    CHECK(EXR_ERR_INVALID_ATTR, "image too large or empty");
  }
  exr_attr_chromaticities_t chroma;
  if (exr_attr_get_chromaticities(ctxt, 0, "chromaticities", &chroma) == EXR_ERR_SUCCESS) {
    out_image->has_chromaticities = 1;
    float xy[8] = {chroma.red_x,  chroma.red_y,  chroma.green_x, chroma.green_y,
                   chroma.blue_x, chroma.blue_y, chroma.white_x, chroma.white_y};
    memcpy(out_image->chromaticities.xy, xy, sizeof xy);
  }
  pixels = calloc((size_t)(width * height) * 4, sizeof(float));
  if (pixels == NULL) CHECK(EXR_ERR_OUT_OF_MEMORY, "allocating pixels");
  for (int64_t i = 0; i < width * height; i++) pixels[i * 4 + 3] = 1.0f;
  int32_t lines = 1;
  CHECK(exr_get_scanlines_per_chunk(ctxt, 0, &lines), "reading the chunk size");
  chunk = malloc((size_t)width * (size_t)lines * 4 * 4);
  if (chunk == NULL) CHECK(EXR_ERR_OUT_OF_MEMORY, "allocating a chunk");
  for (int64_t y = dw.min.y; y <= dw.max.y; y += lines) {
    exr_chunk_info_t cinfo;
    CHECK(exr_read_scanline_chunk_info(ctxt, 0, (int)y, &cinfo), "reading a chunk");
    if (!have_decoder) {
      CHECK(exr_decoding_initialize(ctxt, 0, &cinfo, &decoder), "starting the decoder");
      have_decoder = 1;
    } else {
      CHECK(exr_decoding_update(ctxt, 0, &cinfo, &decoder), "updating the decoder");
    }
    // Each channel decodes into its own plane of `chunk`, in the file's sample type.
    for (int c = 0; c < decoder.channel_count; c++) {
      exr_coding_channel_info_t *ch = &decoder.channels[c];
      int bpe = ch->bytes_per_element;
      ch->decode_to_ptr = chunk + (size_t)c * (size_t)width * (size_t)lines * 4;
      ch->user_pixel_stride = bpe;
      ch->user_line_stride = (int32_t)(width * bpe);
      ch->user_data_type = ch->data_type;
      ch->user_bytes_per_element = (int16_t)bpe;
    }
    if (decoder.channel_count > 4) CHECK(EXR_ERR_FEATURE_NOT_IMPLEMENTED, "more than four channels");
    if (y == dw.min.y) {
      CHECK(exr_decoding_choose_default_routines(ctxt, 0, &decoder), "choosing the decoder");
    }
    CHECK(exr_decoding_run(ctxt, 0, &decoder), "decoding a chunk");
    for (int c = 0; c < decoder.channel_count; c++) {
      exr_coding_channel_info_t *ch = &decoder.channels[c];
      int index;
      const char *n = ch->channel_name;
      if (strcmp(n, "R") == 0) index = 0;
      else if (strcmp(n, "G") == 0) index = 1;
      else if (strcmp(n, "B") == 0) index = 2;
      else if (strcmp(n, "A") == 0) index = 3;
      else continue;
      const uint8_t *plane = chunk + (size_t)c * (size_t)width * (size_t)lines * 4;
      for (int r = 0; r < cinfo.height; r++) {
        float *o = pixels + ((size_t)(cinfo.start_y - dw.min.y + r) * (size_t)width) * 4;
        for (int64_t x = 0; x < width; x++) {
          size_t at = (size_t)(r * width + x);
          float v;
          if (ch->data_type == EXR_PIXEL_HALF) {
            uint16_t h;
            memcpy(&h, plane + at * 2, 2);
            v = half_to_float(h);
          } else if (ch->data_type == EXR_PIXEL_FLOAT) {
            memcpy(&v, plane + at * 4, 4);
          } else {
            uint32_t u;
            memcpy(&u, plane + at * 4, 4);
            v = (float)u;
          }
          o[x * 4 + index] = v;
        }
      }
    }
  }
  out_image->width = (int)width;
  out_image->height = (int)height;
  out_image->pixels = pixels;
  pixels = NULL;
done:
  if (have_decoder) exr_decoding_destroy(ctxt, &decoder);
  if (ctxt != NULL) exr_finish(&ctxt);
  free(chunk);
  free(pixels);
  return status;
}

void inkwell_exr_free(void *buffer) {
  free(buffer);
}
