// `sift add` without the channel's key: the next one in the pattern its items' keys follow
// (PREFIX-digits, such as BUG-0042 → BUG-1001 after BUG-1000). The key is the first unique text
// field. No pattern (mixed prefixes, free text, no items), no number: the store's own rules stand.

import type {AsyncStore, Field} from '../../store/index.js';

/** How many of the newest items, and of the highest keys, the pattern is read from. */
const SAMPLE = 20;
const PATTERN = /^([A-Za-z][A-Za-z0-9_]*-)(\d+)$/;

/** The key field `add` numbers: the first unique text field (the ticket). */
export const keyFieldOf = (fields: Field[]): Field | undefined => fields.find(field => field.type === 'text' && field.is_unique);

/** What the sampled keys share: their prefix, the digits' width, the highest number; null when they do not share one. */
function patternOf(keys: string[]): {prefix: string; width: number; highest: number} | null {
	let prefix: string | undefined;
	let width = 0;
	let highest = -1;
	for (const key of keys) {
		const match = PATTERN.exec(key);
		if (!match || (prefix !== undefined && match[1] !== prefix)) return null;
		prefix = match[1]!;
		width = Math.max(width, match[2]!.length);
		highest = Math.max(highest, Number(match[2]));
	}

	return prefix === undefined ? null : {prefix, width, highest};
}

/**
 * The next key for a new item of the channel, `after` numbers past the highest seen (a retry after
 * a concurrent add took one); null when the keys follow no PREFIX-digits pattern.
 */
export async function nextKey(store: AsyncStore, channelId: string, field: Field, after = 0): Promise<string | null> {
	const newest = await store.listPage(channelId, {limit: SAMPLE});
	const highest = await store.listPage(channelId, {limit: SAMPLE, sort: `-${field.key}`});
	const keys = [...newest.items, ...highest.items].map(item => item.preview[field.key]).filter(value => value !== null && value !== undefined);
	if (keys.length === 0 || keys.some(key => typeof key !== 'string')) return null;
	const pattern = patternOf(keys as string[]);
	if (!pattern) return null;
	return `${pattern.prefix}${String(pattern.highest + 1 + after).padStart(pattern.width, '0')}`;
}
