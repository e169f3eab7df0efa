// SPDX-License-Identifier: Apache-2.0
#include "CThumbKitServe.h"

#include <stddef.h>

#include "microhttpd_api.h"

// Each is called only on a daemon or connection that exists, so libmicrohttpd was loaded.

struct MHD_Daemon *tk_http_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                 MHD_RequestCompletedCallback completed, void *completed_cls,
                                 tk_http_uri_callback uri, void *uri_cls, MHD_NotifyConnectionCallback notify,
                                 void *notify_cls, const struct MHD_OptionItem *options) {
    const struct tk_mhd_api *api = tk_mhd();
    if (api == NULL) return NULL;
    return api->MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_NOTIFY_COMPLETED, completed,
                            completed_cls, MHD_OPTION_URI_LOG_CALLBACK, uri, uri_cls, MHD_OPTION_NOTIFY_CONNECTION,
                            notify, notify_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t tk_http_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = tk_mhd()->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

const struct sockaddr *tk_http_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = tk_mhd()->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int tk_http_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = tk_mhd()->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
