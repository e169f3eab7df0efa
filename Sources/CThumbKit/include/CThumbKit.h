// SPDX-License-Identifier: Apache-2.0
// CThumbKit: thin C shims over libpng and libjpeg-turbo.
//
// Why these shims exist: both libraries report fatal errors by longjmp-ing out of a callback,
// and Swift can neither call setjmp nor survive a longjmp through its frames. Every function
// here sets up its own jump buffer, calls the library, and returns 0 on success or -1 on
// failure with a human-readable reason in the caller-owned `err` buffer (TK_ERR_LEN bytes,
// always NUL-terminated). No pixel logic lives here: the shims only move bytes between the
// libraries and caller-owned memory. Everything else is Swift.
#ifndef CTHUMBKIT_H
#define CTHUMBKIT_H

#include <stddef.h>
#include <stdint.h>

#define TK_ERR_LEN 256

// MARK: - PNG

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;      // 1, 2, 4, 8, 16
    int color_type;     // PNG colour type: 0 gray, 2 rgb, 3 palette, 4 gray+alpha, 6 rgba
    int interlaced;     // 1 for Adam7
    int has_alpha;      // alpha channel or tRNS chunk
    int has_iccp;       // iCCP chunk present before IDAT
} tk_png_header;

/// Reads the PNG header (everything before the first IDAT) from memory. Ancillary chunks other
/// than tRNS and iCCP are skipped unread, so a chunk that declares a huge length costs nothing.
int tk_png_read_header(const uint8_t *data, size_t size, tk_png_header *out, char err[TK_ERR_LEN]);

// MARK: - PNG colour (colour management; see Sources/ThumbKit/Color)

/// The colour chunks of a PNG, as libpng accepted them (an invalid gAMA or cHRM is dropped by
/// libpng with a benign error, exactly as the decoder drops it). Fixed-point values are x100000.
typedef struct {
    int has_srgb;         // sRGB chunk present
    int srgb_intent;      // its rendering intent (0...3)
    int has_gamma;        // gAMA present (or implied by sRGB)
    uint32_t gamma;       // file gamma x100000 (45455 for 1/2.2)
    int has_chrm;         // cHRM present
    uint32_t chrm[8];     // white x, y, red x, y, green x, y, blue x, y, each x100000
} tk_png_color;

/// Largest embedded ICC profile read or written (a PNG iCCP or a JPEG's APP2 chunks together).
#define TK_ICC_MAX_BYTES (4u * 1024u * 1024u)

/// Reads the colour chunks of a PNG (before the first IDAT) and, when there is an iCCP chunk,
/// its decompressed profile: *icc is then a malloc'd buffer of *icc_size bytes the caller frees
/// with tk_free (NULL and 0 when there is none, or when it exceeds TK_ICC_MAX_BYTES).
int tk_png_read_color(const uint8_t *data, size_t size, tk_png_color *out, uint8_t **icc,
                      size_t *icc_size, char err[TK_ERR_LEN]);

// MARK: - PNG encoding and text chunks (tEXt; the freedesktop.org thumbnail cache)

/// One uncompressed text chunk: a Latin-1 keyword (1 to 79 bytes) and its value bytes.
typedef struct {
    const char *key;
    const char *value;    // value_length bytes (NUL-terminated when read)
    size_t value_length;
} tk_png_text;

/// Encodes RGBA8 (straight alpha) or RGB8 pixels to PNG in memory. `channels` is 3 or 4;
/// `compression_level` 0...9. When `fast` is non-zero every row gets the Paeth filter (no
/// per-row trial of all five) and zlib its run-length strategy (Z_RLE) instead of the level's
/// string matching. Colour chunks: an sRGB chunk when color->has_srgb, gAMA and cHRM when set,
/// and an iCCP chunk when `icc` is not NULL. `color` may be NULL (no colour chunks). `text_count`
/// tEXt chunks from `text` (NULL when 0) are written before the image data. On success *out is
/// a malloc'd buffer the caller frees with tk_free.
int tk_png_encode_text(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                       int compression_level, int fast, const tk_png_color *color,
                       const uint8_t *icc, size_t icc_size, const tk_png_text *text,
                       size_t text_count, uint8_t **out, size_t *out_size, char err[TK_ERR_LEN]);

