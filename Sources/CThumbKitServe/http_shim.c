// SPDX-License-Identifier: Apache-2.0
#include "CThumbKitServe.h"

#include <stddef.h>

#include <dynamic_library.h>

// libmicrohttpd is opened when a server starts (dynamic_library.h), not linked, so that no other
// command pays for it and the GnuTLS stack behind it (about 1 ms of CPU per process).
#define TK_MHD_ENTRY_POINTS(X)                                                                 \
    X(MHD_add_response_header) X(MHD_create_response_from_buffer) X(MHD_destroy_response)      \
    X(MHD_get_connection_info) X(MHD_get_connection_values) X(MHD_get_daemon_info)             \
    X(MHD_queue_response) X(MHD_quiesce_daemon) X(MHD_resume_connection) X(MHD_start_daemon)   \
    X(MHD_stop_daemon) X(MHD_suspend_connection)

TK_DL_LOADER(tk_mhd, "libmicrohttpd.so.12", TK_MHD_ENTRY_POINTS)

int tk_http_ready(char *err, unsigned long err_len) { return tk_mhd_get(err, err_len) != NULL ? 0 : -1; }

int tk_http_probe_library(const char *soname, char *err, unsigned long err_len) {
    return tk_mhd_probe(soname, err, err_len);
}

// The shims below are called only on a daemon or connection that exists, so after
// `tk_http_ready` succeeded.

struct MHD_Daemon *tk_http_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                 MHD_RequestCompletedCallback completed, void *completed_cls,
                                 tk_http_uri_callback uri, void *uri_cls, MHD_NotifyConnectionCallback notify,
                                 void *notify_cls, const struct MHD_OptionItem *options) {
    const struct tk_mhd_api *api = tk_mhd_get(NULL, 0);
    if (api == NULL) return NULL;
    return api->MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_NOTIFY_COMPLETED, completed,
                            completed_cls, MHD_OPTION_URI_LOG_CALLBACK, uri, uri_cls, MHD_OPTION_NOTIFY_CONNECTION,
                            notify, notify_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t tk_http_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = tk_mhd_table.MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

const struct sockaddr *tk_http_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = tk_mhd_table.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int tk_http_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = tk_mhd_table.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// The libmicrohttpd functions that Swift calls, defined under their own names: each forwards to
// the loaded library (the compiler checks each against microhttpd.h). Before `tk_http_ready`
// succeeded one does nothing and returns a failure value; `HTTPServer.start` calls it first.
#define API tk_mhd_get(NULL, 0)

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
