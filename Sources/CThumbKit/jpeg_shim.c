// SPDX-License-Identifier: Apache-2.0
// jpeg_shim.c: libjpeg-turbo behind setjmp-safe, return-code functions (see CThumbKit.h).
//
// The header reader and the encoder, plus the error manager and progress monitor every JPEG
// call shares (jpeg_common.h); decompression itself is in jpeg_rows.c.
#include "CThumbKit.h"

#include "jpeg_common.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jerror.h>
#include <jpegint.h>  // DSTATE_*: which phase of the decode the progress monitor is called in

void tk_jpeg_copy(char *dst, const char *msg) {
    if (dst == NULL) return;
    snprintf(dst, TK_ERR_LEN, "%s", msg != NULL ? msg : "");
}

static void tk_jpeg_error_exit(j_common_ptr cinfo) {
    tk_jpeg_error *e = (tk_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tk_jpeg_copy(e->err, text);
    longjmp(e->jump, 1);
}

static void tk_jpeg_output_message(j_common_ptr cinfo) {
    // libjpeg's hook for "show this message" (stderr by default). With error_exit and
    // emit_message replaced nothing in libjpeg calls it, but keep the text rather than print it.
    tk_jpeg_error *e = (tk_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tk_jpeg_copy(e->err, text);
}

static void tk_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;  // trace output
    tk_jpeg_error *e = (tk_jpeg_error *)cinfo->err;
    e->warnings += 1;
    cinfo->err->num_warnings += 1;
    // The first sign that the entropy data is garbage starts the after-corruption budget.
    int code = cinfo->err->msg_code;
    tk_jpeg_progress *p = cinfo->is_decompressor ? (tk_jpeg_progress *)cinfo->progress : NULL;
    int corrupt = p != NULL && p->corrupt_at == 0 &&
                  (code == JWRN_HUFF_BAD_CODE || code == JWRN_BOGUS_PROGRESSION || code == JWRN_MUST_RESYNC);
    // A corrupt file can warn once a block: format only the texts that are kept.
    if (e->warnings > 1 && !corrupt && !e->fail_on_warning) return;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (e->warnings == 1) tk_jpeg_copy(e->warn, text);
    if (corrupt) {
        p->corrupt_at = p->block_visits + 1;
        tk_jpeg_copy(p->corrupt_warning, text);
    }
    if (e->fail_on_warning) {
        tk_jpeg_copy(e->err, text);
        longjmp(e->jump, 1);
    }
}

void tk_jpeg_init_error(tk_jpeg_error *e, char *err, char *warn, int fail_on_warning) {
    memset(e, 0, sizeof(*e));
    jpeg_std_error(&e->pub);
    e->pub.error_exit = tk_jpeg_error_exit;
    e->pub.output_message = tk_jpeg_output_message;
    e->pub.emit_message = tk_jpeg_emit_message;
    e->err = err;
    e->warn = warn;
    e->fail_on_warning = fail_on_warning;
    tk_jpeg_copy(err, "");
    tk_jpeg_copy(warn, "");
}

static uint64_t tk_jpeg_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// While a multi-scan file is read (jpeg_start_decompress, jpeg_read_coefficients), libjpeg
// calls the monitor once before each iMCU row of the current scan, which visits
// v_samp_factor block rows of each of the scan's components.
static uint64_t tk_jpeg_row_blocks(j_decompress_ptr cinfo) {
    uint64_t blocks = 0;
    for (int ci = 0; ci < cinfo->comps_in_scan; ci++) {
        const jpeg_component_info *c = cinfo->cur_comp_info[ci];
        if (c != NULL) blocks += (uint64_t)c->width_in_blocks * (uint64_t)c->v_samp_factor;
    }
    return blocks;
}

static uint64_t tk_jpeg_image_blocks(j_decompress_ptr cinfo) {
    uint64_t blocks = 0;
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        const jpeg_component_info *c = &cinfo->comp_info[ci];
        blocks += (uint64_t)c->width_in_blocks * (uint64_t)c->height_in_blocks;
    }
    return blocks;
}

