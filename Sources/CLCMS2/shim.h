// SPDX-License-Identifier: Apache-2.0
// Exposes Little CMS 2 (Debian liblcms2-dev) to Swift: ICC profile parsing and colour transforms.
#include <lcms2.h>
