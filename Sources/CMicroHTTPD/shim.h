// SPDX-License-Identifier: Apache-2.0
// Exposes GNU libmicrohttpd (Debian libmicrohttpd-dev) to Swift: the HTTP/1.1 server under
// `thumbkit serve`. Its variadic `MHD_start_daemon` is wrapped in CThumbKitServe.
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
