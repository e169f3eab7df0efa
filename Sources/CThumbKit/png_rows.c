// SPDX-License-Identifier: Apache-2.0
// png_rows.c: the one PNG pixel reader, handing out RGBA8 rows (see CThumbKit.h).
//
// It is libpng's low-level reader over the caller's memory, set up with the transforms that
// libpng's simplified API chooses for PNG_FORMAT_RGBA (libpng 1.6 pngread.c,
// png_image_read_direct, for 8-bit non-linear output) and the same error, warning and chunk
// handling, so every file decodes to libpng's own RGBA8 rendering (gAMA applied, 16-bit
// reduced, palettes and tRNS expanded). Why not the simplified API itself: it writes only a
// whole image (a 5120x2880 PNG would need 59 MB before the first pixel is resampled), reads
// only from a FILE, and has no place to check a deadline.
//
// A non-interlaced file is read in one pass of `height` rows, each final. An interlaced file
// is read in 7 passes of `height` rows each, into the same whole-image buffer: a pass writes
// only its own pixels of a row (png_read_image does the same), so it cannot be streamed.
//
// The deadline is checked each time libpng asks for input (8 KB of IDAT at a time; zlib
// inflates at most ~1032:1), so a decompression bomb inside one row is cut short too.
//
// setjmp: each entry point sets the state's jump buffer before it calls libpng, so a libpng
// error always lands in the function that is running, never in a returned frame.
#include "CThumbKit.h"
#include "png_common.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct tk_png_rows {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t pos;
    jmp_buf jump;
    char error[TK_ERR_LEN];    // the fatal message
    char warning[TK_ERR_LEN];  // the first warning, as the simplified API keeps it
    int warned;
    int fail_on_warning;
    uint32_t width;
    uint32_t height;
    int passes;
    uint64_t rows_total;  // height * passes
    uint64_t rows_read;
    int failed;  // a row failed: nothing more can be read, and finish fails
    uint64_t deadline_ns;  // CLOCK_MONOTONIC; 0: none
    int plain_channels;  // see tk_png_rows_plain_channels
};

static void tk_rows_copy(char dst[TK_ERR_LEN], const char *msg) {
    if (dst == NULL) return;
    snprintf(dst, TK_ERR_LEN, "%s", msg != NULL ? msg : "");
}

static void tk_rows_read_fn(png_structp png, png_bytep out, size_t length) {
    struct tk_png_rows *r = (struct tk_png_rows *)png_get_io_ptr(png);
    if (r->deadline_ns != 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec >= r->deadline_ns) {
            png_error(png, "time limit exceeded");
        }
    }
    if (length > r->size - r->pos) png_error(png, "read beyond end of data");  // simplified API's words
    memcpy(out, r->data + r->pos, length);
    r->pos += length;
}

static void tk_rows_error_fn(png_structp png, png_const_charp msg) {
    struct tk_png_rows *r = (struct tk_png_rows *)png_get_error_ptr(png);
    tk_rows_copy(r->error, msg);
    longjmp(r->jump, 1);
}

static void tk_rows_warning_fn(png_structp png, png_const_charp msg) {
    struct tk_png_rows *r = (struct tk_png_rows *)png_get_error_ptr(png);
    if (!r->warned) {  // png_safe_warning keeps only the first
        tk_rows_copy(r->warning, msg);
        r->warned = 1;
    }
}

static void tk_rows_free(struct tk_png_rows *r) {
    if (r == NULL) return;
    png_destroy_read_struct(&r->png, r->info != NULL ? &r->info : NULL, NULL);
    free(r);
}

// tk_png_rows_plain_channels, from the file's own header (before png_read_update_info rewrites it).
static int tk_rows_plain_channels(const struct tk_png_rows *r) {
    if (png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE || png_get_bit_depth(r->png, r->info) != 8 ||
        png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0) {
        return 0;
    }
    // No gamma correction: png_set_alpha_mode_fixed's screen is sRGB, and libpng leaves a file
    // without gamma, or with the sRGB one (gAMA 45455, or an sRGB chunk), uncorrected.
    png_fixed_point gamma = 0;
    if (png_get_gAMA_fixed(r->png, r->info, &gamma) != 0 && gamma != 45455) return 0;  // 1/2.2
    switch (png_get_color_type(r->png, r->info)) {
    case PNG_COLOR_TYPE_GRAY: return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB: return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    default: return 0;
    }
}

