// A child process for the multi-process store tests (compiled to dist/, run with plain node).
//
//   node editor.js increment DB WORKER EDITS ID,ID,...
//     EDITS read-modify-write increments of `counter`, each with expected_version from a fresh
//     read, retried on version_conflict. Prints one JSON line: {worker, edits, conflicts, started, ended}.
//     Any other error is printed as {worker, error, body} and exits 1. It prints "ready" once the
//     file is open and starts on the first line read from stdin, so that all writers overlap.
//   node editor.js churn DB ID,ID,...
//     Prints "ready", then edits forever, each edit setting `a` and `b` to the same new token,
//     until it is killed.

import {openStore, StoreError} from '../../../store/index.js';

const [mode, dbPath, ...rest] = process.argv.slice(2);
const store = openStore(dbPath!);

function fail(worker: string, error: unknown): never {
	const body = error instanceof StoreError ? error.body : undefined;
	process.stdout.write(`${JSON.stringify({worker, error: String(error), code: (error as {code?: unknown}).code, body})}\n`);
	process.exit(1);
}

if (mode === 'increment') {
	const [worker, count, ids] = rest as [string, string, string];
	const itemIds = ids.split(',');
	let conflicts = 0;
	process.stdout.write('ready\n');
	await new Promise(resolve => process.stdin.once('data', resolve));
	process.stdin.destroy();
	const started = Date.now();
	try {
		for (let n = 0; n < Number(count); n++) {
			const itemId = itemIds[Math.floor(Math.random() * itemIds.length)]!;
			for (;;) {
				const item = store.readItem('race', itemId);
				try {
					store.editItem({
						channelId: 'race',
						itemId,
						actor: {kind: 'agent', run_id: `w${worker}`},
						expectedVersion: item.version,
						values: {counter: (item.values.counter as number) + 1, a: `w${worker}-${n}`},
					});
					break;
				} catch (error) {
					if (error instanceof StoreError && error.body.error === 'version_conflict') {
						conflicts++;
						continue;
					}

					throw error;
				}
			}
		}
	} catch (error) {
		fail(worker, error);
	}

	process.stdout.write(`${JSON.stringify({worker, edits: Number(count), conflicts, started, ended: Date.now()})}\n`);
	store.close();
} else if (mode === 'churn') {
	const itemIds = rest[0]!.split(',');
	process.stdout.write('ready\n');
	for (let n = 0; ; n++) {
		const token = `${process.pid}-${n}`;
		try {
			store.editItem({channelId: 'race', itemId: itemIds[n % itemIds.length]!, actor: {kind: 'human'}, values: {a: token, b: token}});
		} catch (error) {
			fail('churn', error);
		}
	}
} else {
	process.stderr.write(`unknown mode ${mode}\n`);
	process.exit(2);
}
