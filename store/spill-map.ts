// A string-to-string map that an import may fill with a value per row (the unique values a file
// holds, and which row or item holds each) without its memory growing with the file: the first
// entries live in a JS Map; past SPILL_AT they all move into a temporary SQLite database (an
// anonymous one, on disk, removed when closed) with a bounded page cache, and every lookup after
// that is one indexed read. A million keys cost a 2 MiB page cache instead of a ~90 MB Map and the
// old generation V8 grows around it (docs/architecture.md, "Memory of export and import").

import Database from 'better-sqlite3';

/** Entries held in memory before the map moves to disk: small files keep the speed of a Map. */
export const SPILL_AT = 50_000;
/**
 * SQLite's own default page cache, in KiB: for a connection that reads most pages about once (an
 * export's pass over the file, the spilled map here), where the store's usual 16 MiB would only
 * hold pages it does not read again. Stated, since for the spilled map it is the whole cost.
 */
export const SMALL_PAGE_CACHE_KIB = 2048;

export class SpillMap {
	private memory: Map<string, string> | undefined = new Map();
	private disk: {db: Database.Database; get: Database.Statement; set: Database.Statement} | undefined;

	constructor(private readonly spillAt = SPILL_AT) {}

	get(key: string): string | undefined {
		if (this.memory) return this.memory.get(key);
		return (this.disk!.get.get(key) as {holder: string} | undefined)?.holder;
	}

	set(key: string, holder: string): void {
		if (this.memory) {
			this.memory.set(key, holder);
			if (this.memory.size > this.spillAt) this.spill();
			return;
		}

		this.disk!.set.run(key, holder);
	}

	/** Lets go of every entry (the temporary database is removed); the map is empty and usable again. */
	clear(): void {
		this.disk?.db.close();
		this.disk = undefined;
		this.memory = new Map();
	}

	/** Whether the entries are on disk now (for tests). */
	get spilled(): boolean {
		return this.disk !== undefined;
	}

	private spill(): void {
		// An empty file name is SQLite's private temporary database: on disk, deleted on close.
		const db = new Database('');
		db.pragma(`cache_size = -${SMALL_PAGE_CACHE_KIB}`);
		db.pragma('journal_mode = OFF');
		db.pragma('synchronous = OFF');
		db.exec('CREATE TABLE held (key TEXT PRIMARY KEY, holder TEXT NOT NULL) WITHOUT ROWID');
		// One transaction for the map's life (never committed: closing discards it), so no write is a commit.
		db.exec('BEGIN');
		const set = db.prepare('INSERT INTO held (key, holder) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET holder = excluded.holder');
		for (const [key, holder] of this.memory!) set.run(key, holder);
		this.memory = undefined;
		this.disk = {db, get: db.prepare('SELECT holder FROM held WHERE key = ?'), set};
	}
}
