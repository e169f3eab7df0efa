// SPDX-License-Identifier: Apache-2.0
// png_common.h: what png_shim.c shares with png_text.c and png_rows.c: the message copier, the
// reader hardening and the reader of the chunks before the first IDAT. Private to CThumbKit
// (not in include/).
#ifndef TK_PNG_COMMON_H
#define TK_PNG_COMMON_H

#include "CThumbKit.h"

#include <png.h>

/// Copies `msg` (NULL: "unknown error") into `dst`, truncated to TK_ERR_LEN.
void tk_copy_message(char dst[TK_ERR_LEN], const char *msg);

/// Hardens a libpng reader the same way for every ThumbKit reader: bounded chunk memory (one
/// chunk, and the number of ancillary chunks kept), and the `count` ancillary chunks named in
/// `skipped` plus every unknown one skipped unread (in small pieces, CRC-checked), so a chunk
/// declaring 1 GB (pCAL, sCAL, sPLT) costs no 1 GB allocation and no text chunk is inflated.
/// Call before png_read_info. See png_shim.c.
void tk_png_harden(png_structp png, const png_byte *skipped, int count);

// What a chunk reader takes from libpng's parse of the chunks before the first IDAT. It must not
// call a libpng function that can fail; it returns 0, or -1 with `err` set.
typedef int (*tk_png_info_taker)(png_structp png, png_infop info, void *context, char err[TK_ERR_LEN]);

/// Reads the chunks of `data` before the first IDAT (silent warnings, benign errors, bounded
/// chunk memory), skipping the `count` ancillary chunks named in `skipped` and every unknown
/// one, and hands the result to `take`. See png_shim.c.
int tk_png_read_info(const uint8_t *data, size_t size, const png_byte *skipped, int count,
                     tk_png_info_taker take, void *context, char err[TK_ERR_LEN]);

#endif
