// The connection type, on its own so the modules that open, migrate and use a connection need not
// import each other to name it.

import type Database from 'better-sqlite3';

/** An open SQLite connection: a type of its own, so the modules that open, migrate and use one never import each other to name it. */
export type Db = Database.Database;
