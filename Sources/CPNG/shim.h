// libpng for Swift.
#pragma once
#include <stdio.h>
#include <string.h>
#include <png.h>

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
