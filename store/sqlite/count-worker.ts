// Counting matches on a thread of its own. better-sqlite3 reads synchronously, and a count reads
// every candidate row (seconds at 1M items), so on the caller's thread it would hold up
// everything else, a TUI's keys included. The worker opens the file read-only on its own
// connection (WAL: it sees what was committed) and runs the one statement it is given.

import {createRequire} from 'node:module';
import {Worker} from 'node:worker_threads';

// Plain CommonJS evaluated by the worker: no module of ours to load, so it runs the same from
// the TypeScript sources and from the build.
const WORKER_SOURCE = `
const {parentPort, workerData} = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
	db = new Database(workerData.file, {readonly: true, fileMustExist: true});
	db.pragma('busy_timeout = 10000');
	parentPort.postMessage({n: db.prepare(workerData.sql).get(...workerData.params).n});
} catch (error) {
	parentPort.postMessage({error: String((error && error.message) || error)});
} finally {
	if (db) db.close();
}
`;

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** Counts running now, so that closing the store stops them. */
export class CountWorkers {
	private readonly running = new Set<Worker>();

	/** Runs `statement` (a single `SELECT count(*) AS n …`) on `file` in a worker thread. */
	async count(file: string, statement: {sql: string; params: unknown[]}): Promise<number> {
		const worker = new Worker(WORKER_SOURCE, {eval: true, workerData: {driver: DRIVER, file, sql: statement.sql, params: statement.params}});
		// A count never keeps sift alive: quitting while one runs just ends it.
		worker.unref();
		this.running.add(worker);
		try {
			return await new Promise<number>((resolve, reject) => {
				worker.once('message', (message: {n?: number; error?: string}) => {
					if (typeof message.n === 'number') resolve(message.n);
					else reject(new Error(`counting matches failed: ${message.error ?? 'no answer'}`));
				});
				worker.once('error', reject);
				worker.once('exit', code => reject(new Error(`counting matches stopped (exit ${code})`)));
			});
		} finally {
			this.running.delete(worker);
			void worker.terminate();
		}
	}

	async stopAll(): Promise<void> {
		await Promise.all([...this.running].map(async worker => worker.terminate()));
		this.running.clear();
	}
}
