// Streams a complete import file ({"channel": ..., "items": [...]}, the import format of docs/reference.md#command-line) for the demo
// bug channel to disk, item by item, without holding the document in memory.

import {createWriteStream} from 'node:fs';
import {once} from 'node:events';
import {finished} from 'node:stream/promises';
import {bugsChannel, generateBugItems, type GenerateOptions} from './generate.js';

const CHUNK_CHARS = 64 * 1024;

export async function writeImportFile(path: string, options: GenerateOptions): Promise<void> {
	// Validate (and let the generator throw) before creating the file.
	const items = generateBugItems(options);
	const first = items.next();

	const stream = createWriteStream(path, {encoding: 'utf8'});
	let failure: unknown;
	stream.on('error', error => {
		failure ??= error;
	});

	let buffer = `{"channel":${JSON.stringify(bugsChannel)},\n"items":[`;
	const flush = async (): Promise<void> => {
		if (failure !== undefined) {
			throw failure;
		}
		const ok = stream.write(buffer);
		buffer = '';
		if (!ok) {
			// once() rejects if the stream emits 'error' while we wait.
			await once(stream, 'drain');
		}
	};

	try {
		let separator = '\n';
		for (let step = first; !step.done; step = items.next()) {
			buffer += separator + JSON.stringify(step.value);
			separator = ',\n';
			if (buffer.length >= CHUNK_CHARS) {
				await flush();
			}
		}
		buffer += '\n]}\n';
		await flush();
		stream.end();
		await finished(stream);
	} catch (error) {
		stream.destroy();
		throw failure ?? error;
	}
	if (failure !== undefined) {
		throw failure;
	}
}
