// SPDX-License-Identifier: Apache-2.0
// png_shim.c: libpng 1.6 behind setjmp-safe, return-code functions (see CThumbKit.h).
//
// Everything here is libpng's low-level API over memory:
// - the header (png_read_info), which stops before IDAT, so a 225000x225000 file costs nothing;
// - the colour and text chunks;
// - writing, because the simplified writer has no compression level.
// The pixels are read by png_rows.c.
#include "CThumbKit.h"
#include "png_common.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>  // Z_RLE

// Chunk memory limits for every reader (tk_png_harden). libpng's compiled-in defaults (8 MB per chunk,
// 1000 ancillary chunks) already bound text-chunk bombs; they are restated here so that the
// bound does not depend on how libpng was configured.
#define TK_PNG_CHUNK_MALLOC_MAX (8u * 1024u * 1024u)
#define TK_PNG_CHUNK_CACHE_MAX 1000u

void tk_copy_message(char dst[TK_ERR_LEN], const char *msg) {
    if (dst == NULL) return;
    snprintf(dst, TK_ERR_LEN, "%s", msg != NULL ? msg : "unknown error");
}

void tk_png_harden(png_structp png, const png_byte *skipped, int count) {
    png_set_chunk_malloc_max(png, TK_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(png, TK_PNG_CHUNK_CACHE_MAX);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, count);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);  // and unknown ones
}

// MARK: - Header (low-level API)

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    char *err;           // first fatal message
    jmp_buf jump;
} tk_png_reader;

static void tk_png_read_fn(png_structp png, png_bytep out, size_t length) {
    tk_png_reader *r = (tk_png_reader *)png_get_io_ptr(png);
    if (length > r->size - r->pos) {
        // The same words the simplified API's memory reader uses.
        png_error(png, "read beyond end of data");
    }
    memcpy(out, r->data + r->pos, length);
    r->pos += length;
}

static void tk_png_error_fn(png_structp png, png_const_charp msg) {
    tk_png_reader *r = (tk_png_reader *)png_get_error_ptr(png);
    tk_copy_message(r->err, msg);
    longjmp(r->jump, 1);
}

static void tk_png_silent_warning_fn(png_structp png, png_const_charp msg) {
    // Header reads are silent: warnings are reported by the decode, which sees every chunk.
    (void)png;
    (void)msg;
}

// Reads the chunks of `data` before the first IDAT with a low-level reader over memory (silent
// warnings, benign errors as the simplified reader treats them, the chunk limits above), skipping
// the `count` ancillary chunks named in `skipped` and every unknown one, and hands the result to
// `take`. Skipping reads a chunk in small pieces, whereas handling some (pCAL, sCAL, sPLT) first
// allocates the declared length: 57 bytes declaring a 1 GB pCAL would cost a 1 GB allocation;
// text chunks would also be inflated.
int tk_png_read_info(const uint8_t *data, size_t size, const png_byte *skipped, int count,
                            tk_png_info_taker take, void *context, char err[TK_ERR_LEN]) {
    if (data == NULL || size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        tk_copy_message(err, "Not a PNG file");
        return -1;
    }
    tk_png_reader reader = {.data = data, .size = size, .pos = 0, .err = err};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, tk_png_error_fn,
                                             tk_png_silent_warning_fn);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        if (png != NULL) png_destroy_read_struct(&png, NULL, NULL);
        tk_copy_message(err, "out of memory");
        return -1;
    }
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &reader, tk_png_read_fn);
    png_set_benign_errors(png, 1);
    tk_png_harden(png, skipped, count);
    png_read_info(png, info);
    int rc = take(png, info, context, err);
    png_destroy_read_struct(&png, &info, NULL);
    return rc;
}

static int tk_png_take_header(png_structp png, png_infop info, void *context, char err[TK_ERR_LEN]) {
    (void)err;
    tk_png_header *out = context;
    out->width = png_get_image_width(png, info);
    out->height = png_get_image_height(png, info);
    out->bit_depth = png_get_bit_depth(png, info);
    out->color_type = png_get_color_type(png, info);
    out->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    out->has_alpha = (out->color_type & PNG_COLOR_MASK_ALPHA) != 0 ||
                     png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    out->has_iccp = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
    return 0;
}