/// Reads the tEXt chunks before the first IDAT without decoding pixels (zTXt and iTXt are
/// skipped). On success *out is one malloc'd block of *count entries (NULL and 0 when there are
/// none) that the caller frees with a single tk_free.
int tk_png_read_text(const uint8_t *data, size_t size, tk_png_text **out, size_t *count,
                     char err[TK_ERR_LEN]);

// MARK: - PNG, row by row (png_rows.c)

/// A PNG being decoded one RGBA8 row at a time: 8-bit sRGB-encoded RGBA with straight alpha,
/// exactly libpng's own rendering (the simplified API's PNG_FORMAT_RGBA: gAMA applied, 16-bit
/// reduced, palettes and tRNS expanded).
typedef struct tk_png_rows tk_png_rows;

/// Reads the header and sets up the transforms. Returns NULL with `err` on failure. `warn`
/// receives a header warning, which is fatal with `fail_on_warning`. `deadline_ns` is a
/// CLOCK_MONOTONIC time in nanoseconds (0: none), checked each time libpng asks for more input
/// (every 8 KB or so of compressed data); past it a read fails with "time limit exceeded".
/// `passes` is 1, or 7 for an interlaced file: then `height` rows are read per pass, each pass
/// into the same whole-image buffer. The reader reads `data` in place and keeps the pointer:
/// the bytes must stay valid and unmoved until tk_png_rows_finish (a Swift array passed as a
/// temporary pointer is not). Every non-NULL result must be passed to tk_png_rows_finish.
tk_png_rows *tk_png_rows_begin(const uint8_t *data, size_t size, int fail_on_warning, uint64_t deadline_ns,
                               uint32_t *width, uint32_t *height, int *passes, char warn[TK_ERR_LEN],
                               char err[TK_ERR_LEN]);

/// Decodes the next row (of the current pass), top-down, into `dst` (exactly width*4 bytes).
/// After a failure no further row can be read, and tk_png_rows_finish fails with the same message.
int tk_png_rows_next(tk_png_rows *rows, uint8_t *dst, size_t dst_size, char err[TK_ERR_LEN]);

/// For the PNG fast path (libdeflate and ThumbKit's own unfiltering): the bytes a pixel of a
/// file that libpng would only widen to RGBA8 (8-bit gray, gray+alpha, RGB or RGBA, not
/// interlaced, no tRNS, no gamma correction): 1 to 4; 0 for every other file.
int tk_png_rows_plain_channels(const tk_png_rows *rows);

/// Frees a decoder whose rows were read elsewhere (the fast path), checking nothing.
void tk_png_rows_release(tk_png_rows *rows);

/// Frees the decoder. `warn` receives the first libpng warning (empty if none). Fails when
/// rows were left unread or, with `fail_on_warning`, when there was a warning.
int tk_png_rows_finish(tk_png_rows *rows, char warn[TK_ERR_LEN], char err[TK_ERR_LEN]);

// MARK: - JPEG

typedef struct {
    uint32_t width;
    uint32_t height;
    int components;        // 1, 3 or 4
    int color_space;       // libjpeg J_COLOR_SPACE of the file (1 gray, 2 rgb, 3 ycbcr, 4 cmyk, 5 ycck)
    int progressive;       // 1 for SOF2 / SOF10
    int arithmetic;        // 1 for arithmetic coding
    int data_precision;    // 8 (12-bit files fail in read_header on Debian's 8-bit build)
    int saw_adobe_marker;  // APP14 "Adobe" present
    int adobe_transform;   // its transform flag (0 none/CMYK, 1 YCbCr, 2 YCCK)
    int header_warnings;   // libjpeg warnings while reading the header (e.g. an unknown JFIF revision)
} tk_jpeg_header;

/// The most scans a progressive JPEG may have: the decoders fail past it ("progressive JPEG has
/// more than 1000 scans"). A corrupt file can hold thousands of tiny scans, each of which walks the
/// whole coefficient buffer; real encoders write about 10, and libjpeg-turbo 2.1 has no limit of
/// its own. The one definition: the Swift progressive DC path reads it from here.
#define TK_JPEG_MAX_SCANS 1000

