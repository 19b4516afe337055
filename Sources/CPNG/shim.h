// libpng for Swift.
#pragma once
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <png.h>

// libpng reports errors by longjmp from its error callback. Swift frames cannot be jumped over
// safely, so the whole decode runs in the C function below, which holds the setjmp; Swift sees
// only a return code and a message.

typedef struct {
    jmp_buf jump;
    char message[128];
} prewarm_png_error_state;

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} prewarm_png_source;

static void prewarm_png_error(png_structp png, png_const_charp text) {
    prewarm_png_error_state *state = (prewarm_png_error_state *)png_get_error_ptr(png);
    strncpy(state->message, text, sizeof state->message - 1);
    state->message[sizeof state->message - 1] = 0;
    longjmp(state->jump, 1);
}

static void prewarm_png_warning(png_structp png, png_const_charp text) {
    (void)png;  // ancillary-chunk trouble (bad iCCP, text CRC): the pixels are still good
    (void)text;
}

static void prewarm_png_read(png_structp png, png_bytep out, size_t length) {
    prewarm_png_source *source = (prewarm_png_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "PNG data is truncated");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

/// Decodes a whole PNG (every colour type and bit depth, palette + tRNS, Adam7 interlace) to
/// 8-bit RGBA, not premultiplied; 16-bit samples are scaled to 8. No gamma correction is applied
/// (as libvips and browsers without colour management show it). `png_set_user_limits` refuses
/// any size but the one the header probe saw, so `output` (`expected_width * expected_height * 4`
/// bytes) always fits. Returns 0 on success, otherwise 1 with `message` (128 bytes) set.
static inline int prewarm_png_decode_rgba(const void *data, size_t size,
                                          unsigned int expected_width,
                                          unsigned int expected_height, unsigned char *output,
                                          char message[128]) {
    prewarm_png_error_state error;
    prewarm_png_source source = {(const unsigned char *)data, size, 0};
    error.message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, prewarm_png_error,
                                             prewarm_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        strcpy(message, "out of memory");
        return 1;
    }
    if (setjmp(error.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        memcpy(message, error.message, sizeof error.message);
        return 1;
    }
    png_set_read_fn(png, &source, prewarm_png_read);
    png_set_user_limits(png, expected_width, expected_height);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != expected_width ||
        png_get_image_height(png, info) != expected_height)
        png_error(png, "PNG size differs from its probe");
    const int colour_type = png_get_color_type(png, info);
    png_set_expand(png);    // palette to RGB, grey below 8 bits to 8, tRNS to an alpha channel
    png_set_scale_16(png);  // 16-bit samples to 8, rounded
    if (!(colour_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);  // opaque alpha where the file has none
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const size_t stride = (size_t)expected_width * 4;
    if (png_get_rowbytes(png, info) != stride) png_error(png, "PNG row size is not RGBA8");
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < expected_height; y++) {
            png_read_row(png, output + y * stride, NULL);
        }
    }
    // Reads on to IEND, so a file cut after its image data is still caught as truncated.
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

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
