// SPDX-License-Identifier: Apache-2.0
// Thin glue over libmicrohttpd's variadic calls, which Swift cannot make. Every decision (which
// options, which limits, what to answer) is made in Swift (ThumbKitServe); this file only
// forwards arguments.
#ifndef CTHUMBKITSERVE_H
#define CTHUMBKITSERVE_H

#include <stdint.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Loads libmicrohttpd (libmicrohttpd.so.12) at the first call (later calls only report): 0 when
/// every entry point ThumbKitServe calls is there, else -1 with the reason in `err`. It is not
/// linked, so only a server pays for it; call this before any other function here.
int tk_http_ready(char *err, unsigned long err_len);

/// The check `tk_http_ready` makes at load, on the library `soname`, which is then unloaded: 0
/// when every entry point is there, else -1 naming the first one missing. For tests.
int tk_http_probe_library(const char *soname, char *err, unsigned long err_len);

/// The callback of `MHD_OPTION_URI_LOG_CALLBACK`: it sees the request target as sent, and what
/// it returns becomes the request's context (`*con_cls`).
typedef void *(*tk_http_uri_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// `MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_NOTIFY_COMPLETED,
/// completed, completed_cls, MHD_OPTION_URI_LOG_CALLBACK, uri, uri_cls,
/// MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END)`.
/// `options` ends with an `MHD_OPTION_END` item.
struct MHD_Daemon *tk_http_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                 MHD_RequestCompletedCallback completed, void *completed_cls,
                                 tk_http_uri_callback uri, void *uri_cls, MHD_NotifyConnectionCallback notify,
                                 void *notify_cls, const struct MHD_OptionItem *options);

/// The port the daemon listens on (0 when unknown): `MHD_DAEMON_INFO_BIND_PORT`.
uint16_t tk_http_bound_port(struct MHD_Daemon *daemon);

/// The peer's address (NULL when unknown): `MHD_CONNECTION_INFO_CLIENT_ADDRESS`.
const struct sockaddr *tk_http_client_address(struct MHD_Connection *connection);

/// The connection's socket (-1 when unknown): `MHD_CONNECTION_INFO_CONNECTION_FD`.
int tk_http_connection_fd(struct MHD_Connection *connection);

#endif
