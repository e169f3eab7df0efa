// SPDX-License-Identifier: Apache-2.0
// renameat2 is declared by glibc's <stdio.h> only under _GNU_SOURCE, which Swift's Glibc module
// does not define; this file only forwards the call.
#define _GNU_SOURCE
#include "CThumbKit.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

int tk_rename_noreplace(const char *from, const char *to) {
#if defined(RENAME_NOREPLACE)
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    errno = EINVAL;
    return -1;
#endif
}
