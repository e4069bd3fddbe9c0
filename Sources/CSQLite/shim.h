#ifndef TICK_CSQLITE_SHIM_H
#define TICK_CSQLITE_SHIM_H
// The system's SQLite (libsqlite3-dev; linked statically by `make release`).
#include <sqlite3.h>

/// Turns off double-quoted string literals on a connection (sqlite3_db_config
/// is variadic, which Swift cannot call): "x" is always an identifier.
static inline void tick_sqlite3_disable_dqs(sqlite3 *db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (void *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (void *)0);
}

/// SQLITE_TRANSIENT (a cast macro Swift cannot import): SQLite copies the value.
static inline sqlite3_destructor_type tick_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
