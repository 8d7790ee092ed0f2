// `sift export`: every item in full (sift, jsonl or csv), read by cursor a page at a time, to
// standard output or atomically to `--out`.

import {once} from 'node:events';
import type {Writable} from 'node:stream';
import {items} from '../../store/page-stream.js';
import {SMALL_PAGE_CACHE_KIB} from '../../store/index.js';
import {openAtomicStream, type AtomicStream} from '../config/atomic-file.js';
import {EXPORT_FORMATS, exportWriter, type ExportFormat} from '../export/formats.js';
import {sanitize} from '../text/sanitize.js';
import {channelOf, withStore} from './common.js';
import {UsageError, type Command, type CommandContext} from './context.js';
import {counted} from '../text/format.js';
import {boundHeap} from './bounded-heap.js';

function formatOf(context: CommandContext): ExportFormat {
	const format = context.flags.format ?? 'sift';
	if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
		throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(format).slice(0, 60)}`);
	}

	return format as ExportFormat;
}

/** Standard output as an AtomicStream: written as it comes (respecting back-pressure); commit and abort do nothing. */
function stdoutStream(stdout: Writable, terminal: boolean): AtomicStream {
	return {
		async write(chunk) {
			// To a terminal, control characters show escaped (CSV is raw text); redirect it for the exact bytes.
			if (!stdout.write(terminal ? sanitize(chunk, {multiline: true}) : chunk)) await once(stdout, 'drain');
		},
		async commit() {},
		abort() {},
	};
}


/**
 * `sift export`: every item of a channel (or those --where matches) with every value in full, read
 * page by page by cursor so memory stays flat at any size; --out writes the file whole or not at all.
 */
const command: Command = async context => {
	const format = formatOf(context);
	if (context.flags.csvRaw && format !== 'csv') throw new UsageError('--csv-raw goes with --format csv');
	if (context.input.length > 0) {
		throw new UsageError(`export takes no arguments (got ${JSON.stringify(context.input[0]).slice(0, 60)}); use --out FILE to write a file`);
	}

	boundHeap();
	return withStore(context, async store => {
		const channelId = await channelOf(store, context);
		const channel = await store.getChannel(channelId);
		// A bad --where is refused before any file is made (one item read, not a count of them all).
		if (context.flags.where !== undefined) await store.readItems(channelId, {where: context.flags.where, limit: 1});
		const terminal = (context.stdout as Writable & {isTTY?: boolean}).isTTY === true;
		const out = context.flags.out === undefined ? stdoutStream(context.stdout, terminal && format === 'csv') : openAtomicStream(context.flags.out);
		const writer = exportWriter(format, channel, {csvRaw: context.flags.csvRaw === true});
		let count = 0;
		try {
			await out.write(writer.head());
			for await (const item of items(store, channelId, {where: context.flags.where})) {
				await out.write(writer.item(item, count));
				count++;
			}

			await out.write(writer.tail());
			await out.commit();
		} catch (error) {
			out.abort();
			throw error;
		}

		if (context.flags.out !== undefined) {
			context.stderr.write(`exported ${counted(count, 'item')} of channel ${channelId} to ${sanitize(context.flags.out)} (${format})\n`);
		}

		return 0;
		// An export reads each page once: at 1M items (2 GB) the usual 16 MiB cache was all resident (docs/architecture.md, memory).
	}, {pageCacheKiB: SMALL_PAGE_CACHE_KIB});
};

export default command;
