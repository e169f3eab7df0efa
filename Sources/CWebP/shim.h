// SPDX-License-Identifier: Apache-2.0
// Exposes libwebp (Debian libwebp-dev) to CThumbKit's webp_shim.c: decode, demux (animations,
// ICC chunks), encode and mux (ICC chunks on output). Swift calls only the tk_webp_* shims.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
