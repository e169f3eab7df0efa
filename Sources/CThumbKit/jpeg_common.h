// SPDX-License-Identifier: Apache-2.0
// jpeg_common.h: what jpeg_shim.c (header, encode) and jpeg_rows.c (decode) share: one error
// manager and one progress monitor. Private to CThumbKit (not in include/).
#ifndef TK_JPEG_COMMON_H
#define TK_JPEG_COMMON_H

#include "CThumbKit.h"

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

// Ceiling for libjpeg's large allocations (the whole-image coefficient buffer of a progressive
// file). Above it libjpeg asks for a backing store, which this build lacks, and fails cleanly.
#define TK_JPEG_MAX_MEMORY (2048L * 1024L * 1024L)

/// The error manager: fatal errors format the library's message into `err` and longjmp to
/// `jump`; warnings (emit_message level -1) are counted and the first kept in `warn`, or made
/// fatal on request; trace messages are dropped. Nothing is ever printed.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *err;
    char *warn;
    int warnings;
    int fail_on_warning;
} tk_jpeg_error;

/// The progress monitor: enforces TK_JPEG_MAX_SCANS, TK_JPEG_MAX_SCAN_PASSES,
/// TK_JPEG_MAX_PASSES_AFTER_CORRUPTION and the deadline.
typedef struct {
    struct jpeg_progress_mgr pub;
    j_decompress_ptr cinfo;
    uint64_t deadline_ns;   // CLOCK_MONOTONIC; 0: no deadline
    uint64_t block_visits;  // blocks the scans read so far have visited (an iMCU row a call)
    uint64_t corrupt_at;    // block_visits + 1 at the first corrupt-entropy warning; 0: none yet
    char corrupt_warning[TK_ERR_LEN];  // that warning's text
} tk_jpeg_progress;

/// snprintf's a message (NULL: empty) into a TK_ERR_LEN buffer; dst may be NULL.
void tk_jpeg_copy(char *dst, const char *msg);

/// Sets up `e` to write into `err` and `warn` (TK_ERR_LEN buffers, emptied here).
void tk_jpeg_init_error(tk_jpeg_error *e, char *err, char *warn, int fail_on_warning);

/// Creates a decompressor over memory with the memory ceiling and the progress monitor (no
/// deadline), and reads the header. Must be called after setjmp on the error manager's jump.
void tk_jpeg_start(j_decompress_ptr cinfo, tk_jpeg_progress *progress, const uint8_t *data, size_t size);

#endif
