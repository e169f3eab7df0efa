// SPDX-License-Identifier: Apache-2.0
// dynamic_library.h: the one way a shim loads an optional codec library at first use rather than
// at start-up (`dlopen`), so that `thumbkit --version`, `thumbnailer` on a PNG and every command
// that meets no HEIF file never pay for libheif and the codec stack behind it (libde265, x265,
// dav1d, aom: about 3 ms of CPU per process, measured with a bare dlopen).
//
// A shim lists its entry points in an X-macro and defines its loader with TK_DL_LOADER: a table
// whose fields have each entry point's own type (`__typeof__`, from the library's real header, so
// no signature is written out twice), filled once at the first call. Every entry point is checked
// at load: one missing symbol fails the whole load, naming it, and nothing is called.
#ifndef TK_DYNAMIC_LIBRARY_H
#define TK_DYNAMIC_LIBRARY_H

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "CThumbKit.h"

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

/// Defines, in the one C file that includes it, the loader of the library `SONAME` whose entry
/// points the X-macro `LIST` names:
/// - `struct NAME_api`, the table;
/// - `static const struct NAME_api *NAME_get(char *err, unsigned long err_len)`: the table,
///   loaded at the first call (the library is then never closed: the table points into it), or
///   NULL with the reason in `err`;
/// - `static int NAME_probe(const char *soname, char *err, unsigned long err_len)`: the same
///   check on another library, which is then unloaded; 0, or -1 with the reason (for tests).
#define TK_DL_LOADER(NAME, SONAME, LIST)                                                        \
    struct NAME##_api {                                                                         \
        LIST(TK_DL_FIELD)                                                                       \
    };                                                                                          \
    /* Written once, by NAME##_load_once under pthread_once; only read after that. */         \
    static struct NAME##_api NAME##_table;                                                      \
    static pthread_once_t NAME##_once = PTHREAD_ONCE_INIT;                                      \
    static char NAME##_load_error[TK_ERR_LEN];                                                  \
    static int NAME##_loaded;                                                                   \
    static void *NAME##_fill(struct NAME##_api *table, const char *soname, char *err) {         \
        void *library = tk_dl_open(soname, err);                                                \
        if (library == NULL) return NULL;                                                       \
        int ok = 1;                                                                             \
        LIST(TK_DL_RESOLVE)                                                                     \
        if (!ok) {                                                                              \
            dlclose(library);                                                                   \
            return NULL;                                                                        \
        }                                                                                       \
        return library;                                                                         \
    }                                                                                           \
    static void NAME##_load_once(void) {                                                        \
        NAME##_loaded = NAME##_fill(&NAME##_table, SONAME, NAME##_load_error) != NULL;          \
    }                                                                                           \
    static const struct NAME##_api *NAME##_get(char *err, unsigned long err_len) {              \
        pthread_once(&NAME##_once, NAME##_load_once);                                           \
        if (NAME##_loaded) return &NAME##_table;                                                \
        if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", NAME##_load_error);        \
        return NULL;                                                                            \
    }                                                                                           \
    static int NAME##_probe(const char *soname, char *err, unsigned long err_len) {             \
        struct NAME##_api table;                                                                \
        char reason[TK_ERR_LEN] = {0};                                                          \
        void *library = NAME##_fill(&table, soname, reason);                                    \
        if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", reason);                   \
        if (library == NULL) return -1;                                                         \
        dlclose(library);                                                                       \
        return 0;                                                                               \
    }

#endif
