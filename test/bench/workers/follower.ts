// The reading side of the event-to-row bench (test/bench/store-push.ts), in its own process:
//
//   follower LOCATION listen|POLL_MS
//     Opens the store, prints "ready", then follows the `race` channel from its latest sequence:
//     on each NOTIFY (listen), or every POLL_MS ms, it reads the new events by cursor and then each
//     event's item, printing {"sequence":N,"at":T} once the row is read (T: epoch ms, sub-ms
//     precision, comparable across processes). Exits when its stdin ends.

import {openAsyncStore} from '../../../store/api.js';

const [location, mode] = process.argv.slice(2) as [string, string];
const store = await openAsyncStore(location);
let after = await store.latestSequence('race');
const now = () => performance.timeOrigin + performance.now();

let reading: Promise<void> | undefined;
let again = false;

/** Reads everything after the cursor; a call while a read is under way makes that read go round once more. */
function catchUp(): void {
	if (reading) {
		again = true;
		return;
	}

	reading = (async () => {
		do {
			again = false;
			for (;;) {
				const page = await store.pollEvents('race', {afterSequence: after, limit: 100});
				for (const event of page.events) {
					await store.readItem('race', event.item_id);
					process.stdout.write(`${JSON.stringify({sequence: event.sequence, at: now()})}\n`);
				}

				after = page.next_after_sequence;
				if (!page.has_more) break;
			}
		} while (again);
	})().finally(() => {
		reading = undefined;
	});
}

let stop: () => Promise<void>;
if (mode === 'listen') {
	if (!store.listen) throw new Error(`${store.backend} has no push`);
	stop = await store.listen('race', catchUp);
} else {
	const timer = setInterval(catchUp, Number(mode));
	stop = async () => clearInterval(timer);
}

process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
	void (async () => {
		await stop();
		await reading;
		await store.close();
		process.exit(0);
	})();
});
