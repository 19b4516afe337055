// libjpeg-turbo for Swift. jpeglib.h needs stdio.h (FILE) and stddef.h (size_t) first.
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
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
#include <jerror.h>

// libjpeg reports fatal errors by calling error_exit, which must not return. Swift frames cannot
// be jumped over safely, so the whole decode runs in the C function below: error_exit longjmps
// back into it, and Swift only ever sees a return code and a message.

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} prewarm_jpeg_error_state;

static void prewarm_jpeg_error_exit(j_common_ptr info) {
    prewarm_jpeg_error_state *state = (prewarm_jpeg_error_state *)info->err;
    info->err->format_message(info, state->message);
    longjmp(state->jump, 1);
}

// Warnings that mean the entropy-coded data is missing or damaged. libjpeg carries on and fills
// the rest with grey or garbage; a cache must not keep such a picture, so these become errors.
// Extraneous bytes count as damage only once image data has started (after the first SOS): the
// entropy decoder stopped before its data did. Before that they are padding some writers leave.
static void prewarm_jpeg_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;  // trace messages
    int fatal = 0;
    switch (info->err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_MUST_RESYNC:
        fatal = 1;
        break;
    case JWRN_EXTRANEOUS_DATA:
        fatal = info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > 0;
        break;
    default:
        break;
    }
    if (fatal) prewarm_jpeg_error_exit(info);
    info->err->num_warnings++;  // benign (odd APPn data, padding): keep going
}

// A progressive JPEG may hold thousands of tiny scans, each making libjpeg walk the whole
// coefficient buffer: a CPU bomb in a few kilobytes. Real files have about ten; refuse more than
// 500, as libjpeg-turbo's TJFLAG_LIMITSCANS does.
#define PREWARM_JPEG_MAX_SCANS 500

static void prewarm_jpeg_progress(j_common_ptr info) {
    if (info->is_decompressor &&
        ((j_decompress_ptr)info)->input_scan_number > PREWARM_JPEG_MAX_SCANS) {
        prewarm_jpeg_error_state *state = (prewarm_jpeg_error_state *)info->err;
        snprintf(state->message, JMSG_LENGTH_MAX, "progressive JPEG has more than %d scans",
                 PREWARM_JPEG_MAX_SCANS);
        longjmp(state->jump, 1);
    }
}

/// Decodes `data` at 1/`scale_denom` into `output` as 8-bit RGBA (alpha 255), tightly packed.
/// `output` must hold `expected_width * expected_height * 4` bytes; the decode fails if libjpeg's
/// output size differs. CMYK and YCCK sources are converted to RGB (Adobe files store inverted
/// CMYK). Returns 0 on success, otherwise 1 with `message` set to libjpeg's text.
static inline int prewarm_jpeg_decode_rgba(const unsigned char *data, unsigned long size,
                                           unsigned int scale_denom, unsigned int expected_width,
                                           unsigned int expected_height, unsigned char *output,
                                           char message[JMSG_LENGTH_MAX]) {
    struct jpeg_decompress_struct info;
    prewarm_jpeg_error_state error;
    struct jpeg_progress_mgr progress;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = prewarm_jpeg_error_exit;
    error.manager.emit_message = prewarm_jpeg_emit_message;
    error.message[0] = 0;
    jpeg_create_decompress(&info);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        strncpy(message, error.message, JMSG_LENGTH_MAX - 1);
        message[JMSG_LENGTH_MAX - 1] = 0;
        return 1;
    }
    progress.progress_monitor = prewarm_jpeg_progress;
    info.progress = &progress;
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.scale_num = 1;
    info.scale_denom = scale_denom;
    info.dct_method = JDCT_ISLOW;
    const int is_cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    // CMYK is four bytes a pixel as well, so it decodes straight into the RGBA buffer and is
    // converted in place below.
    info.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    if (info.output_width != expected_width || info.output_height != expected_height ||
        info.output_components != 4) {
        snprintf(message, JMSG_LENGTH_MAX, "unexpected output size %ux%u (%d components)",
                 info.output_width, info.output_height, info.output_components);
        jpeg_destroy_decompress(&info);
        return 1;
    }
    const size_t stride = (size_t)expected_width * 4;
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = output + (size_t)info.output_scanline * stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    if (is_cmyk) {
        const int inverted = info.saw_Adobe_marker;
        const size_t count = (size_t)expected_width * expected_height;
        for (size_t i = 0; i < count; i++) {
            unsigned char *p = output + i * 4;
            unsigned int c = p[0], m = p[1], y = p[2], k = p[3];
            if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
            p[0] = (unsigned char)((c * k + 127) / 255);
            p[1] = (unsigned char)((m * k + 127) / 255);
            p[2] = (unsigned char)((y * k + 127) / 255);
            p[3] = 255;
        }
    }
    // Reads on to EOI, so damage after the last scanline's data is noticed too.
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}
