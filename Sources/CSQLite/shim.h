// Exposes the system SQLite 3 C API (Debian libsqlite3-dev) to Swift.
#include <sqlite3.h>
