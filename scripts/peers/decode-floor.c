// SPDX-License-Identifier: Apache-2.0
// decode-floor.c: the in-process decode floor that issue 30 ("Past the floors") measures
// ThumbKit against. It reads every file into memory first, then decodes them in rounds and
// reports this process's own CPU time (CLOCK_PROCESS_CPUTIME_ID), per file and in total, as
// the median over the rounds. No process start-up, no file I/O and no output is counted, which
// is what `djpeg -scale 1/8` per file would add.
//
// Modes:
//   jpeg18              libjpeg-turbo at scale 1/8 with ThumbKit's settings (jpeg_rows.c:
//                       JCS_EXT_RGBA out, or JCS_CMYK for CMYK/YCCK; default DCT method
//                       (JDCT_ISLOW) and fancy upsampling; do_block_smoothing TRUE, as ThumbKit
//                       asks for at 1/8), rows read one at a time, then jpeg_finish_decompress.
//   jpeg18-rgb          the same with JCS_RGB output (what the issue text names).
//   png                 libpng full decode to 8-bit RGBA with png_rows.c's transforms
//                       (expand, gray to RGB, alpha mode sRGB, scale 16, add alpha), row by row.
//   inflate-zlib        a PNG's IDAT data concatenated, inflated whole with zlib's inflate().
//   inflate-libdeflate  the same with libdeflate_zlib_decompress().
//
// Usage: decode-floor MODE [-r ROUNDS] [-q] FILE...
//   -r ROUNDS  decode every file ROUNDS times, interleaved (file 1..n, then again); default 5
//   -q         only the total line
// Output: one line per file "ms<TAB>file" (median CPU ms), then "total<TAB>ms<TAB>files", where
// the total is the median of the rounds' sums. Build with scripts/peers/build-decode-floor.
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>
#include "peer_common.h"
#include <libdeflate.h>
#include <png.h>
#include <zlib.h>

typedef struct {
    const char *path;
    uint8_t *data;
    size_t size;
    uint8_t *idat;  // inflate modes: the concatenated IDAT payload
    size_t idat_size;
    size_t raw_size;  // inflate modes: the inflated size (from the header)
} input;

// MARK: - JPEG

static uint8_t *row_buffer;  // decode_png's rows
static size_t row_capacity;

static int decode_jpeg18(const input *in, int rgb) { return peer_jpeg18(in->data, in->size, rgb); }

// MARK: - PNG

typedef struct {
    const input *in;
    size_t pos;
    jmp_buf jump;
} floor_png_state;

static void floor_png_read(png_structp png, png_bytep out, size_t length) {
    floor_png_state *s = png_get_io_ptr(png);
    if (length > s->in->size - s->pos) png_error(png, "read beyond end of data");
    memcpy(out, s->in->data + s->pos, length);
    s->pos += length;
}

static void floor_png_error(png_structp png, png_const_charp msg) {
    (void)msg;
    floor_png_state *s = png_get_error_ptr(png);
    longjmp(s->jump, 1);
}

static void floor_png_warning(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg;
}

static int decode_png(const input *in) {
    floor_png_state s = {.in = in, .pos = 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, floor_png_error, floor_png_warning);
    png_infop info = png_create_info_struct(png);
    if (setjmp(s.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &s, floor_png_read);
    png_set_benign_errors(png, 1);
    png_read_info(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int num_trans = 0;
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && png_get_valid(png, info, PNG_INFO_tRNS) != 0) {
        png_get_tRNS(png, info, NULL, &num_trans, NULL);
    }
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || num_trans > 0;
    png_set_expand(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    if (bit_depth == 16) png_set_scale_16(png);
    if (!has_alpha) png_set_add_alpha(png, 255, PNG_FILLER_AFTER);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    static const png_byte kept[] = "bKGD\0cHRM\0gAMA\0iCCP\0sBIT\0sRGB\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, kept, (int)(sizeof(kept) / 5));
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    size_t stride = png_get_rowbytes(png, info);
    if (passes == 1) {
        if (stride > row_capacity) {
            row_buffer = realloc(row_buffer, stride);
            row_capacity = stride;
        }
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row_buffer, NULL);
    } else {
        // Interlaced: every pass writes into the one whole image, as png_rows.c does.
        size_t whole = stride * height;
        if (whole > row_capacity) {
            row_buffer = realloc(row_buffer, whole);
            row_capacity = whole;
        }
        for (int p = 0; p < passes; p++) {
            for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row_buffer + stride * y, NULL);
        }
    }
    (void)width;
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

// MARK: - Inflate

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// Concatenates the IDAT payloads and works out the inflated size from IHDR.
static int gather_idat(input *in) {
    static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (in->size < 33 || memcmp(in->data, sig, 8) != 0) return -1;
    size_t pos = 8, total = 0;
    in->idat = malloc(in->size);
    while (pos + 12 <= in->size) {
        uint32_t len = be32(in->data + pos);
        const uint8_t *type = in->data + pos + 4;
        if (pos + 12 + (size_t)len > in->size) break;
        if (memcmp(type, "IHDR", 4) == 0) {
            const uint8_t *h = in->data + pos + 8;
            uint64_t w = be32(h), ht = be32(h + 4);
            int depth = h[8], color = h[9], interlace = h[12];
            int channels = color == 0 ? 1 : color == 2 ? 3 : color == 3 ? 1 : color == 4 ? 2 : 4;
            uint64_t bits = (uint64_t)channels * (uint64_t)depth;
            if (interlace) {
                // Adam7: seven sub-images, each row with its filter byte.
                static const int xs[7] = {0, 4, 0, 2, 0, 1, 0}, ys[7] = {0, 0, 4, 0, 2, 0, 1};
                static const int dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
                uint64_t raw = 0;
                for (int p = 0; p < 7; p++) {
                    uint64_t pw = w > (uint64_t)xs[p] ? (w - xs[p] + dx[p] - 1) / dx[p] : 0;
                    uint64_t ph = ht > (uint64_t)ys[p] ? (ht - ys[p] + dy[p] - 1) / dy[p] : 0;
                    if (pw && ph) raw += ph * (1 + (pw * bits + 7) / 8);
                }
                in->raw_size = raw;
            } else {
                in->raw_size = ht * (1 + (w * bits + 7) / 8);
            }
        } else if (memcmp(type, "IDAT", 4) == 0) {
            memcpy(in->idat + total, in->data + pos + 8, len);
            total += len;
        }
        pos += 12 + (size_t)len;
    }
    in->idat_size = total;
    return total > 0 && in->raw_size > 0 ? 0 : -1;
}

static uint8_t *inflate_buffer;
static size_t inflate_capacity;
static struct libdeflate_decompressor *deflater;

static int inflate_zlib(const input *in) {
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK) return -1;
    z.next_in = in->idat;
    z.avail_in = (uInt)in->idat_size;
    z.next_out = inflate_buffer;
    z.avail_out = (uInt)in->raw_size;
    int rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    return rc == Z_STREAM_END && z.total_out == in->raw_size ? 0 : -1;
}

