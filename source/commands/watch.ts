import type {AsyncStore, Unlisten} from '../../store/api.js';
import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL} from '../codex/batches.js';
import {Fanout} from '../codex/fanout.js';
import {handleTerminationSignals} from '../codex/group.js';
import {resolveStateDir} from '../codex/paths.js';
import {DEFAULT_SETTLE_MS, DEFAULT_WATCH_INSTRUCTION, emptyCursor, loadWatchCursor, parseSettle, saveWatchCursor, sendDue, settleEndsAt, takeInEvents, watchCursorPath, type WatchCursor} from '../codex/watch.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, serverEndpoint, withStore} from './common.js';
import {UsageError, type Command} from './context.js';
import {batchStarter, codexRunOptions, EXIT_CODES, reportRuns} from './run.js';

/** How often the events are read: on SQLite the only way to hear of them. */
const POLL_MS = 500;
/** On PostgreSQL a notification wakes the watch at once; the poll is then only a safety net. */
const PUSHED_POLL_MS = 5000;
/** The longest wait between tries while the events cannot be read. */
const MAX_RETRY_MS = 30_000;


/**
 * `sift watch`: follows the channel's events and sends new or newly matching items to Codex in
 * batches through the same fan-out as `sift run`, until Ctrl+C. The cursor (docs/reference.md)
 * is saved before each batch starts, so a restart never sends an item version again.
 */
const watch: Command = async context => {
	if (context.input.length > 0) throw new UsageError(`sift watch takes no arguments (got ${JSON.stringify(context.input[0])}); give the instruction with --instruction`);
	const settleMs = context.flags.settle === undefined ? DEFAULT_SETTLE_MS : parseSettle(context.flags.settle);
	if (settleMs === null) throw new UsageError(`--settle must be a duration such as 5s, 500ms or 1m (at most 1h), got ${JSON.stringify(context.flags.settle)}`);
	const instruction = context.flags.instruction?.trim() || DEFAULT_WATCH_INSTRUCTION;
	const {where, batch = DEFAULT_BATCH_SIZE, parallel = DEFAULT_PARALLEL} = context.flags;
	const endpoint = serverEndpoint(context.flags.server);
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		// A bad query is refused now, not at the first event.
		if (where !== undefined) await store.listPage(channelId, {where, limit: 1});
		const file = watchCursorPath(resolveStateDir(context.env), {location: store.location, channelId, where});
		let cursor = loadWatchCursor(file) ?? emptyCursor(await store.latestSequence(channelId));
		saveWatchCursor(file, cursor);
		const fanout = new Fanout({parallel, start: batchStarter(store, codexRunOptions(context, instruction, channelId), endpoint)});
		const report = reportRuns(context, fanout, {channelId});
		const waker = new Waker();
		fanout.subscribe(event => {
			if (event.type === 'finished' || event.type === 'unstarted') waker.wake();
		});
		let stopped = false;
		const uninstall = handleTerminationSignals(() => {
			stopped = true;
			fanout.cancelAll();
			waker.wake();
		});
		const unlisten = await listenFor(store, channelId, () => waker.wake());
		context.stderr.write(`sift: watching ${sanitize(channelId)}${where === undefined ? '' : ` for ${sanitize(JSON.stringify(where))}`} after event ${cursor.sequence} (batches of ${batch}, ${parallel} at once, settle ${settleMs} ms${unlisten ? ', woken by PostgreSQL notifications' : ''}); Ctrl+C stops\n`);
		let failures = 0;
		try {
			while (!stopped) {
				let taken: WatchCursor;
				try {
					taken = await takeInEvents(store, channelId, where, cursor);
				} catch (error) {
					// A store that cannot be read for a while (a lock, a restarting server) is waited out, with backoff.
					const delay = Math.min(MAX_RETRY_MS, POLL_MS * 2 ** failures++);
					context.stderr.write(`sift: reading the events failed (${sanitize(error instanceof Error ? error.message : String(error))}); trying again in ${Math.round(delay / 1000)} s\n`);
					await waker.sleepUntil(Date.now() + delay);
					continue;
				}

				failures = 0;
				if (taken !== cursor) saveWatchCursor(file, (cursor = taken));
				if (stopped) break;
				cursor = sendDue(cursor, file, fanout, {batchSize: batch, settleMs});

				const settleAt = fanout.free > 0 ? settleEndsAt(cursor, settleMs) : undefined;
				await waker.sleepUntil(Math.min(Date.now() + (unlisten ? PUSHED_POLL_MS : POLL_MS), settleAt ?? Number.POSITIVE_INFINITY));
			}

		} finally {
			// However the loop ends, no run is left going unrecorded.
			fanout.cancelAll();
			await fanout.idle();
			uninstall();
			await unlisten?.().catch(() => undefined);
		}

		report.finish();
		return EXIT_CODES.cancelled;
	});
};

export default watch;

/** LISTEN on PostgreSQL (store.listen); undefined on SQLite or when the listener cannot connect (polling alone then). */
async function listenFor(store: AsyncStore, channelId: string, onEvent: () => void): Promise<Unlisten | undefined> {
	if (!store.listen) return undefined;
	try {
		return await store.listen(channelId, () => onEvent());
	} catch {
		return undefined;
	}
}

/** A sleep that anything can cut short: a notification, a run that ended, Ctrl+C. */
class Waker {
	private pending: (() => void) | undefined;
	private woken = false;

	wake(): void {
		this.woken = true;
		this.pending?.();
	}

	async sleepUntil(at: number): Promise<void> {
		if (this.woken) {
			this.woken = false;
			return;
		}

		await new Promise<void>(resolve => {
			const timer = setTimeout(done, Math.max(0, at - Date.now()));
			const self = this;
			function done() {
				clearTimeout(timer);
				self.pending = undefined;
				resolve();
			}

			this.pending = done;
		});
		this.woken = false;
	}
}
