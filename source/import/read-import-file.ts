// Opens a sift import file for streaming: the channel, then the items one at a time.

import {JsonScanner} from './json-scanner.js';

export {ImportFileError} from './json-scanner.js';

export type ImportFile = {channel: unknown; items: Iterable<unknown>; close(): void};

/**
 * Opens an import file ({"channel": ..., "items": [...]}, keys in either order) for streaming:
 * the channel is parsed up front, the items one at a time as the importer asks for them.
 */
export function readImportFile(path: string): ImportFile {
	const scanner = new JsonScanner(path);
	try {
		const {channel, itemsAt} = scanTopLevel(scanner);
		return {channel, items: itemsFrom(scanner, itemsAt), close: () => scanner.close()};
	} catch (error) {
		scanner.close();
		throw error;
	}
}

function scanTopLevel(scanner: JsonScanner): {channel: unknown; itemsAt: number} {
	let channel: unknown;
	let itemsAt: number | undefined;
	// Skipped, as in every format (clean-text.ts).
	scanner.skipByteOrderMark();
	scanner.expect('{');
	if (!scanner.accept('}')) {
		do {
			const key = scanner.value('a key');
			scanner.expect(':');
			if (key === 'channel' && channel === undefined) {
				channel = scanner.value('"channel"');
			} else if (key === 'items' && itemsAt === undefined) {
				itemsAt = scanner.position;
				scanner.skip();
			} else {
				scanner.fail(`unexpected key ${JSON.stringify(key)}; an import file has "channel" and "items" once each`);
			}
		} while (scanner.accept(','));

		scanner.expect('}');
	}

	if (scanner.peek() !== undefined) {
		scanner.fail('unexpected text after the closing brace');
	}

	if (channel === undefined || itemsAt === undefined) {
		scanner.fail(`the file needs both "channel" and "items" (missing ${channel === undefined ? '"channel"' : '"items"'})`);
	}

	return {channel, itemsAt};
}

function* itemsFrom(scanner: JsonScanner, itemsAt: number): Generator<unknown> {
	scanner.seek(itemsAt);
	scanner.expect('[');
	if (scanner.accept(']')) {
		return;
	}

	let index = 0;
	do {
		yield scanner.value(`items[${index}]`);
		index++;
	} while (scanner.accept(','));

	scanner.expect(']');
}
