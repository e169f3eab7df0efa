// SPDX-License-Identifier: Apache-2.0
// heif_shim.c: libheif (HEIC and AVIF) behind return-code functions (see CThumbKit.h). libheif
// reports errors as values; these shims keep its handles, options structs and allocators out of
// Swift. No pixel logic: rows are copied between libheif's planes and caller-owned memory.
//
// Orientation: libheif applies a file's irot/imir (and clap) transforms while decoding unless
// heif_decoding_options.ignore_transformations is set, and reports the transformed size from
// heif_image_handle_get_width/height. HEIF (ISO/IEC 23008-12) says the Exif orientation must be
// ignored in favour of those properties, so the caller must not apply it on top.
#include "CThumbKit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dynamic_library.h>

#include <libheif/heif.h>

#if LIBHEIF_NUMERIC_VERSION < 0x010F0000 || LIBHEIF_NUMERIC_VERSION >= 0x02000000
#error "heif_shim.c loads libheif.so.1 and calls entry points of libheif 1.15 or later"
#endif

// Every libheif entry point this shim calls, loaded at the first HEIF file (dynamic_library.h).
#define TK_HEIF_ENTRY_POINTS(X) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_number_of_top_level_images) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_max_decoding_threads) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_integer) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_thumbnails) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_image_set_raw_color_profile) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free) \
    /* end */

TK_DL_LOADER(tk_heif_loader, "libheif.so.1", TK_HEIF_ENTRY_POINTS)

// libheif's entry points: every public function below calls tk_heif_ready first, and the table
// is only read after it succeeded (pthread_once orders the load before every read).
#define HEIF tk_heif_loader_table

// Loads libheif at the first call; 0 when its entry points are ready, else -1 with the reason.
static int tk_heif_ready(char err[TK_ERR_LEN]) { return tk_heif_loader_get(err, TK_ERR_LEN) != NULL ? 0 : -1; }

int tk_heif_probe_library(const char *soname, char err[TK_ERR_LEN]) {
    return tk_heif_loader_probe(soname, err, TK_ERR_LEN);
}

// Largest Exif block copied out (it is only read for its orientation tag).
#define TK_HEIF_EXIF_MAX_BYTES (1024u * 1024u)

static void tk_heif_message(char err[TK_ERR_LEN], const char *msg) {
    if (err != NULL) snprintf(err, TK_ERR_LEN, "%s", msg != NULL && msg[0] != 0 ? msg : "HEIF decode failed");
}

static int tk_heif_failed(struct heif_error e, char err[TK_ERR_LEN]) {
    if (e.code == heif_error_Ok) return 0;
    tk_heif_message(err, e.message);
    return 1;
}

static void tk_heif_close(struct heif_context *ctx, struct heif_image_handle *handle);

static int tk_heif_deadline_passed(uint64_t deadline_ns) {
    if (deadline_ns == 0) return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec >= deadline_ns;
}

// A context over `data` (not copied: it must outlive the context) and its primary image, or,
// with `thumbnail` >= 0, that thumbnail ('thmb' item) of the primary image.
static int tk_heif_open(const uint8_t *data, size_t size, int max_dimension, int thumbnail,
                        struct heif_context **ctx, struct heif_image_handle **handle, char err[TK_ERR_LEN]) {
    *handle = NULL;
    *ctx = HEIF.heif_context_alloc();
    if (*ctx == NULL) {
        tk_heif_message(err, "HEIF decoder ran out of memory");
        return -1;
    }
    if (max_dimension > 0) HEIF.heif_context_set_maximum_image_size_limit(*ctx, max_dimension);
    if (tk_heif_failed(HEIF.heif_context_read_from_memory_without_copy(*ctx, data, size, NULL), err) ||
        tk_heif_failed(HEIF.heif_context_get_primary_image_handle(*ctx, handle), err)) {
        HEIF.heif_context_free(*ctx);
        *ctx = NULL;
        *handle = NULL;
        return -1;
    }
    if (thumbnail >= 0) {
        heif_item_id ids[TK_HEIF_MAX_THUMBNAILS];
        int count = HEIF.heif_image_handle_get_list_of_thumbnail_IDs(*handle, ids, TK_HEIF_MAX_THUMBNAILS);
        struct heif_image_handle *thumb = NULL;
        if (thumbnail >= count) {
            tk_heif_message(err, "no such HEIF thumbnail");
        } else if (!tk_heif_failed(HEIF.heif_image_handle_get_thumbnail(*handle, ids[thumbnail], &thumb), err)) {
            HEIF.heif_image_handle_release(*handle);
            *handle = thumb;
            return 0;
        }
        tk_heif_close(*ctx, *handle);
        *ctx = NULL;
        *handle = NULL;
        return -1;
    }
    return 0;
}

static void tk_heif_close(struct heif_context *ctx, struct heif_image_handle *handle) {
    if (handle != NULL) HEIF.heif_image_handle_release(handle);
    if (ctx != NULL) HEIF.heif_context_free(ctx);
}