/// The most work a multi-scan JPEG may cost while libjpeg reads its scans, in passes: block
/// visits (each scan visits every block of its components) over the image's blocks. Real
/// progressive files take 4-6 (libjpeg's and Pillow's scripts; the shared corpus's largest is
/// 6), so 16 leaves room for any sane encoder; a 51 KB file of 883 scans would otherwise cost
/// 883 passes (5 s at 12 MP, whatever the scale). Past it the decode fails ("progressive JPEG
/// needs more than 16 passes over its blocks"). The one definition: Swift reads it from here.
#define TK_JPEG_MAX_SCAN_PASSES 16

/// The work a multi-scan JPEG may still cost after its entropy data has proved corrupt (the
/// first "bad Huffman code", "inconsistent progression" or "must resync" warning), in passes as
/// above: as much as a whole valid file (libjpeg's standard scripts take 4.7-6), so a damaged
/// file that libjpeg can still make something of decodes with its warning as before, while a
/// corrupt file of hundreds of scans costs at most about twice a valid one instead of up to the
/// whole cap. Past it the decode fails ("corrupt JPEG data: …, and more than 6 passes of scans
/// after it"). A truncated file is not affected: its data ends where its warning is.
#define TK_JPEG_MAX_PASSES_AFTER_CORRUPTION 6

/// Reads the JPEG header (markers up to the first SOS) from memory.
int tk_jpeg_read_header(const uint8_t *data, size_t size, tk_jpeg_header *out, char err[TK_ERR_LEN]);

/// Encodes packed pixels (RGBA8 with the alpha byte ignored when `channels` is 4, RGB8 when 3,
/// gray when 1) to a baseline or progressive JPEG in memory. `subsampling_444` 1 keeps full
/// chroma, 0 uses 4:2:0. `optimize` 1 builds optimal Huffman tables. `cmyk` 1 takes 4-byte CMYK
/// pixels (stored as given, with an Adobe APP14 marker, so pass Adobe's inverted values) instead
/// of RGBX; `icc` (when not NULL) is embedded as APP2 ICC_PROFILE markers, split as the ICC
/// specification says. No other metadata is written. On success *out is a malloc'd buffer the
/// caller frees with tk_free.
int tk_jpeg_encode_color(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                         int cmyk, int quality, int subsampling_444, int progressive, int optimize,
                         const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                         char err[TK_ERR_LEN]);

/// Test accessor: the quantised DC coefficient of every block libjpeg's jpeg_read_coefficients
/// reads, component after component, each `width_in_blocks` x `height_in_blocks` row-major.
/// Writes at most `capacity` values; returns how many there are (may exceed `capacity`), or -1
/// with `err` on failure. `*warnings` gets libjpeg's warning count.
long tk_jpeg_dc_coefficients(const uint8_t *data, size_t size, int16_t *out, size_t capacity, int *warnings,
                             char err[TK_ERR_LEN]);

// MARK: - JPEG, row by row (jpeg_rows.c)

/// A JPEG being decoded one output row at a time.
typedef struct tk_jpeg_rows tk_jpeg_rows;

