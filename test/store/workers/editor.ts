// A writer process for the multi-process store tests and the concurrent-writer bench, on either
// backend: LOCATION is a SQLite file or a postgres:// URL, opened through openAsyncStore. Started
// by test/store/workers/launch.ts.
//
//   editor increment LOCATION WORKER EDITS ID,ID,... [SECONDS]
//     Up to EDITS read-modify-write increments of `counter` on the `race` channel (stopping early
//     after SECONDS, when given), each with expected_version from a fresh read, retried on
//     version_conflict. Prints "ready" once the store is open and starts on the first line read
//     from stdin, so that all writers overlap. Then prints one JSON line:
//     {worker, edits, conflicts, started, ended, latencies_ms} (latency: first read to commit,
//     retries included). Any other error is printed as {worker, error, code, body}, exit 1.
//   editor churn LOCATION ID,ID,...
//     Prints "ready", then edits until killed, each edit setting `a` and `b` to the same new
//     token, printing "edit" after each commit.

import {openAsyncStore} from '../../../store/api.js';
import {StoreError} from '../../../store/errors.js';

const [mode, location, ...rest] = process.argv.slice(2);

function fail(worker: string, error: unknown): never {
	const body = error instanceof StoreError ? error.body : undefined;
	process.stdout.write(`${JSON.stringify({worker, error: String(error), code: (error as {code?: unknown} | undefined)?.code, body})}\n`);
	process.exit(1);
}

const store = await openAsyncStore(location!).catch((error: unknown) => fail(String(rest[0]), error));

if (mode === 'increment') {
	const [worker, count, ids, seconds] = rest as [string, string, string, string | undefined];
	const itemIds = ids.split(',');
	let conflicts = 0;
	let edits = 0;
	const latencies: number[] = [];
	process.stdout.write('ready\n');
	await new Promise(resolve => process.stdin.once('data', resolve));
	process.stdin.destroy();
	const started = Date.now();
	const deadline = seconds === undefined ? Infinity : started + Number(seconds) * 1000;
	try {
		for (; edits < Number(count) && Date.now() < deadline; edits++) {
			const itemId = itemIds[Math.floor(Math.random() * itemIds.length)]!;
			const begun = performance.now();
			for (;;) {
				const item = await store.readItem('race', itemId);
				try {
					await store.editItem({
						channelId: 'race',
						itemId,
						actor: {kind: 'agent', run_id: `w${worker}`},
						expectedVersion: item.version,
						values: {counter: (item.values.counter as number) + 1, a: `w${worker}-${edits}`},
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

			latencies.push(performance.now() - begun);
		}
	} catch (error) {
		fail(worker, error);
	}

	const ended = Date.now();
	await store.close();
	process.stdout.write(`${JSON.stringify({worker, edits, conflicts, started, ended, latencies_ms: latencies})}\n`);
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