int tk_heif_read_header(const uint8_t *data, size_t size, int max_dimension, int thumbnail, tk_heif_header *out,
                        uint8_t **icc, size_t *icc_size, uint8_t **exif, size_t *exif_size,
                        char err[TK_ERR_LEN]) {
    if (icc != NULL) *icc = NULL;
    if (icc_size != NULL) *icc_size = 0;
    if (exif != NULL) *exif = NULL;
    if (exif_size != NULL) *exif_size = 0;
    if (tk_heif_ready(err) != 0) return -1;
    if (data == NULL || out == NULL || size > (size_t)INT32_MAX) {
        tk_heif_message(err, "no HEIF data");
        return -1;
    }
    struct heif_context *ctx;
    struct heif_image_handle *handle;
    if (tk_heif_open(data, size, max_dimension, thumbnail, &ctx, &handle, err) != 0) return -1;
    out->width = (uint32_t)HEIF.heif_image_handle_get_width(handle);
    out->height = (uint32_t)HEIF.heif_image_handle_get_height(handle);
    out->has_alpha = HEIF.heif_image_handle_has_alpha_channel(handle);
    out->bit_depth = HEIF.heif_image_handle_get_luma_bits_per_pixel(handle);
    out->image_count = HEIF.heif_context_get_number_of_top_level_images(ctx);
    out->thumbnail_count = thumbnail >= 0 ? 0 : HEIF.heif_image_handle_get_number_of_thumbnails(handle);
    if (out->thumbnail_count > TK_HEIF_MAX_THUMBNAILS) out->thumbnail_count = TK_HEIF_MAX_THUMBNAILS;
    enum heif_color_profile_type type = HEIF.heif_image_handle_get_color_profile_type(handle);
    out->has_icc = type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC;
    out->nclx_primaries = 0;
    out->nclx_transfer = 0;
    struct heif_color_profile_nclx *nclx = NULL;
    // libheif 1.15 may hand back a profile with an error (an nclx box with a bad value, found
    // by fuzzing as a 52-byte leak): read it only on success, free it either way.
    int nclx_ok = HEIF.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok;
    if (nclx != NULL) {
        if (nclx_ok) {
            out->nclx_primaries = (int)nclx->color_primaries;
            out->nclx_transfer = (int)nclx->transfer_characteristics;
        }
        HEIF.heif_nclx_color_profile_free(nclx);
    }
    if (icc != NULL && out->has_icc) {
        size_t n = HEIF.heif_image_handle_get_raw_color_profile_size(handle);
        if (n > 0 && n <= TK_ICC_MAX_BYTES && (*icc = malloc(n)) != NULL) {
            if (HEIF.heif_image_handle_get_raw_color_profile(handle, *icc).code == heif_error_Ok) {
                *icc_size = n;
            } else {
                free(*icc);
                *icc = NULL;
            }
        }
    }
    heif_item_id id;
    if (exif != NULL && HEIF.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1) {
        size_t n = HEIF.heif_image_handle_get_metadata_size(handle, id);
        if (n > 0 && n <= TK_HEIF_EXIF_MAX_BYTES && (*exif = malloc(n)) != NULL) {
            if (HEIF.heif_image_handle_get_metadata(handle, id, *exif).code == heif_error_Ok) {
                *exif_size = n;
            } else {
                free(*exif);
                *exif = NULL;
            }
        }
    }
    tk_heif_close(ctx, handle);
    return 0;
}

int tk_heif_decode_rgba8(const uint8_t *data, size_t size, int max_dimension, int thumbnail, int threads, uint8_t *dst,
                         size_t dst_size, uint64_t deadline_ns, char err[TK_ERR_LEN]) {
    if (tk_heif_ready(err) != 0) return -1;
    if (data == NULL || size > (size_t)INT32_MAX) {
        tk_heif_message(err, "no HEIF data");
        return -1;
    }
    struct heif_context *ctx;
    struct heif_image_handle *handle;
    if (tk_heif_open(data, size, max_dimension, thumbnail, &ctx, &handle, err) != 0) return -1;
    if (threads >= 0) HEIF.heif_context_set_max_decoding_threads(ctx, threads);
    if (tk_heif_deadline_passed(deadline_ns)) {
        tk_heif_close(ctx, handle);
        tk_heif_message(err, "time limit exceeded");
        return -1;
    }
    struct heif_decoding_options *options = HEIF.heif_decoding_options_alloc();
    if (options == NULL) {
        tk_heif_close(ctx, handle);
        tk_heif_message(err, "HEIF decoder ran out of memory");
        return -1;
    }
    options->convert_hdr_to_8bit = 1;  // 10/12-bit to 8; transformations stay on (the default)
    struct heif_image *image = NULL;
    struct heif_error e =
        HEIF.heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    HEIF.heif_decoding_options_free(options);
    int rc = -1;
    if (!tk_heif_failed(e, err)) {
        int stride = 0;
        const uint8_t *plane = HEIF.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        int w = HEIF.heif_image_get_width(image, heif_channel_interleaved);
        int h = HEIF.heif_image_get_height(image, heif_channel_interleaved);
        if (plane == NULL || w <= 0 || h <= 0 || (size_t)w * (size_t)h * 4 != dst_size || stride < w * 4) {
            tk_heif_message(err, "decoded HEIF image does not match its header");
        } else if (tk_heif_deadline_passed(deadline_ns)) {
            tk_heif_message(err, "time limit exceeded");
        } else {
            for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * w * 4, plane + (size_t)y * stride, (size_t)w * 4);
            rc = 0;
        }
    }
    if (image != NULL) HEIF.heif_image_release(image);
    tk_heif_close(ctx, handle);
    return rc;
}

