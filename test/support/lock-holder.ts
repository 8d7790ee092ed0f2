// Another process holding a SQLite store's write lock (BEGIN IMMEDIATE), as a long import or a
// slow writer elsewhere does, until it is told to let go.

import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {createRequire} from 'node:module';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

/** Takes the lock, prints "locked"; commits and exits when a line arrives on stdin (or stdin closes). */
const HOLDER = `
const Database = require(${JSON.stringify(betterSqlite)});
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
const release = () => { db.exec('COMMIT'); db.close(); process.exit(0); };
process.stdin.once('data', release);
process.stdin.once('end', release);
`;

export type LockHolder = {
	/** Commits (writing nothing) and waits for the holder to exit. */
	release(): Promise<void>;
	/** Ends the holder if it is still there (for a finally). */
	kill(): void;
};

/** Resolves once another process holds the write lock of the store file `db`. */
export async function holdWriteLock(db: string): Promise<LockHolder> {
	const child = spawn(process.execPath, ['-e', HOLDER, db], {stdio: ['pipe', 'pipe', 'inherit']});
	const exited = once(child, 'exit');
	const [chunk] = await Promise.race([once(child.stdout, 'data') as Promise<[Buffer]>, exited.then(([code]) => {
		throw new Error(`the lock holder exited (${String(code)}) before it held the lock`);
	})]);
	if (String(chunk) !== 'locked\n') throw new Error(`the lock holder said ${JSON.stringify(String(chunk))}`);
	return {
		async release() {
			if (child.exitCode === null) child.stdin.end('go\n');
			await exited;
		},
		kill() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		},
	};
}
