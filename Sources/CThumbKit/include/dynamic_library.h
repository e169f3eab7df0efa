// SPDX-License-Identifier: Apache-2.0
// dynamic_library.h: the one way a shim loads an optional codec library at first use rather than
// at start-up (`dlopen`), so that `thumbkit --version`, `thumbnailer` on a PNG and every command
// that meets no HEIF file never pay for libheif and the codec stack behind it (libde265, x265,
// dav1d, aom: about 3 ms of CPU per process, measured with a bare dlopen).
//
// A shim lists its entry points in an X-macro, declares a table whose fields have each entry
// point's own type (`__typeof__`, from the library's real header, so no signature is written out
// twice), and fills it once with TK_DL_LOAD. Every entry point is checked at load: one missing
// symbol fails the whole load, naming it, and nothing is called.
#ifndef TK_DYNAMIC_LIBRARY_H
#define TK_DYNAMIC_LIBRARY_H

#include <stddef.h>

/// Opens `soname` (RTLD_NOW | RTLD_LOCAL); NULL with the reason in `err` (TK_ERR_LEN bytes).
void *tk_dl_open(const char *soname, char *err);

/// The address of `symbol` in `library`; NULL with the reason (naming `symbol` and `soname`).
void *tk_dl_symbol(void *library, const char *soname, const char *symbol, char *err);

/// A field of an entry-point table: `name`, typed as the library's header declares it.
#define TK_DL_FIELD(name) __typeof__(name) *name;

/// Fills `table->name` from `library`, or clears `ok` (and leaves the reason in `err`) on the
/// first entry point that is missing.
#define TK_DL_RESOLVE(name)                                                                    \
    if (ok) {                                                                                  \
        table->name = (__typeof__(name) *)tk_dl_symbol(library, soname, #name, err);           \
        if (table->name == NULL) ok = 0;                                                       \
    }

#endif