static int inflate_libdeflate(const input *in) {
    size_t out = 0;
    enum libdeflate_result rc =
        libdeflate_zlib_decompress(deflater, in->idat, in->idat_size, inflate_buffer, in->raw_size, &out);
    return rc == LIBDEFLATE_SUCCESS && out == in->raw_size ? 0 : -1;
}

// MARK: - Main

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: decode-floor jpeg18|jpeg18-rgb|png|inflate-zlib|inflate-libdeflate [-r N] [-q] FILE...\n");
        return 2;
    }
    const char *mode = argv[1];
    int rounds = 5, quiet = 0, first = 2;
    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-r") == 0 && first + 1 < argc) {
            rounds = atoi(argv[first + 1]);
            first += 2;
        } else if (strcmp(argv[first], "-q") == 0) {
            quiet = 1;
            first += 1;
        } else {
            fprintf(stderr, "unknown option %s\n", argv[first]);
            return 2;
        }
    }
    int kind = strcmp(mode, "jpeg18") == 0               ? 0
               : strcmp(mode, "jpeg18-rgb") == 0         ? 1
               : strcmp(mode, "png") == 0                ? 2
               : strcmp(mode, "inflate-zlib") == 0       ? 3
               : strcmp(mode, "inflate-libdeflate") == 0 ? 4
                                                         : -1;
    if (kind < 0 || rounds < 1) {
        fprintf(stderr, "unknown mode %s or bad round count\n", mode);
        return 2;
    }
    int n = argc - first;
    input *inputs = calloc((size_t)n, sizeof(input));
    for (int i = 0; i < n; i++) {
        inputs[i].path = argv[first + i];
        inputs[i].data = read_all(inputs[i].path, &inputs[i].size);
        if (inputs[i].data == NULL) {
            fprintf(stderr, "cannot read %s\n", inputs[i].path);
            return 1;
        }
        if (kind >= 3) {
            if (gather_idat(&inputs[i]) != 0) {
                fprintf(stderr, "no IDAT in %s\n", inputs[i].path);
                return 1;
            }
            if (inputs[i].raw_size > inflate_capacity) {
                inflate_buffer = realloc(inflate_buffer, inputs[i].raw_size);
                inflate_capacity = inputs[i].raw_size;
            }
        }
    }
    deflater = libdeflate_alloc_decompressor();
    double *per = calloc((size_t)n * (size_t)rounds, sizeof(double));
    double *sums = calloc((size_t)rounds, sizeof(double));
    int failures = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            double t0 = cpu_ms();
            int rc = kind == 0   ? decode_jpeg18(&inputs[i], 0)
                     : kind == 1 ? decode_jpeg18(&inputs[i], 1)
                     : kind == 2 ? decode_png(&inputs[i])
                     : kind == 3 ? inflate_zlib(&inputs[i])
                                 : inflate_libdeflate(&inputs[i]);
            double t = cpu_ms() - t0;
            if (rc != 0 && r == 0) {
                fprintf(stderr, "failed: %s\n", inputs[i].path);
                failures++;
            }
            per[(size_t)i * rounds + r] = t;
            sums[r] += t;
        }
    }
    if (!quiet) {
        for (int i = 0; i < n; i++) printf("%.2f\t%s\n", median(per + (size_t)i * rounds, rounds), inputs[i].path);
    }
    printf("total\t%.1f\t%d\n", median(sums, rounds), n);
    return failures ? 1 : 0;
}
