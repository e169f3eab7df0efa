// SPDX-License-Identifier: Apache-2.0
// Exposes libheif (Debian libheif-dev: HEIC through libde265, AVIF through dav1d / aom) to
// CThumbKit's heif_shim.c. Swift calls only the tk_heif_* shims.
#include <libheif/heif.h>
