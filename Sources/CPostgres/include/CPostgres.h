// SPDX-License-Identifier: Apache-2.0
// libpq, PostgreSQL's C client library (Debian libpq-dev), for Swift: its own header, and the
// loader that opens libpq.so.5 at the first PostgreSQL catalog rather than at start-up.
//
// The path is absolute because this target must not take libpq's pkg-config flags: they would
// link libpq into every process (about 3 ms of CPU at start-up, most of it Kerberos, LDAP and
// GnuTLS behind it). Debian's libpq-dev always puts the header there.
#ifndef CPOSTGRES_H
#define CPOSTGRES_H

#include "/usr/include/postgresql/libpq-fe.h"

/// Loads libpq.so.5 at the first call (later calls only report the outcome): 0 when every libpq
/// entry point the catalog calls is there, else -1 with the reason in `err` (`err_len` bytes).
/// Every libpq function this module defines forwards to the loaded library; call this first.
int tk_pq_ready(char *err, unsigned long err_len);

/// The check `tk_pq_ready` makes at load, on the library `soname`, which is then unloaded: 0
/// when every entry point is there, else -1 naming the first one missing. For tests.
int tk_pq_probe_library(const char *soname, char *err, unsigned long err_len);

#endif
