// SPDX-License-Identifier: Apache-2.0
// Exposes the system SQLite 3 C API (Debian libsqlite3-dev) to Swift.
#include <sqlite3.h>