int tk_png_read_header(const uint8_t *data, size_t size, tk_png_header *out, char err[TK_ERR_LEN]) {
    tk_copy_message(err, "");
    if (out == NULL) {
        tk_copy_message(err, "Not a PNG file");
        return -1;
    }
    memset(out, 0, sizeof(*out));
    // Only tRNS and iCCP are kept: the header reports nothing else.
    static const png_byte skipped[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0"
                                      "sBIT\0sCAL\0sPLT\0sRGB\0sTER\0tEXt\0tIME\0zTXt\0";
    return tk_png_read_info(data, size, skipped, (int)(sizeof(skipped) / 5), tk_png_take_header, out, err);
}

// MARK: - Colour chunks (low-level API)

typedef struct {
    tk_png_color *out;
    uint8_t **icc;
    size_t *icc_size;
} tk_png_color_request;

static int tk_png_take_color(png_structp png, png_infop info, void *context, char err[TK_ERR_LEN]) {
    tk_png_color_request *request = context;
    tk_png_color *out = request->out;
    int intent = 0;
    if (png_get_sRGB(png, info, &intent) != 0) {
        out->has_srgb = 1;
        out->srgb_intent = intent;
    }
    png_fixed_point gamma = 0;
    if (png_get_gAMA_fixed(png, info, &gamma) != 0 && gamma > 0) {
        out->has_gamma = 1;
        out->gamma = (uint32_t)gamma;
    }
    png_fixed_point c[8];
    if (png_get_cHRM_fixed(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) != 0) {
        int valid = 1;
        for (int i = 0; i < 8; i++) valid = valid && c[i] >= 0;
        if (valid) {
            out->has_chrm = 1;
            for (int i = 0; i < 8; i++) out->chrm[i] = (uint32_t)c[i];
        }
    }
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) != 0 && profile != NULL &&
        length > 0 && length <= TK_ICC_MAX_BYTES) {
        *request->icc = malloc(length);
        if (*request->icc == NULL) {
            tk_copy_message(err, "out of memory");
            return -1;
        }
        memcpy(*request->icc, profile, length);
        *request->icc_size = length;
    }
    return 0;
}

int tk_png_read_color(const uint8_t *data, size_t size, tk_png_color *out, uint8_t **icc,
                      size_t *icc_size, char err[TK_ERR_LEN]) {
    tk_copy_message(err, "");
    if (icc != NULL) *icc = NULL;
    if (icc_size != NULL) *icc_size = 0;
    if (out == NULL || icc == NULL || icc_size == NULL) {
        tk_copy_message(err, "Not a PNG file");
        return -1;
    }
    memset(out, 0, sizeof(*out));
    // As in tk_png_read_header, but gAMA, cHRM, sRGB and iCCP are read (all small, or bounded
    // by the chunk limit above) and tRNS is not needed.
    static const png_byte skipped[] = "bKGD\0eXIf\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0"
                                      "sPLT\0sTER\0tEXt\0tIME\0tRNS\0zTXt\0";
    tk_png_color_request request = {.out = out, .icc = icc, .icc_size = icc_size};
    return tk_png_read_info(data, size, skipped, (int)(sizeof(skipped) / 5), tk_png_take_color, &request,
                            err);
}

