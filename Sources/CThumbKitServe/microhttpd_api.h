// SPDX-License-Identifier: Apache-2.0
// microhttpd_api.h: the table of libmicrohttpd entry points that microhttpd_loader.c fills when a
// server starts, private to this target.
#ifndef TK_MICROHTTPD_API_H
#define TK_MICROHTTPD_API_H

#include <dynamic_library.h>
#include <microhttpd.h>

#define TK_MHD_SONAME "libmicrohttpd.so.12"

#define TK_MHD_ENTRY_POINTS(X)                                                                 \
    X(MHD_add_response_header) X(MHD_create_response_from_buffer) X(MHD_destroy_response)      \
    X(MHD_get_connection_info) X(MHD_get_connection_values) X(MHD_get_daemon_info)             \
    X(MHD_queue_response) X(MHD_quiesce_daemon) X(MHD_resume_connection) X(MHD_start_daemon)   \
    X(MHD_stop_daemon) X(MHD_suspend_connection)

struct tk_mhd_api {
    TK_MHD_ENTRY_POINTS(TK_DL_FIELD)
};

/// The loaded libmicrohttpd (loaded at the first call); NULL when it could not be loaded.
const struct tk_mhd_api *tk_mhd(void);

#endif
