/**
 * Splits query text into terms: whitespace separates them except inside double quotes, so
 * `title:"sync stalls"` and `"two words"` are one term each.
 */

export type Token = {
	/** The term as written, for refusals. */
	raw: string;
	negated: boolean;
	/** The part before the first colon, lowercased; null for a bare word or phrase. */
	key: string | null;
	/** The value with its quotes removed. */
	value: string;
	/** The value had quotes somewhere: no operators or `none` then; quoted text is literal. */
	quoted: boolean;
	/** The value as a list: split at commas outside quotes, quotes removed. */
	parts: string[];
};

export type TokenProblem = {raw: string; message: string};

const KEY = /^[a-z_][a-z0-9_]*$/i;

/** The terms of `text`, or the first one that cannot be read. */
export function tokenize(text: string): Token[] | TokenProblem {
	const tokens: Token[] = [];
	for (const raw of splitTerms(text)) {
		if ((raw.match(/"/g)?.length ?? 0) % 2 === 1) {
			return {raw, message: 'has a quote that is not closed'};
		}

		const token = readTerm(raw);
		if (typeof token === 'string') {
			return {raw, message: token};
		}

		tokens.push(token);
	}

	return tokens;
}

function splitTerms(text: string): string[] {
	const terms: string[] = [];
	let current = '';
	let quoted = false;
	for (const char of text) {
		if (char === '"') {
			quoted = !quoted;
		}

		if (!quoted && /\s/.test(char)) {
			if (current) terms.push(current);
			current = '';
		} else {
			current += char;
		}
	}

	if (current) terms.push(current);
	return terms;
}

function readTerm(raw: string): Token | string {
	const negated = raw.length > 1 && raw.startsWith('-');
	const body = negated ? raw.slice(1) : raw;
	const colon = body.indexOf(':');
	const quote = body.indexOf('"');
	const key = colon > 0 && (quote === -1 || colon < quote) ? body.slice(0, colon) : null;
	if (key !== null && KEY.test(key)) {
		const value = body.slice(colon + 1);
		const unquoted = value.replaceAll('"', '');
		if (unquoted === '') {
			return `needs a value after "${key}:"`;
		}

		return {raw, negated, key: key.toLowerCase(), value: unquoted, quoted: value.includes('"'), parts: splitList(value)};
	}

	const words = body.replaceAll('"', '');
	if (words.trim() === '') {
		return 'is empty';
	}

	return {raw, negated, key: null, value: words, quoted: body.includes('"'), parts: [words]};
}

/** `a,"b, c",d` → a | b, c | d */
function splitList(value: string): string[] {
	const parts: string[] = [];
	let current = '';
	let quoted = false;
	for (const char of value) {
		if (char === '"') {
			quoted = !quoted;
		} else if (char === ',' && !quoted) {
			parts.push(current);
			current = '';
		} else {
			current += char;
		}
	}

	parts.push(current);
	return parts;
}