// The transforms png_image_read_direct sets for PNG_FORMAT_RGBA, in its order.
static void tk_rows_set_transforms(struct tk_png_rows *r) {
    png_structp png = r->png;
    png_infop info = r->info;
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int num_trans = 0;
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && png_get_valid(png, info, PNG_INFO_tRNS) != 0) {
        png_get_tRNS(png, info, NULL, &num_trans, NULL);
    }
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || num_trans > 0;

    png_set_expand(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    // Files without gAMA, sRGB or iCCP are sRGB-encoded, 16-bit ones included: the whole-image
    // decoder sets PNG_IMAGE_FLAG_16BIT_sRGB, which makes the simplified API default to sRGB
    // rather than linear for 16-bit input.
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    if (bit_depth == 16) png_set_scale_16(png);
    if (!has_alpha) png_set_add_alpha(png, 255, PNG_FILLER_AFTER);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);

    // png_image_skip_unused_chunks: from here on only image-data chunks are handled.
    static const png_byte kept[] = "bKGD\0cHRM\0gAMA\0iCCP\0sBIT\0sRGB\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, kept, (int)(sizeof(kept) / 5));
}

tk_png_rows *tk_png_rows_begin(const uint8_t *data, size_t size, int fail_on_warning, uint64_t deadline_ns,
                               uint32_t *width, uint32_t *height, int *passes, char warn[TK_ERR_LEN],
                               char err[TK_ERR_LEN]) {
    tk_rows_copy(warn, "");
    tk_rows_copy(err, "");
    if (data == NULL || size == 0) {
        tk_rows_copy(err, "invalid argument");
        return NULL;
    }
    struct tk_png_rows *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        tk_rows_copy(err, "out of memory");
        return NULL;
    }
    r->data = data;
    r->size = size;
    r->fail_on_warning = fail_on_warning;
    r->deadline_ns = deadline_ns;
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, tk_rows_error_fn, tk_rows_warning_fn);
    if (r->png == NULL || (r->info = png_create_info_struct(r->png)) == NULL) {
        tk_rows_free(r);
        tk_rows_copy(err, "out of memory");
        return NULL;
    }
    if (setjmp(r->jump)) {
        tk_rows_copy(err, r->error);
        tk_rows_free(r);
        return NULL;
    }
    png_set_read_fn(r->png, r, tk_rows_read_fn);
    png_set_benign_errors(r->png, 1);  // as png_image_read_header
    // The header reader's hardening. Skipped: every ancillary chunk that cannot change the
    // pixels (the kept ones are those tk_rows_set_transforms keeps, plus tRNS).
    static const png_byte skipped[] = "eXIf\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0sCAL\0sPLT\0sTER\0"
                                      "tEXt\0tIME\0zTXt\0";
    tk_png_harden(r->png, skipped, (int)(sizeof(skipped) / 5));
    png_read_info(r->png, r->info);
    // As the simplified API does: a warning in the header is reported (or fatal) straight away.
    if (r->warned) {
        tk_rows_copy(warn, r->warning);
        if (fail_on_warning) {
            tk_rows_copy(err, r->warning);
            tk_rows_free(r);
            return NULL;
        }
    }
    r->plain_channels = tk_rows_plain_channels(r);
    tk_rows_set_transforms(r);
    r->passes = png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != (size_t)png_get_image_width(r->png, r->info) * 4) {
        tk_rows_copy(err, "png_read_image: invalid transformations");
        tk_rows_free(r);
        return NULL;
    }
    r->width = png_get_image_width(r->png, r->info);
    r->height = png_get_image_height(r->png, r->info);
    r->rows_total = (uint64_t)r->height * (uint64_t)r->passes;
    if (width != NULL) *width = r->width;
    if (height != NULL) *height = r->height;
    if (passes != NULL) *passes = r->passes;
    return r;
}

int tk_png_rows_next(tk_png_rows *r, uint8_t *dst, size_t dst_size, char err[TK_ERR_LEN]) {
    tk_rows_copy(err, "");
    if (r == NULL || dst == NULL || dst_size != (size_t)r->width * 4 || r->failed ||
        r->rows_read >= r->rows_total) {
        tk_rows_copy(err, "invalid PNG row request");
        return -1;
    }
    if (setjmp(r->jump)) {
        tk_rows_copy(err, r->error);
        r->failed = 1;
        return -1;
    }
    png_read_row(r->png, dst, NULL);
    r->rows_read += 1;
    return 0;
}

int tk_png_rows_finish(tk_png_rows *r, char warn[TK_ERR_LEN], char err[TK_ERR_LEN]) {
    tk_rows_copy(err, "");
    if (r == NULL) {
        tk_rows_copy(warn, "");
        return -1;
    }
    tk_rows_copy(warn, r->warned ? r->warning : "");
    int rc = 0;
    if (r->failed) {
        tk_rows_copy(err, r->error);
        rc = -1;
    } else if (r->rows_read < r->rows_total) {
        tk_rows_copy(err, "PNG rows left unread");
        rc = -1;
    } else if (r->warned && r->fail_on_warning) {
        tk_rows_copy(err, r->warning);
        rc = -1;
    }
    tk_rows_free(r);
    return rc;
}

int tk_png_rows_plain_channels(const tk_png_rows *r) { return r != NULL ? r->plain_channels : 0; }

void tk_png_rows_release(tk_png_rows *r) { tk_rows_free(r); }
