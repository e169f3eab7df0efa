// SPDX-License-Identifier: Apache-2.0
// webp_shim.c: libwebp behind return-code functions (see CThumbKit.h). libwebp never longjmps;
// these shims exist to keep the library's structs, status codes and allocators out of Swift.
// No pixel logic: bytes move between libwebp and caller-owned memory.
#include "CThumbKit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

// Bytes handed to the incremental decoder between two deadline checks.
#define TK_WEBP_PIECE (64u * 1024u)

static void tk_webp_message(char err[TK_ERR_LEN], const char *msg) {
    if (err != NULL) snprintf(err, TK_ERR_LEN, "%s", msg);
}

static const char *tk_webp_status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "WebP decoder ran out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid WebP decoder parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "invalid WebP bitstream";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported WebP feature";
    case VP8_STATUS_SUSPENDED:
    case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated WebP file";
    case VP8_STATUS_USER_ABORT: return "WebP decode aborted";
    default: return "WebP decode failed";
    }
}

static int tk_webp_deadline_passed(uint64_t deadline_ns) {
    if (deadline_ns == 0) return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec >= deadline_ns;
}

static int tk_webp_copy_out(const uint8_t *bytes, size_t size, uint8_t **out, size_t *out_size) {
    *out = malloc(size > 0 ? size : 1);
    if (*out == NULL) return -1;
    memcpy(*out, bytes, size);
    *out_size = size;
    return 0;
}

int tk_webp_read_header(const uint8_t *data, size_t size, tk_webp_header *out, uint8_t **icc,
                        size_t *icc_size, char err[TK_ERR_LEN]) {
    if (icc != NULL) *icc = NULL;
    if (icc_size != NULL) *icc_size = 0;
    if (data == NULL || out == NULL) {
        tk_webp_message(err, "no WebP data");
        return -1;
    }
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, size, &features);
    if (status != VP8_STATUS_OK) {
        tk_webp_message(err, tk_webp_status_text(status));
        return -1;
    }
    WebPData whole = {data, size};
    WebPDemuxState state;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (demux == NULL || state != WEBP_DEMUX_DONE) {
        tk_webp_message(err, demux == NULL || state == WEBP_DEMUX_PARSE_ERROR ? "invalid WebP container"
                                                                             : "truncated WebP file");
        WebPDemuxDelete(demux);
        return -1;
    }
    uint32_t flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    out->width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    out->height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    out->frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    out->has_animation = features.has_animation || (flags & ANIMATION_FLAG) != 0;
    out->has_alpha = features.has_alpha || (flags & ALPHA_FLAG) != 0;
    out->lossless = features.format == 2 ? 1 : (features.format == 1 ? 0 : -1);
    if (icc != NULL && (flags & ICCP_FLAG) != 0) {
        WebPChunkIterator chunk;
        if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
            if (chunk.chunk.size <= TK_ICC_MAX_BYTES &&
                tk_webp_copy_out(chunk.chunk.bytes, chunk.chunk.size, icc, icc_size) != 0) {
                *icc = NULL;
            }
            WebPDemuxReleaseChunkIterator(&chunk);
        }
    }
    WebPDemuxDelete(demux);
    return 0;
}

// The first frame of an animation, composed on its canvas.
static int tk_webp_decode_first_frame(const uint8_t *data, size_t size, uint8_t *dst, size_t dst_size,
                                      char err[TK_ERR_LEN]) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        tk_webp_message(err, "libwebp version mismatch");
        return -1;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {data, size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (decoder == NULL) {
        tk_webp_message(err, "invalid animated WebP");
        return -1;
    }
    WebPAnimInfo info;
    int rc = -1;
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetInfo(decoder, &info) || (size_t)info.canvas_width * info.canvas_height * 4 != dst_size) {
        tk_webp_message(err, "animated WebP canvas does not match its header");
    } else if (!WebPAnimDecoderGetNext(decoder, &frame, &timestamp) || frame == NULL) {
        tk_webp_message(err, "invalid or truncated first frame in animated WebP");
    } else {
        memcpy(dst, frame, dst_size);
        rc = 0;
    }
    WebPAnimDecoderDelete(decoder);
    return rc;
}

