// SPDX-License-Identifier: Apache-2.0
#include "CThumbKit.h"
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void tk_free(void *p) { free(p); }

void tk_trim_heap(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
