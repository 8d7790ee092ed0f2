// `sift watch`: runs the watch loop (`codex/watch-loop.ts`) with the same fan-out as `sift run`,
// says on stderr when the events cannot be read, and cancels and records its runs on Ctrl+C.

import {DEFAULT_BATCH_SIZE, DEFAULT_PARALLEL} from '../codex/batches.js';
import {Fanout} from '../codex/fanout.js';
import {handleTerminationSignals} from '../codex/group.js';
import {resolveStateDir} from '../codex/paths.js';
import {DEFAULT_SETTLE_MS, DEFAULT_WATCH_INSTRUCTION, emptyCursor, loadWatchCursor, parseSettle, watchCursorPath} from '../codex/watch.js';
import {codexReady} from '../codex/ready.js';
import {readFailedText, startWatchLoop} from '../codex/watch-loop.js';
import {WatchLockedError} from '../codex/watch-lock.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, serverEndpoint, withStore} from './common.js';
import {UsageError, type Command} from './context.js';
import {autoAcceptOf, codexRunOptions, EXIT_CODES, reportRuns} from './run.js';
import {batchStarter} from '../codex/run-token.js';


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
		// Saved by the loop once it holds the cursor's lock and knows it is this channel's.
		const cursor = loadWatchCursor(file) ?? emptyCursor(await store.latestSequence(channelId));
		const runOptions = {...codexRunOptions(context, instruction, channelId), autoAcceptAbove: await autoAcceptOf(context)};
		// No item is taken by a watch whose runs could not start.
		const refusal = await codexReady(runOptions);
		if (refusal) {
			context.stderr.write(`sift: ${sanitize(refusal.error ?? refusal.outcome)}; nothing was taken\n`);
			return EXIT_CODES[refusal.outcome];
		}

		const fanout = new Fanout({parallel, start: batchStarter(store, runOptions, endpoint)});
		const report = reportRuns(context, fanout, {channelId});
		const loop = await startWatchLoop({
			store, channelId, where, file, cursor, fanout, batchSize: batch, settleMs,
			onReadFailed(error, retryMs) {
				context.stderr.write(`sift: ${readFailedText(error, retryMs)}\n`);
			},
			onRestarted(why) {
				context.stderr.write(`sift: ${sanitize(why)}\n`);
			},
		}).catch((error: unknown) => {
			// Another watch holds the cursor: refused, nothing taken.
			if (error instanceof WatchLockedError) throw new UsageError(error.message);
			throw error;
		});
		const uninstall = handleTerminationSignals(() => {
			fanout.cancelAll();
			loop.stop();
		});
		context.stderr.write(`sift: watching ${sanitize(channelId)}${where === undefined ? '' : ` for ${sanitize(JSON.stringify(where))}`} after event ${loop.startCursor.sequence} (batches of ${batch}, ${parallel} at once, settle ${settleMs} ms${loop.pushed ? ', woken by PostgreSQL notifications' : ''}); Ctrl+C stops\n`);
		try {
			await loop.done;
		} finally {
			// However the loop ends, no run is left going unrecorded.
			loop.stop();
			fanout.cancelAll();
			await fanout.idle();
			uninstall();
		}

		report.finish();
		if (loop.channelGone()) {
			context.stderr.write(`sift: watch stopped: the channel ${sanitize(channelId)} is gone; its cursor is removed\n`);
			return 1;
		}

		const halt = loop.halted();
		if (halt) {
			context.stderr.write(`sift: watch stopped: ${sanitize(halt.error ?? halt.outcome)}; its items wait for the next sift watch\n`);
			return EXIT_CODES[halt.outcome];
		}

		return EXIT_CODES.cancelled;
	});
};

export default watch;
