// The system's SQLite (libsqlite3-dev on Debian and Ubuntu; part of the SDK on Apple platforms).
#include <sqlite3.h>