/// Starts decoding a JPEG at DCT scale `scale_num`/8 (1...8) and reports the output size,
/// ceil(width*scale_num/8) x ceil(height*scale_num/8). Gray, RGB and YCbCr files come out as
/// RGBA8 (alpha 255); CMYK and YCCK files come out as 4-byte CMYK exactly as stored (Adobe files
/// inverted), and the caller converts. `block_smoothing` 0 disables libjpeg's progressive block
/// smoothing; `fail_on_warning` makes the first warning fatal. `deadline_ns` is a
/// CLOCK_MONOTONIC time in nanoseconds (0: none), checked by libjpeg's progress monitor (every
/// output row, and every iMCU row while a multi-scan file is read) in this and every later
/// call; past it the call fails with "time limit exceeded". Guards: more than
/// TK_JPEG_MAX_SCANS scans or TK_JPEG_MAX_SCAN_PASSES passes fail, and libjpeg may use at
/// most 2 GiB. The block visits made while reading the scans go to *block_visits (may be NULL),
/// on failure too: what the decode cost, for tests that bound it by counting work.
/// The decoder reads `data` in place and keeps the pointer: the bytes must stay valid and
/// unmoved until tk_jpeg_rows_finish. Returns NULL with `err` (and `warn`) on failure. Every
/// non-NULL result must be passed to tk_jpeg_rows_finish. A whole-image decode is the caller's
/// loop over tk_jpeg_rows_next.
tk_jpeg_rows *tk_jpeg_rows_begin(const uint8_t *data, size_t size, int scale_num, int block_smoothing,
                                 int fail_on_warning, uint64_t deadline_ns, uint32_t *out_width,
                                 uint32_t *out_height, uint64_t *block_visits, char warn[TK_ERR_LEN],
                                 char err[TK_ERR_LEN]);

/// Decodes the next row, top-down, into `dst` (exactly out_width*4 bytes: RGBA, or CMYK for
/// CMYK/YCCK files). After a failure no further row can be read.
int tk_jpeg_rows_next(tk_jpeg_rows *rows, uint8_t *dst, size_t dst_size, char err[TK_ERR_LEN]);

/// Reads on to EOI (unless rows were left unread, which fails) and frees the decoder. The
/// number of warnings goes to *warnings and the first one's text to `warn`.
int tk_jpeg_rows_finish(tk_jpeg_rows *rows, int *warnings, char warn[TK_ERR_LEN], char err[TK_ERR_LEN]);

// MARK: - WebP (webp_shim.c, libwebp + libwebpdemux + libwebpmux)

typedef struct {
    uint32_t width;       // canvas width (the first frame of an animation is canvas-sized)
    uint32_t height;
    int has_alpha;        // alpha in any frame
    int has_animation;    // ANIM chunk / animation flag
    uint32_t frame_count; // 1 for a still image
    int lossless;         // 1 VP8L, 0 VP8, -1 mixed or undefined (animations)
} tk_webp_header;

/// Reads a WebP's header through WebPGetFeatures and WebPDemux (no pixels). When `icc` is not
/// NULL and the file has an ICCP chunk, *icc is a malloc'd copy (free with tk_free) of
/// *icc_size bytes; NULL and 0 otherwise (and when it exceeds TK_ICC_MAX_BYTES).
int tk_webp_read_header(const uint8_t *data, size_t size, tk_webp_header *out, uint8_t **icc,
                        size_t *icc_size, char err[TK_ERR_LEN]);

/// Decodes a WebP to RGBA8 with straight alpha into `dst` (exactly width*height*4 bytes, rows
/// top-down). `width`, `height` and `animated` are tk_webp_read_header's `width`, `height` and
/// `has_animation` for the same bytes: they are not read again here. A still image goes through
/// libwebp's incremental decoder, fed 64 KB at a time with `deadline_ns` (CLOCK_MONOTONIC ns, 0:
/// none) checked between pieces; an animation gives its first frame, composed on the canvas by
/// WebPAnimDecoder (one call: the deadline is checked before and after it). Either decoder
/// parses the RIFF container itself (libwebp takes no parsed header).
int tk_webp_decode_rgba8(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int animated,
                         uint8_t *dst, size_t dst_size, uint64_t deadline_ns, char err[TK_ERR_LEN]);

/// Encodes RGBA8 (straight alpha) to WebP: lossy at `quality` 0...100 with alpha kept
/// (`lossless` 0), or lossless (`lossless` 1; `quality` is then the effort). `method` 0...6.
/// `icc` (when not NULL) is embedded as an ICCP chunk. *out is malloc'd; free with tk_free.
int tk_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int lossless,
                   int method, const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                   char err[TK_ERR_LEN]);

// MARK: - HEIF / AVIF (heif_shim.c, libheif)
//
// libheif is loaded at the first call of any of these (dynamic_library.h), not at start-up; when
// it cannot be loaded, or lacks an entry point, every call fails with that reason in `err`.

