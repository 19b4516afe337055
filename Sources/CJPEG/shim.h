// libjpeg-turbo for Swift. jpeglib.h needs stdio.h (FILE) and stddef.h (size_t) first.
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

/* ==== encode: JPEG encoder (prewarm_enc_jpeg_*) ============================================= */
/* libjpeg reports fatal errors by calling error_exit, which must not return. We longjmp back into
 * the C function that called setjmp, never across Swift frames: the whole compress runs here. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} prewarm_enc_jpeg_error_mgr;

static inline void prewarm_enc_jpeg_error_exit(j_common_ptr cinfo) {
    prewarm_enc_jpeg_error_mgr *mgr = (prewarm_enc_jpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, mgr->message);
    longjmp(mgr->jump, 1);
}

static inline void prewarm_enc_jpeg_silence(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

/* Encodes `width`×`height` RGBX pixels (4 bytes a pixel, the 4th ignored) as baseline JPEG with
 * 4:2:0 chroma subsampling and optimised Huffman tables. On success returns 1 and a malloc'ed
 * buffer in *out (free it with free()); on failure returns 0 and a message. */
static inline int prewarm_enc_jpeg_rgbx(const unsigned char *pixels, int width, int height, int quality,
                                        unsigned char **out, unsigned long *out_size,
                                        char *message, size_t message_size) {
    struct jpeg_compress_struct cinfo;
    prewarm_enc_jpeg_error_mgr err;
    *out = NULL;
    *out_size = 0;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = prewarm_enc_jpeg_error_exit;
    err.base.emit_message = prewarm_enc_jpeg_silence;
    err.message[0] = 0;
    if (setjmp(err.jump)) {
        if (message_size > 0) {
            strncpy(message, err.message, message_size - 1);
            message[message_size - 1] = 0;
        }
        jpeg_destroy_compress(&cinfo);
        free(*out);
        *out = NULL;
        *out_size = 0;
        return 0;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, out, out_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(&cinfo); /* YCbCr, 2×2 luma sampling = 4:2:0, baseline */
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * (size_t)width * 4);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 1;
}
/* ==== end encode: JPEG encoder ============================================================= */
