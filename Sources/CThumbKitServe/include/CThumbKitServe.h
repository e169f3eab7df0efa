// SPDX-License-Identifier: Apache-2.0
// Thin glue over libmicrohttpd's variadic calls, which Swift cannot make. Every decision (which
// options, which limits, what to answer) is made in Swift (ThumbKitServe); this file only
// forwards arguments.
#ifndef CTHUMBKITSERVE_H
#define CTHUMBKITSERVE_H

#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// `MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_NOTIFY_COMPLETED,
/// completed, completed_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END)`. `options` ends with an
/// `MHD_OPTION_END` item; `completed` may be NULL.
struct MHD_Daemon *tk_http_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                 MHD_RequestCompletedCallback completed, void *completed_cls,
                                 const struct MHD_OptionItem *options);

/// The port the daemon listens on (0 when unknown): `MHD_DAEMON_INFO_BIND_PORT`.
uint16_t tk_http_bound_port(struct MHD_Daemon *daemon);

/// The peer's address (NULL when unknown): `MHD_CONNECTION_INFO_CLIENT_ADDRESS`.
const struct sockaddr *tk_http_client_address(struct MHD_Connection *connection);

#endif
