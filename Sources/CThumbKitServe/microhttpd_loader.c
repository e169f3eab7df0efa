// SPDX-License-Identifier: Apache-2.0
// microhttpd_loader.c: libmicrohttpd is opened when a server starts (dynamic_library.h), not
// linked, so that no other command pays for it and the GnuTLS stack behind it (about 1 ms of CPU
// per process).
//
// The libmicrohttpd functions that Swift calls are defined here under their own names and
// forward to the loaded library; the compiler checks each against microhttpd.h, and the table's
// fields take their types from the same declarations. Before `tk_http_ready` has succeeded a
// forwarder does nothing and returns a failure value; `HTTPServer.start` calls it first.
#include "CThumbKitServe.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <CThumbKit.h>
#include <dynamic_library.h>

#include "microhttpd_api.h"

// libmicrohttpd's entry points, filled once by tk_mhd_load_once (never written again after).
static struct tk_mhd_api tk_mhd_table;
static pthread_once_t tk_mhd_once = PTHREAD_ONCE_INIT;
static char tk_mhd_load_error[TK_ERR_LEN];
static int tk_mhd_loaded;

// Fills `table` from the library `soname`: its handle, or NULL with the reason in `err`.
static void *tk_mhd_fill(struct tk_mhd_api *table, const char *soname, char err[TK_ERR_LEN]) {
    void *library = tk_dl_open(soname, err);
    if (library == NULL) return NULL;
    int ok = 1;
    TK_MHD_ENTRY_POINTS(TK_DL_RESOLVE)
    if (!ok) {
        dlclose(library);
        return NULL;
    }
    return library;
}

static void tk_mhd_load_once(void) {
    // Never closed: the table points into the library for the rest of the process.
    tk_mhd_loaded = tk_mhd_fill(&tk_mhd_table, TK_MHD_SONAME, tk_mhd_load_error) != NULL;
}

int tk_http_ready(char *err, unsigned long err_len) {
    pthread_once(&tk_mhd_once, tk_mhd_load_once);
    if (tk_mhd_loaded) return 0;
    if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", tk_mhd_load_error);
    return -1;
}

int tk_http_probe_library(const char *soname, char *err, unsigned long err_len) {
    struct tk_mhd_api table;
    char reason[TK_ERR_LEN] = {0};
    void *library = tk_mhd_fill(&table, soname, reason);
    if (err != NULL && err_len > 0) snprintf(err, err_len, "%s", reason);
    if (library == NULL) return -1;
    dlclose(library);
    return 0;
}

const struct tk_mhd_api *tk_mhd(void) {
    pthread_once(&tk_mhd_once, tk_mhd_load_once);
    return tk_mhd_loaded ? &tk_mhd_table : NULL;
}

// The forwarders for the calls Swift makes (the variadic ones are called by http_shim.c only).
#define API tk_mhd()

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return API ? API->MHD_add_response_header(response, header, content) : MHD_NO;
}
struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return API ? API->MHD_create_response_from_buffer(size, buffer, mode) : NULL;
}
void MHD_destroy_response(struct MHD_Response *response) {
    if (API) API->MHD_destroy_response(response);
}
int MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                              MHD_KeyValueIterator iterator, void *iterator_cls) {
    return API ? API->MHD_get_connection_values(connection, kind, iterator, iterator_cls) : -1;
}
enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response) {
    return API ? API->MHD_queue_response(connection, status_code, response) : MHD_NO;
}
MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *daemon) { return API ? API->MHD_quiesce_daemon(daemon) : MHD_INVALID_SOCKET; }
void MHD_resume_connection(struct MHD_Connection *connection) {
    if (API) API->MHD_resume_connection(connection);
}
void MHD_stop_daemon(struct MHD_Daemon *daemon) {
    if (API) API->MHD_stop_daemon(daemon);
}
void MHD_suspend_connection(struct MHD_Connection *connection) {
    if (API) API->MHD_suspend_connection(connection);
}