/// Loads the library `soname` as libheif's entry-point table would be loaded, then unloads it:
/// 0 when every entry point the shim calls is there, else -1 naming the first one missing. For
/// tests of the check made at load; the shim itself always loads libheif.so.1.
int tk_heif_probe_library(const char *soname, char err[TK_ERR_LEN]);

typedef struct {
    uint32_t width;       // of the primary image as displayed: libheif applies irot/imir/clap
    uint32_t height;
    int has_alpha;
    int bit_depth;        // luma bits per pixel (8, 10, 12)
    int image_count;      // top-level images
    int has_icc;          // a 'prof'/'rICC' colour profile (an nclx one is not ICC)
    int nclx_primaries;   // an nclx profile's colour_primaries (H.273; 1 BT.709), 0 without nclx
    int nclx_transfer;    // its transfer_characteristics (13 sRGB), 0 without nclx
    int thumbnail_count;  // the primary image's 'thmb' items (at most TK_HEIF_MAX_THUMBNAILS; 0 for a thumbnail)
} tk_heif_header;

/// The most thumbnails of one image that the shim lists.
#define TK_HEIF_MAX_THUMBNAILS 8

/// Reads the primary image's header from memory with libheif (no pixels are decoded). When `icc`
/// is not NULL the raw ICC profile is copied as for tk_webp_read_header; when `exif` is not
/// NULL the primary image's first Exif block is copied the same way, exactly as stored (a
/// 4-byte big-endian offset, then the TIFF data).
/// `max_dimension` is handed to heif_context_set_maximum_image_size_limit. `thumbnail` -1 reads
/// the primary image; 0...thumbnail_count-1 reads that thumbnail of it instead.
int tk_heif_read_header(const uint8_t *data, size_t size, int max_dimension, int thumbnail, tk_heif_header *out,
                        uint8_t **icc, size_t *icc_size, uint8_t **exif, size_t *exif_size,
                        char err[TK_ERR_LEN]);

/// Decodes the primary image to interleaved RGBA8 (straight alpha; 10/12-bit reduced to 8 by
/// libheif) into `dst` (exactly width*height*4 bytes), with libheif's default transforms
/// (irot, imir, clap) applied. heif_decode_image is one uninterruptible call: the deadline
/// (CLOCK_MONOTONIC ns, 0: none) is checked before and after it. `threads` caps libheif's own
/// tile threads. `thumbnail` -1 decodes the primary image, 0... that thumbnail of it.
int tk_heif_decode_rgba8(const uint8_t *data, size_t size, int max_dimension, int thumbnail, int threads, uint8_t *dst,
                         size_t dst_size, uint64_t deadline_ns, char err[TK_ERR_LEN]);

/// Encodes packed RGB8 (`channels` 3) or RGBA8 with straight alpha (`channels` 4, alpha kept) to
/// AVIF with libheif's AV1 encoder (aom): `quality` 0...100, `speed` 0...9 (aom cpu-used),
/// `threads` for aom (0: its default). With `icc` the profile is
/// written as a 'prof' colr box; without, an nclx box says sRGB (BT.709 primaries, sRGB
/// transfer, BT.601 matrix, full range). *out is malloc'd; free with tk_free.
int tk_heif_encode_avif(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, int quality,
                        int speed, int threads, const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                        char err[TK_ERR_LEN]);

// MARK: - Memory

/// Frees a buffer returned by an encoder.
void tk_free(void *p);

/// Hands freed heap memory back to the system (glibc's malloc_trim, which also releases free
/// pages inside every arena); a no-op with another C library.
void tk_trim_heap(void);

// MARK: - Files

/// `renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE)`: renames `from` to `to` unless
/// something (a link included) is at `to`. Unlike the rest of this header it reports like the
/// system call: 0, or -1 with `errno` set (`EEXIST` when `to` exists, `EINVAL` or `ENOSYS` where
/// the file system or kernel cannot; built without `RENAME_NOREPLACE`, always `EINVAL`).
/// Exists because Swift's Glibc module does not declare `renameat2` (a `_GNU_SOURCE` function).
int tk_rename_noreplace(const char *from, const char *to);

#endif
