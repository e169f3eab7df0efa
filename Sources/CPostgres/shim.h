// SPDX-License-Identifier: Apache-2.0
// Exposes libpq, PostgreSQL's C client library (Debian libpq-dev), to Swift.
// pkg-config libpq gives -I/usr/include/postgresql, where libpq-fe.h lives.
#include <libpq-fe.h>
