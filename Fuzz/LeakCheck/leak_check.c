// SPDX-License-Identifier: Apache-2.0
// leak_check.c: proves that Fuzz/lsan.supp hides only libheif#1753's dav1d leak
// (`scripts/fuzz --check-suppressions`, run by scripts/test). Built with AddressSanitizer and
// run twice under the fuzzers' LSAN_OPTIONS: `dav1d` loses a buffer dav1d allocated, which the
// suppression must hide (exit 0); `shim` loses one from a function named like ThumbKit's HEIF
// shim, which must still be reported (exit non-zero).
#include <dav1d/dav1d.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *tk_heif_deliberate_leak(void) { return malloc(40); }

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (strcmp(argv[1], "dav1d") == 0) {
        Dav1dData data = {0};
        if (dav1d_data_create(&data, 40) == NULL) return 2;
        printf("lost a 40-byte dav1d buffer\n");
    } else {
        void *volatile lost = tk_heif_deliberate_leak();
        lost = NULL;
        printf("lost a 40-byte shim buffer\n");
    }
    return 0;
}
