// A child process for the PostgreSQL multi-process tests (bundled by the test, run with plain node).
//
//   pg-editor.ts increment URL WORKER EDITS ID,ID,...
//     EDITS read-modify-write increments of `counter`, each with expected_version from a fresh read,
//     retried on version_conflict. Prints "ready", starts on the first line read from stdin (so all
//     writers overlap), then prints one JSON line {worker, edits, conflicts}. Any other error is
//     printed as {worker, error, code} and exits 1.
//   pg-editor.ts churn URL ID,ID,...
//     Prints "ready", then edits until killed, each edit setting `a` and `b` to the same new token
//     and printing "edit" after it committed.

import {openAsyncStore} from '../../../store/api.js';
import {StoreError} from '../../../store/index.js';

const [mode, url, ...rest] = process.argv.slice(2);
const store = await openAsyncStore(url!);

function fail(worker: string, error: unknown): never {
	process.stdout.write(`${JSON.stringify({worker, error: String(error), code: (error as {code?: unknown}).code, body: error instanceof StoreError ? error.body : undefined})}\n`);
	process.exit(1);
}

if (mode === 'increment') {
	const [worker, count, ids] = rest as [string, string, string];
	const itemIds = ids.split(',');
	let conflicts = 0;
	process.stdout.write('ready\n');
	await new Promise(resolve => process.stdin.once('data', resolve));
	process.stdin.destroy();
	try {
		for (let n = 0; n < Number(count); n++) {
			const itemId = itemIds[Math.floor(Math.random() * itemIds.length)]!;
			for (;;) {
				const item = await store.readItem('race', itemId);
				try {
					await store.editItem({
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

	process.stdout.write(`${JSON.stringify({worker, edits: Number(count), conflicts})}\n`);
	await store.close();
} else if (mode === 'churn') {
	const itemIds = rest[0]!.split(',');
	process.stdout.write('ready\n');
	for (let n = 0; ; n++) {
		const token = `${process.pid}-${n}`;
		try {
			await store.editItem({channelId: 'race', itemId: itemIds[n % itemIds.length]!, actor: {kind: 'human'}, values: {a: token, b: token, counter: n % 1000}});
		} catch (error) {
			fail('churn', error);
		}

		process.stdout.write('edit\n');
	}
} else {
	fail('?', new Error(`unknown mode ${String(mode)}`));
}