typedef struct {
    uint8_t *bytes;
    size_t size;
} tk_heif_output;

static struct heif_error tk_heif_write(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx;
    tk_heif_output *out = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    struct heif_error fail = {heif_error_Memory_allocation_error, heif_suberror_Unspecified,
                              "AVIF encoder ran out of memory"};
    out->bytes = malloc(size > 0 ? size : 1);
    if (out->bytes == NULL) return fail;
    memcpy(out->bytes, data, size);
    out->size = size;
    return ok;
}

int tk_heif_encode_avif(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, int quality,
                        int speed, int threads, const uint8_t *icc, size_t icc_size, uint8_t **out,
                        size_t *out_size, char err[TK_ERR_LEN]) {
    *out = NULL;
    *out_size = 0;
    if (channels != 3 && channels != 4) {
        tk_heif_message(err, "AVIF encoder takes 3 or 4 channels");
        return -1;
    }
    if (tk_heif_ready(err) != 0) return -1;
    struct heif_context *ctx = HEIF.heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_encoding_options *options = NULL;
    struct heif_color_profile_nclx *nclx = NULL;
    tk_heif_output written = {NULL, 0};
    int rc = -1;
    if (ctx == NULL) {
        tk_heif_message(err, "AVIF encoder ran out of memory");
        return -1;
    }
    if (tk_heif_failed(HEIF.heif_context_get_encoder_for_format(ctx, heif_compression_AV1, &encoder), err) ||
        tk_heif_failed(HEIF.heif_encoder_set_lossy_quality(encoder, quality), err) ||
        tk_heif_failed(HEIF.heif_encoder_set_parameter_integer(encoder, "speed", speed), err) ||
        (threads > 0 && tk_heif_failed(HEIF.heif_encoder_set_parameter_integer(encoder, "threads", threads), err)) ||
        tk_heif_failed(HEIF.heif_image_create((int)width, (int)height, heif_colorspace_RGB,
                                         channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                         &image),
                       err) ||
        tk_heif_failed(HEIF.heif_image_add_plane(image, heif_channel_interleaved, (int)width, (int)height, 8), err)) {
        goto done;
    }
    int stride = 0;
    uint8_t *plane = HEIF.heif_image_get_plane(image, heif_channel_interleaved, &stride);
    size_t row = (size_t)width * (size_t)channels;
    if (plane == NULL || (size_t)stride < row) {
        tk_heif_message(err, "AVIF encoder ran out of memory");
        goto done;
    }
    for (uint32_t y = 0; y < height; y++) memcpy(plane + (size_t)y * stride, pixels + (size_t)y * row, row);
    if (icc != NULL) {
        if (tk_heif_failed(HEIF.heif_image_set_raw_color_profile(image, "prof", icc, icc_size), err)) goto done;
    } else {
        nclx = HEIF.heif_nclx_color_profile_alloc();
        if (nclx == NULL) {
            tk_heif_message(err, "AVIF encoder ran out of memory");
            goto done;
        }
        nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
        nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
        nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
        nclx->full_range_flag = 1;
        if (tk_heif_failed(HEIF.heif_image_set_nclx_color_profile(image, nclx), err)) goto done;
    }
    options = HEIF.heif_encoding_options_alloc();
    if (options == NULL) {
        tk_heif_message(err, "AVIF encoder ran out of memory");
        goto done;
    }
    options->save_alpha_channel = channels == 4;
    struct heif_writer writer = {.writer_api_version = 1, .write = tk_heif_write};
    if (tk_heif_failed(HEIF.heif_context_encode_image(ctx, image, encoder, options, NULL), err) ||
        tk_heif_failed(HEIF.heif_context_write(ctx, &writer, &written), err)) {
        free(written.bytes);
        goto done;
    }
    *out = written.bytes;
    *out_size = written.size;
    rc = 0;
done:
    if (nclx != NULL) HEIF.heif_nclx_color_profile_free(nclx);
    if (options != NULL) HEIF.heif_encoding_options_free(options);
    if (image != NULL) HEIF.heif_image_release(image);
    if (encoder != NULL) HEIF.heif_encoder_release(encoder);
    HEIF.heif_context_free(ctx);
    return rc;
}