static void tk_jpeg_progress_monitor(j_common_ptr common) {
    tk_jpeg_progress *p = (tk_jpeg_progress *)common->progress;
    if (p->cinfo->input_scan_number > TK_JPEG_MAX_SCANS) {
        tk_jpeg_error *e = (tk_jpeg_error *)common->err;
        snprintf(e->err, TK_ERR_LEN, "progressive JPEG has more than %d scans", TK_JPEG_MAX_SCANS);
        longjmp(e->jump, 1);
    }
    // Between scans the monitor is called once more before the next SOS is read, with the row
    // counter at the end of the scan just read: that call reads markers, not blocks.
    if ((p->cinfo->global_state == DSTATE_PRELOAD || p->cinfo->global_state == DSTATE_RDCOEFS) &&
        p->cinfo->input_iMCU_row < p->cinfo->total_iMCU_rows) {
        p->block_visits += tk_jpeg_row_blocks(p->cinfo);
        uint64_t blocks = tk_jpeg_image_blocks(p->cinfo);
        tk_jpeg_error *e = (tk_jpeg_error *)common->err;
        if (p->block_visits > TK_JPEG_MAX_SCAN_PASSES * blocks) {
            snprintf(e->err, TK_ERR_LEN, "progressive JPEG needs more than %d passes over its blocks",
                     TK_JPEG_MAX_SCAN_PASSES);
            longjmp(e->jump, 1);
        }
        if (p->corrupt_at != 0 && p->block_visits - (p->corrupt_at - 1) > TK_JPEG_MAX_PASSES_AFTER_CORRUPTION * blocks) {
            snprintf(e->err, TK_ERR_LEN, "%.200s, and more than %d passes of scans after it", p->corrupt_warning,
                     TK_JPEG_MAX_PASSES_AFTER_CORRUPTION);
            longjmp(e->jump, 1);
        }
    }
    // The per-image time budget; a vDSO clock read per call is far below the row's own cost.
    if (p->deadline_ns != 0 && tk_jpeg_now_ns() >= p->deadline_ns) {
        tk_jpeg_error *e = (tk_jpeg_error *)common->err;
        tk_jpeg_copy(e->err, "time limit exceeded");
        longjmp(e->jump, 1);
    }
}

void tk_jpeg_start(j_decompress_ptr cinfo, tk_jpeg_progress *progress, const uint8_t *data, size_t size) {
    jpeg_create_decompress(cinfo);
    cinfo->mem->max_memory_to_use = TK_JPEG_MAX_MEMORY;
    progress->pub.progress_monitor = tk_jpeg_progress_monitor;
    progress->cinfo = cinfo;
    progress->deadline_ns = 0;
    progress->block_visits = 0;
    progress->corrupt_at = 0;
    progress->corrupt_warning[0] = 0;
    cinfo->progress = &progress->pub;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
}

static void tk_jpeg_fill_header(j_decompress_ptr cinfo, tk_jpeg_header *out) {
    memset(out, 0, sizeof(*out));
    out->width = cinfo->image_width;
    out->height = cinfo->image_height;
    out->components = cinfo->num_components;
    out->color_space = (int)cinfo->jpeg_color_space;
    out->progressive = cinfo->progressive_mode ? 1 : 0;
    out->arithmetic = cinfo->arith_code ? 1 : 0;
    out->data_precision = cinfo->data_precision;
    out->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    out->adobe_transform = cinfo->Adobe_transform;
}

int tk_jpeg_read_header(const uint8_t *data, size_t size, tk_jpeg_header *out, char err[TK_ERR_LEN]) {
    char warn[TK_ERR_LEN];
    tk_jpeg_error jerr;
    tk_jpeg_init_error(&jerr, err, warn, 0);
    if (data == NULL || out == NULL || size == 0) {
        tk_jpeg_copy(err, "Empty input file");
        return -1;
    }
    struct jpeg_decompress_struct cinfo;
    tk_jpeg_progress progress;
    cinfo.err = &jerr.pub;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    tk_jpeg_start(&cinfo, &progress, data, size);
    tk_jpeg_fill_header(&cinfo, out);
    out->header_warnings = jerr.warnings;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

long tk_jpeg_dc_coefficients(const uint8_t *data, size_t size, int16_t *out, size_t capacity, int *warnings,
                             char err[TK_ERR_LEN]) {
    char warn[TK_ERR_LEN];
    tk_jpeg_error jerr;
    tk_jpeg_init_error(&jerr, err, warn, 0);
    if (data == NULL || size == 0) {
        tk_jpeg_copy(err, "Empty input file");
        return -1;
    }
    struct jpeg_decompress_struct cinfo;
    tk_jpeg_progress progress;
    cinfo.err = &jerr.pub;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    tk_jpeg_start(&cinfo, &progress, data, size);
    jvirt_barray_ptr *arrays = jpeg_read_coefficients(&cinfo);
    size_t n = 0;
    for (int c = 0; c < cinfo.num_components; c++) {
        jpeg_component_info *comp = &cinfo.comp_info[c];
        for (JDIMENSION y = 0; y < comp->height_in_blocks; y++) {
            JBLOCKARRAY row = (*cinfo.mem->access_virt_barray)((j_common_ptr)&cinfo, arrays[c], y, 1, FALSE);
            for (JDIMENSION x = 0; x < comp->width_in_blocks; x++, n++) {
                if (out != NULL && n < capacity) out[n] = row[0][x][0];
            }
        }
    }
    *warnings = jerr.warnings;
    jpeg_destroy_decompress(&cinfo);
    return (long)n;
}

// MARK: - Encode

// A growable malloc'd destination: unlike jpeg_mem_dest, its buffer can be freed on error.
typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *bytes;
    size_t capacity;
    size_t size;  // valid after term_destination
} tk_jpeg_dest;

