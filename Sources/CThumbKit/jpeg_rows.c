// SPDX-License-Identifier: Apache-2.0
// jpeg_rows.c: JPEG decompression, one output row at a time (see CThumbKit.h).
//
// Why rows: a whole decode writes the full scaled image, so a 2560x1600 photo decoded at 8/8 for
// a 720 px output needs a 16 MB buffer (and its page faults) before the resampler sees a pixel.
// The whole-image decode is Swift's loop over these rows into one buffer, so both give the same
// bytes, warnings and errors.
//
// setjmp: each entry point sets the error manager's jump buffer before it calls libjpeg, so a
// libjpeg error always lands in the function that is running, never in a returned frame.
#include "jpeg_common.h"

#include <stdlib.h>
#include <string.h>

struct tk_jpeg_rows {
    struct jpeg_decompress_struct cinfo;
    tk_jpeg_error jerr;
    tk_jpeg_progress progress;
    char error[TK_ERR_LEN];
    char warning[TK_ERR_LEN];  // the first warning
    int created;
};

static void tk_jpeg_rows_free(struct tk_jpeg_rows *r) {
    if (r == NULL) return;
    if (r->created) jpeg_destroy_decompress(&r->cinfo);
    free(r);
}

tk_jpeg_rows *tk_jpeg_rows_begin(const uint8_t *data, size_t size, int scale_num, int block_smoothing,
                                 int fail_on_warning, uint64_t deadline_ns, uint32_t *out_width,
                                 uint32_t *out_height, uint64_t *block_visits, char warn[TK_ERR_LEN],
                                 char err[TK_ERR_LEN]) {
    tk_jpeg_copy(warn, "");
    tk_jpeg_copy(err, "");
    if (data == NULL || size == 0 || scale_num < 1 || scale_num > 8) {
        tk_jpeg_copy(err, "invalid JPEG decode arguments");
        return NULL;
    }
    struct tk_jpeg_rows *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        tk_jpeg_copy(err, "out of memory");
        return NULL;
    }
    tk_jpeg_init_error(&r->jerr, r->error, r->warning, fail_on_warning);
    r->cinfo.err = &r->jerr.pub;
    if (block_visits != NULL) *block_visits = 0;
    if (setjmp(r->jerr.jump)) {
        tk_jpeg_copy(err, r->error);
        tk_jpeg_copy(warn, r->warning);
        if (block_visits != NULL) *block_visits = r->progress.block_visits;
        tk_jpeg_rows_free(r);
        return NULL;
    }
    r->created = 1;  // jpeg_create_decompress zeroes first, so destroying after a failure is safe
    tk_jpeg_start(&r->cinfo, &r->progress, data, size);
    r->progress.deadline_ns = deadline_ns;
    switch (r->cinfo.jpeg_color_space) {
    case JCS_CMYK:
    case JCS_YCCK:
        r->cinfo.out_color_space = JCS_CMYK;  // Swift turns CMYK into RGB
        break;
    default:
        r->cinfo.out_color_space = JCS_EXT_RGBA;  // gray, RGB and YCbCr
        break;
    }
    r->cinfo.scale_num = (unsigned int)scale_num;
    r->cinfo.scale_denom = 8;
    r->cinfo.do_block_smoothing = block_smoothing ? TRUE : FALSE;
    jpeg_calc_output_dimensions(&r->cinfo);
    if (r->cinfo.output_components != 4) {
        tk_jpeg_copy(err, "unexpected number of output components");
        tk_jpeg_rows_free(r);
        return NULL;
    }
    // For a progressive file this reads every scan into the coefficient buffer.
    jpeg_start_decompress(&r->cinfo);
    if (block_visits != NULL) *block_visits = r->progress.block_visits;
    if (out_width != NULL) *out_width = r->cinfo.output_width;
    if (out_height != NULL) *out_height = r->cinfo.output_height;
    return r;
}

int tk_jpeg_rows_next(tk_jpeg_rows *r, uint8_t *dst, size_t dst_size, char err[TK_ERR_LEN]) {
    tk_jpeg_copy(err, "");
    if (r == NULL || dst == NULL || dst_size != (size_t)r->cinfo.output_width * 4 ||
        r->cinfo.output_scanline >= r->cinfo.output_height) {
        tk_jpeg_copy(err, "invalid JPEG row request");
        return -1;
    }
    if (setjmp(r->jerr.jump)) {
        tk_jpeg_copy(err, r->error);
        return -1;
    }
    JSAMPROW row = dst;
    jpeg_read_scanlines(&r->cinfo, &row, 1);
    return 0;
}

int tk_jpeg_rows_finish(tk_jpeg_rows *r, int *warnings, char warn[TK_ERR_LEN], char err[TK_ERR_LEN]) {
    tk_jpeg_copy(err, "");
    tk_jpeg_copy(warn, "");
    if (warnings != NULL) *warnings = 0;
    if (r == NULL) return -1;
    int rc = 0;
    if (r->cinfo.output_scanline < r->cinfo.output_height) {
        tk_jpeg_copy(err, "JPEG rows left unread");
        rc = -1;
    } else if (setjmp(r->jerr.jump)) {
        tk_jpeg_copy(err, r->error);
        rc = -1;
    } else {
        // Reads on to EOI, where warnings about trailing junk are raised.
        jpeg_finish_decompress(&r->cinfo);
    }
    tk_jpeg_copy(warn, r->warning);
    if (warnings != NULL) *warnings = r->jerr.warnings;
    tk_jpeg_rows_free(r);
    return rc;
}
