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

/**
 * The first key that appears twice in one object of a valid JSON text, or undefined. JSON.parse
 * silently keeps the last of two equal keys; an import refuses the ambiguity instead. One pass,
 * no recursion; strings are skipped with indexOf.
 */
export function findDuplicateKey(text: string): string | undefined {
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
