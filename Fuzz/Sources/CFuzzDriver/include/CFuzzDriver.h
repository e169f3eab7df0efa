// SPDX-License-Identifier: Apache-2.0
// CFuzzDriver: the one libFuzzer entry point the Swift fuzz targets call.
//
// Why it exists: SwiftPM links every executable with its entry point renamed
// (`--defsym main=<Module>_main`), so the usual libFuzzer setup (`-parse-as-library`, no
// `main`, libFuzzer's own `main` calls `LLVMFuzzerTestOneInput`) fails to link on Linux with
// an undefined `<Module>_main`. Instead each target's `main.swift` hands its callback to
// libFuzzer's documented library entry point, which parses the usual flags and runs the loop.
// The symbol comes from the toolchain's libFuzzer, linked by `-sanitize=fuzzer`.
#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the process's arguments and `callback` as the fuzz target.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
