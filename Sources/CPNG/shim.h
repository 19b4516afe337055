// libpng for Swift.
#pragma once
#include <stdio.h>
#include <string.h>
#include <png.h>

/* ==== encode: PNG encoder (prewarm_enc_png_*) =============================================== */
/* libpng reports fatal errors by longjmp; the whole write runs in this C function, so the jump
 * never crosses Swift frames. Output goes to a growing malloc'ed buffer. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[200];
} prewarm_enc_png_state;

static inline void prewarm_enc_png_error(png_structp png, png_const_charp text) {
    prewarm_enc_png_state *state = (prewarm_enc_png_state *)png_get_error_ptr(png);
    strncpy(state->message, text ? text : "libpng error", sizeof state->message - 1);
    state->message[sizeof state->message - 1] = 0;
    png_longjmp(png, 1);
}

static inline void prewarm_enc_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static inline void prewarm_enc_png_write(png_structp png, png_bytep data, size_t length) {
    prewarm_enc_png_state *state = (prewarm_enc_png_state *)png_get_io_ptr(png);
    if (state->size + length > state->capacity) {
        size_t capacity = state->capacity ? state->capacity : 65536;
        while (capacity < state->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(state->data, capacity);
        if (!grown) png_error(png, "out of memory");
        state->data = grown;
        state->capacity = capacity;
    }
    memcpy(state->data + state->size, data, length);
    state->size += length;
}

static inline void prewarm_enc_png_flush(png_structp png) { (void)png; }

/* Encodes `width`×`height` RGBA pixels as an 8-bit PNG: RGBA when has_alpha, else RGB (the alpha
 * byte is skipped as filler). `level` is the zlib level 0...9. On success returns 1 and a
 * malloc'ed buffer in *out (free it with free()); on failure returns 0 and a message. */
static inline int prewarm_enc_png_rgba(const unsigned char *pixels, int width, int height, int has_alpha,
                                       int level, unsigned char **out, size_t *out_size,
                                       char *message, size_t message_size) {
    prewarm_enc_png_state state;
    memset(&state, 0, sizeof state);
    *out = NULL;
    *out_size = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state,
                                              prewarm_enc_png_error, prewarm_enc_png_warning);
    if (!png) {
        if (message_size > 0) { strncpy(message, "cannot create PNG writer", message_size - 1); message[message_size - 1] = 0; }
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        if (message_size > 0) {
            strncpy(message, state.message[0] ? state.message : "cannot create PNG info", message_size - 1);
            message[message_size - 1] = 0;
        }
        png_destroy_write_struct(&png, &info);
        free(state.data);
        return 0;
    }
    png_set_write_fn(png, &state, prewarm_enc_png_write, prewarm_enc_png_flush);
    png_set_compression_level(png, level);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (!has_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (int y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * (size_t)width * 4));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = state.data;
    *out_size = state.size;
    return 1;
}
/* ==== end encode: PNG encoder ============================================================== */
/// Decodes a whole PNG (any colour type, bit depth, palette + tRNS, interlace) to 8-bit RGBA,
/// not premultiplied, through libpng's simplified API, which catches libpng's longjmp errors
/// itself. 16-bit files without gamma information are taken as sRGB, as every browser does.
/// `output` must hold `expected_width * expected_height * 4` bytes. Returns 0 on success,
/// otherwise 1 with `message` (64 bytes) set to libpng's text.
static inline int prewarm_png_decode_rgba(const void *data, size_t size,
                                          unsigned int expected_width,
                                          unsigned int expected_height, void *output,
                                          char message[64]) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        strncpy(message, image.message, 63);
        message[63] = 0;
        return 1;
    }
    if (image.width != expected_width || image.height != expected_height) {
        snprintf(message, 64, "unexpected size %ux%u", image.width, image.height);
        png_image_free(&image);
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    if (!png_image_finish_read(&image, NULL, output, (png_int_32)(expected_width * 4), NULL)) {
        strncpy(message, image.message, 63);
        message[63] = 0;
        png_image_free(&image);
        return 1;
    }
    return 0;
}
