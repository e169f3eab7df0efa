// scripts/peers/peer_common.h: what decode-floor.c and jpeg-symbol-stats.c share, kept once:
// the process's CPU clock, medians, reading a file whole, libjpeg's silent error handling, and
// the in-process 1/8 JPEG decode with ThumbKit's settings (the floor both tools time against).
#ifndef PEER_COMMON_H
#define PEER_COMMON_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <jpeglib.h>

static inline double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline uint8_t *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf == NULL || n < 0 || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

// libjpeg errors jump back to the caller's setjmp; its messages are not printed.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} peer_jpeg_error;

static inline void peer_jpeg_exit(j_common_ptr cinfo) { longjmp(((peer_jpeg_error *)cinfo->err)->jump, 1); }
static inline void peer_jpeg_silent(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

// Decodes `data` at scale 1/8 row by row, as ThumbKit's shim asks libjpeg to (JCS_EXT_RGBA, or
// JCS_RGB with `rgb`; CMYK stays CMYK; default DCT and upsampling, block smoothing on).
// Returns 0, or -1 when libjpeg fails.
static int peer_jpeg18(const uint8_t *data, size_t size, int rgb) {
    static uint8_t *row_buffer;
    static size_t row_capacity;
    struct jpeg_decompress_struct cinfo;
    peer_jpeg_error jerr;
    cinfo.err = jpeg_std_error(&jerr.pub);
    jerr.pub.error_exit = peer_jpeg_exit;
    jerr.pub.emit_message = peer_jpeg_silent;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        cinfo.out_color_space = JCS_CMYK;
    } else {
        cinfo.out_color_space = rgb ? JCS_RGB : JCS_EXT_RGBA;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    cinfo.do_block_smoothing = TRUE;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    if (stride > row_capacity) {
        row_buffer = realloc(row_buffer, stride);
        row_capacity = stride;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = row_buffer;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

#endif
