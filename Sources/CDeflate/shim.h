// SPDX-License-Identifier: Apache-2.0
// Exposes libdeflate (Debian libdeflate-dev) to ThumbKit's PNG fast path: one-call zlib inflate
// of a PNG's whole IDAT stream, and the CRC-32 of its chunks.
#include <libdeflate.h>