static void tk_jpeg_dest_init(j_compress_ptr cinfo) {
    tk_jpeg_dest *d = (tk_jpeg_dest *)cinfo->dest;
    d->capacity = 16384;
    d->bytes = malloc(d->capacity);
    if (d->bytes == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    d->pub.next_output_byte = d->bytes;
    d->pub.free_in_buffer = d->capacity;
}

static boolean tk_jpeg_dest_empty(j_compress_ptr cinfo) {
    // Called when the whole buffer is full (libjpeg's contract for this callback).
    tk_jpeg_dest *d = (tk_jpeg_dest *)cinfo->dest;
    size_t used = d->capacity;
    if (d->capacity > SIZE_MAX / 2) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    uint8_t *grown = realloc(d->bytes, d->capacity * 2);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    d->bytes = grown;
    d->capacity *= 2;
    d->pub.next_output_byte = d->bytes + used;
    d->pub.free_in_buffer = d->capacity - used;
    return TRUE;
}

static void tk_jpeg_dest_term(j_compress_ptr cinfo) {
    tk_jpeg_dest *d = (tk_jpeg_dest *)cinfo->dest;
    d->size = d->capacity - d->pub.free_in_buffer;
}

int tk_jpeg_encode_color(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                         int cmyk, int quality, int subsampling_444, int progressive, int optimize,
                         const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                         char err[TK_ERR_LEN]) {
    char warn[TK_ERR_LEN];
    tk_jpeg_error jerr;
    tk_jpeg_init_error(&jerr, err, warn, 0);
    if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 ||
        (channels != 1 && channels != 3 && channels != 4) || quality < 1 || quality > 100 ||
        (cmyk && channels != 4) || (icc != NULL && (icc_size == 0 || icc_size > TK_ICC_MAX_BYTES))) {
        tk_jpeg_copy(err, "invalid JPEG encode arguments");
        return -1;
    }
    if (width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        snprintf(err, TK_ERR_LEN, "%ux%u exceeds the JPEG maximum of %ld pixels a side", width, height,
                 (long)JPEG_MAX_DIMENSION);
        return -1;
    }
    *out = NULL;
    *out_size = 0;
    struct jpeg_compress_struct cinfo;
    tk_jpeg_dest dest;
    memset(&dest, 0, sizeof(dest));
    cinfo.err = &jerr.pub;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(dest.bytes);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    dest.pub.init_destination = tk_jpeg_dest_init;
    dest.pub.empty_output_buffer = tk_jpeg_dest_empty;
    dest.pub.term_destination = tk_jpeg_dest_term;
    cinfo.dest = &dest.pub;

    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = channels;
    cinfo.in_color_space = cmyk ? JCS_CMYK : channels == 4 ? JCS_EXT_RGBX : channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);  // CMYK in: CMYK stored, with an Adobe marker
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (channels != 1 && !cmyk) {
        int h = subsampling_444 ? 1 : 2;
        cinfo.comp_info[0].h_samp_factor = h;
        cinfo.comp_info[0].v_samp_factor = h;
        for (int c = 1; c < 3; c++) {
            cinfo.comp_info[c].h_samp_factor = 1;
            cinfo.comp_info[c].v_samp_factor = 1;
        }
    }
    cinfo.optimize_coding = optimize ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (icc != NULL) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_size);
    size_t row_bytes = (size_t)width * (size_t)channels;
    while (cinfo.next_scanline < cinfo.image_height) {
        // libjpeg's row type is non-const but the compressor only reads it.
        JSAMPROW row = (JSAMPROW)(uintptr_t)(pixels + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = dest.bytes;
    *out_size = dest.size;
    return 0;
}