int tk_webp_decode_rgba8(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int animated,
                         uint8_t *dst, size_t dst_size, uint64_t deadline_ns, char err[TK_ERR_LEN]) {
    if (data == NULL || dst == NULL) {
        tk_webp_message(err, "no WebP data");
        return -1;
    }
    if (tk_webp_deadline_passed(deadline_ns)) {
        tk_webp_message(err, "time limit exceeded");
        return -1;
    }
    if (animated) {
        int rc = tk_webp_decode_first_frame(data, size, dst, dst_size, err);
        if (rc == 0 && tk_webp_deadline_passed(deadline_ns)) {
            tk_webp_message(err, "time limit exceeded");
            return -1;
        }
        return rc;
    }
    size_t stride = (size_t)width * 4;
    if (stride * (size_t)height != dst_size) {
        tk_webp_message(err, "WebP image size does not match its header");
        return -1;
    }
    WebPIDecoder *decoder = WebPINewRGB(MODE_RGBA, dst, dst_size, (int)stride);
    if (decoder == NULL) {
        tk_webp_message(err, "WebP decoder ran out of memory");
        return -1;
    }
    size_t fed = 0;
    VP8StatusCode status = VP8_STATUS_SUSPENDED;
    while (status == VP8_STATUS_SUSPENDED && fed < size) {
        if (tk_webp_deadline_passed(deadline_ns)) {
            WebPIDelete(decoder);
            tk_webp_message(err, "time limit exceeded");
            return -1;
        }
        fed = size - fed > TK_WEBP_PIECE ? fed + TK_WEBP_PIECE : size;
        status = WebPIUpdate(decoder, data, fed);  // the whole buffer so far: no copy
    }
    WebPIDelete(decoder);
    if (status != VP8_STATUS_OK) {
        tk_webp_message(err, tk_webp_status_text(status));
        return -1;
    }
    return 0;
}

static const char *tk_webp_encode_text(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "WebP encoder ran out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "image size is not possible in WebP (at most 16383 px a side)";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "WebP output would exceed 4 GiB";
    default: return "WebP encode failed";
    }
}

int tk_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int lossless,
                   int method, const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                   char err[TK_ERR_LEN]) {
    *out = NULL;
    *out_size = 0;
    WebPConfig config;
    if (!WebPConfigInit(&config)) {
        tk_webp_message(err, "libwebp version mismatch");
        return -1;
    }
    config.lossless = lossless ? 1 : 0;
    config.quality = (float)quality;
    config.method = method;
    if (!WebPValidateConfig(&config)) {
        tk_webp_message(err, "invalid WebP encoder settings");
        return -1;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        tk_webp_message(err, "libwebp version mismatch");
        return -1;
    }
    picture.use_argb = 1;
    picture.width = (int)width;
    picture.height = (int)height;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        tk_webp_message(err, tk_webp_encode_text(VP8_ENC_ERROR_BAD_DIMENSION));
        return -1;
    }
    if (!WebPPictureImportRGBA(&picture, rgba, (int)(width * 4))) {
        WebPPictureFree(&picture);
        tk_webp_message(err, "WebP encoder ran out of memory");
        return -1;
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int ok = WebPEncode(&config, &picture);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        tk_webp_message(err, tk_webp_encode_text(code));
        return -1;
    }
    int rc = 0;
    if (icc == NULL) {
        rc = tk_webp_copy_out(writer.mem, writer.size, out, out_size);
    } else {
        WebPMux *mux = WebPMuxNew();
        WebPData image = {writer.mem, writer.size};
        WebPData profile = {icc, icc_size};
        WebPData assembled = {NULL, 0};
        if (mux == NULL || WebPMuxSetImage(mux, &image, 0) != WEBP_MUX_OK ||
            WebPMuxSetChunk(mux, "ICCP", &profile, 0) != WEBP_MUX_OK ||
            WebPMuxAssemble(mux, &assembled) != WEBP_MUX_OK) {
            rc = -1;
        } else {
            rc = tk_webp_copy_out(assembled.bytes, assembled.size, out, out_size);
        }
        WebPDataClear(&assembled);
        WebPMuxDelete(mux);
    }
    WebPMemoryWriterClear(&writer);
    if (rc != 0) tk_webp_message(err, "WebP encoder ran out of memory");
    return rc;
}
