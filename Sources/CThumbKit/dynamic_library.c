// SPDX-License-Identifier: Apache-2.0
// dynamic_library.c: dlopen and dlsym with a reason on failure (see dynamic_library.h).
#include "dynamic_library.h"

#include "CThumbKit.h"

#include <dlfcn.h>
#include <stdio.h>

void *tk_dl_open(const char *soname, char *err) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL && err != NULL) {
        const char *why = dlerror();
        snprintf(err, TK_ERR_LEN, "%s cannot be loaded: %s", soname, why != NULL ? why : "unknown reason");
    }
    return library;
}

void *tk_dl_symbol(void *library, const char *soname, const char *symbol, char *err) {
    void *address = dlsym(library, symbol);
    if (address == NULL && err != NULL) {
        snprintf(err, TK_ERR_LEN, "%s has no entry point %s (a different version than the one built against)",
                 soname, symbol);
    }
    return address;
}
