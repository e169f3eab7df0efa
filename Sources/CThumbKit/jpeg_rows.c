// jpeg_rows.c: a JPEG decoded one output row at a time (see CThumbKit.h).
//
// Why: tk_jpeg_decode writes the whole scaled image, so a 2560x1600 photo decoded at 8/8 for a
// 720 px output needs a 16 MB buffer (and its page faults) before the resampler sees a pixel.
// These functions run exactly tk_jpeg_decode's decompression (same colour space choice, DCT
// scale, block smoothing, 1000-scan cap, memory ceiling, warning and error handling) but hand
// out rows one by one. The error manager repeats jpeg_shim.c's, which is private to that file.
//
// setjmp: each entry point sets the state's jump buffer before it calls libjpeg, so a libjpeg
// error always lands in the function that is running, never in a returned frame.
#include "CThumbKit.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#define TK_ROWS_MAX_SCANS 1000                         // as TK_JPEG_MAX_SCANS in jpeg_shim.c
#define TK_ROWS_MAX_MEMORY (2048L * 1024L * 1024L)     // as TK_JPEG_MAX_MEMORY in jpeg_shim.c

struct tk_jpeg_rows {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char error[TK_ERR_LEN];
    char warning[TK_ERR_LEN];  // the first warning
    int warnings;
    int fail_on_warning;
    int created;
};

static void tk_rows_jpeg_copy(char *dst, const char *msg) {
    if (dst == NULL) return;
    snprintf(dst, TK_ERR_LEN, "%s", msg != NULL ? msg : "");
}

static struct tk_jpeg_rows *tk_rows_of(j_common_ptr cinfo) {
    return (struct tk_jpeg_rows *)((char *)cinfo->err - offsetof(struct tk_jpeg_rows, pub));
}

static void tk_rows_error_exit(j_common_ptr cinfo) {
    struct tk_jpeg_rows *r = tk_rows_of(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tk_rows_jpeg_copy(r->error, text);
    longjmp(r->jump, 1);
}

static void tk_rows_output_message(j_common_ptr cinfo) {
    struct tk_jpeg_rows *r = tk_rows_of(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tk_rows_jpeg_copy(r->error, text);
}

static void tk_rows_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;  // trace output
    struct tk_jpeg_rows *r = tk_rows_of(cinfo);
    r->warnings += 1;
    cinfo->err->num_warnings += 1;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (r->warnings == 1) tk_rows_jpeg_copy(r->warning, text);
    if (r->fail_on_warning) {
        tk_rows_jpeg_copy(r->error, text);
        longjmp(r->jump, 1);
    }
}

static void tk_rows_progress_monitor(j_common_ptr common) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    if (cinfo->input_scan_number > TK_ROWS_MAX_SCANS) {
        struct tk_jpeg_rows *r = tk_rows_of(common);
        snprintf(r->error, TK_ERR_LEN, "progressive JPEG has more than %d scans", TK_ROWS_MAX_SCANS);
        longjmp(r->jump, 1);
    }
}

static void tk_rows_jpeg_free(struct tk_jpeg_rows *r) {
    if (r == NULL) return;
    if (r->created) jpeg_destroy_decompress(&r->cinfo);
    free(r);
}

tk_jpeg_rows *tk_jpeg_rows_begin(const uint8_t *data, size_t size, int scale_num, int block_smoothing,
                                 int fail_on_warning, uint32_t *out_width, uint32_t *out_height,
                                 char warn[TK_ERR_LEN], char err[TK_ERR_LEN]) {
    tk_rows_jpeg_copy(warn, "");
    tk_rows_jpeg_copy(err, "");
    if (data == NULL || size == 0 || scale_num < 1 || scale_num > 8) {
        tk_rows_jpeg_copy(err, "invalid JPEG decode arguments");
        return NULL;
    }
    struct tk_jpeg_rows *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        tk_rows_jpeg_copy(err, "out of memory");
        return NULL;
    }
    jpeg_std_error(&r->pub);
    r->pub.error_exit = tk_rows_error_exit;
    r->pub.output_message = tk_rows_output_message;
    r->pub.emit_message = tk_rows_emit_message;
    r->fail_on_warning = fail_on_warning;
    r->cinfo.err = &r->pub;
    if (setjmp(r->jump)) {
        tk_rows_jpeg_copy(err, r->error);
        tk_rows_jpeg_copy(warn, r->warning);
        tk_rows_jpeg_free(r);
        return NULL;
    }
    r->created = 1;  // jpeg_create_decompress zeroes first, so destroying after a failure is safe
    jpeg_create_decompress(&r->cinfo);
    r->cinfo.mem->max_memory_to_use = TK_ROWS_MAX_MEMORY;
    r->progress.progress_monitor = tk_rows_progress_monitor;
    r->cinfo.progress = &r->progress;
    jpeg_mem_src(&r->cinfo, data, (unsigned long)size);
    jpeg_read_header(&r->cinfo, TRUE);
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
        tk_rows_jpeg_copy(err, "unexpected number of output components");
        tk_rows_jpeg_free(r);
        return NULL;
    }
    jpeg_start_decompress(&r->cinfo);
    if (out_width != NULL) *out_width = r->cinfo.output_width;
    if (out_height != NULL) *out_height = r->cinfo.output_height;
    return r;
}

int tk_jpeg_rows_next(tk_jpeg_rows *r, uint8_t *dst, size_t dst_size, char err[TK_ERR_LEN]) {
    tk_rows_jpeg_copy(err, "");
    if (r == NULL || dst == NULL || dst_size != (size_t)r->cinfo.output_width * 4 ||
        r->cinfo.output_scanline >= r->cinfo.output_height) {
        tk_rows_jpeg_copy(err, "invalid JPEG row request");
        return -1;
    }
    if (setjmp(r->jump)) {
        tk_rows_jpeg_copy(err, r->error);
        return -1;
    }
    JSAMPROW row = dst;
    jpeg_read_scanlines(&r->cinfo, &row, 1);
    return 0;
}

int tk_jpeg_rows_finish(tk_jpeg_rows *r, int *warnings, char warn[TK_ERR_LEN], char err[TK_ERR_LEN]) {
    tk_rows_jpeg_copy(err, "");
    tk_rows_jpeg_copy(warn, "");
    if (warnings != NULL) *warnings = 0;
    if (r == NULL) return -1;
    int rc = 0;
    if (r->cinfo.output_scanline < r->cinfo.output_height) {
        tk_rows_jpeg_copy(err, "JPEG rows left unread");
        rc = -1;
    } else if (setjmp(r->jump)) {
        tk_rows_jpeg_copy(err, r->error);
        rc = -1;
    } else {
        // Reads on to EOI, where warnings about trailing junk are raised.
        jpeg_finish_decompress(&r->cinfo);
    }
    tk_rows_jpeg_copy(warn, r->warning);
    if (warnings != NULL) *warnings = r->warnings;
    tk_rows_jpeg_free(r);
    return rc;
}