// Adds the requested colour chunks to a PNG being written. libpng checks an iCCP profile (size,
// signature, colour space against the colour type); a refusal is an app error, fatal on write,
// so a profile is never dropped silently: the encode fails with libpng's reason.
static void tk_png_set_color(png_structp png, png_infop info, const tk_png_color *color,
                             const uint8_t *icc, size_t icc_size) {
    if (color != NULL && color->has_srgb) png_set_sRGB(png, info, color->srgb_intent);
    if (color != NULL && color->has_gamma) png_set_gAMA_fixed(png, info, (png_fixed_point)color->gamma);
    if (color != NULL && color->has_chrm) {
        const uint32_t *c = color->chrm;
        png_set_cHRM_fixed(png, info, (png_fixed_point)c[0], (png_fixed_point)c[1], (png_fixed_point)c[2],
                           (png_fixed_point)c[3], (png_fixed_point)c[4], (png_fixed_point)c[5],
                           (png_fixed_point)c[6], (png_fixed_point)c[7]);
    }
    if (icc != NULL) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
}

// MARK: - Encode (low-level API)

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    char *err;
    jmp_buf jump;
} tk_png_writer;

static void tk_png_write_fn(png_structp png, png_bytep bytes, size_t length) {
    tk_png_writer *w = (tk_png_writer *)png_get_io_ptr(png);
    if (length > w->capacity - w->size) {
        size_t capacity = w->capacity < 4096 ? 4096 : w->capacity;
        while (capacity - w->size < length) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(w->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        w->bytes = grown;
        w->capacity = capacity;
    }
    memcpy(w->bytes + w->size, bytes, length);
    w->size += length;
}

static void tk_png_flush_fn(png_structp png) { (void)png; }

static void tk_png_write_error_fn(png_structp png, png_const_charp msg) {
    tk_png_writer *w = (tk_png_writer *)png_get_error_ptr(png);
    tk_copy_message(w->err, msg);
    longjmp(w->jump, 1);
}

int tk_png_encode_text(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                       int compression_level, int fast, const tk_png_color *color,
                       const uint8_t *icc, size_t icc_size, const tk_png_text *text,
                       size_t text_count, uint8_t **out, size_t *out_size, char err[TK_ERR_LEN]) {
    tk_copy_message(err, "");
    if (text_count > 0 && text == NULL) {
        tk_copy_message(err, "invalid PNG encode arguments");
        return -1;
    }
    if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 ||
        (channels != 3 && channels != 4) || compression_level < 0 || compression_level > 9 ||
        (icc != NULL && (icc_size < 132 || icc_size > TK_ICC_MAX_BYTES))) {
        tk_copy_message(err, "invalid PNG encode arguments");
        return -1;
    }
    *out = NULL;
    *out_size = 0;
    tk_png_writer writer = {.bytes = NULL, .size = 0, .capacity = 0, .err = err};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer, tk_png_write_error_fn,
                                              tk_png_silent_warning_fn);
    if (png == NULL) {
        tk_copy_message(err, "out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        tk_copy_message(err, "out of memory");
        return -1;
    }
    if (setjmp(writer.jump)) {
        png_destroy_write_struct(&png, &info);
        free(writer.bytes);
        return -1;
    }
    png_set_write_fn(png, &writer, tk_png_write_fn, tk_png_flush_fn);
    png_set_compression_level(png, compression_level);
    if (fast) {
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
        png_set_compression_strategy(png, Z_RLE);
    }
    png_set_IHDR(png, info, width, height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    tk_png_set_color(png, info, color, icc, icc_size);
    for (size_t i = 0; i < text_count; i++) {
        png_text chunk;
        memset(&chunk, 0, sizeof(chunk));
        chunk.compression = PNG_TEXT_COMPRESSION_NONE;
        chunk.key = (png_charp)(uintptr_t)text[i].key;  // libpng copies; it never writes here
        chunk.text = (png_charp)(uintptr_t)text[i].value;
        chunk.text_length = text[i].value_length;
        png_set_text(png, info, &chunk, 1);  // a bad key is a libpng error: the encode fails
    }
    png_write_info(png, info);
    size_t row_bytes = (size_t)width * (size_t)channels;
    for (uint32_t y = 0; y < height; y++) {
        // libpng's row pointer is non-const but the writer only reads it.
        png_write_row(png, (png_bytep)(uintptr_t)(pixels + (size_t)y * row_bytes));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = writer.bytes;
    *out_size = writer.size;
    return 0;
}
