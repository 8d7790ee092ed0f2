// Counts as the app and the CLI show them (source/text/format.ts): thousands separated as en-US
// writes them, without ICU's number formatter, and with the noun that agrees.

import {describe, expect, it} from 'vitest';
import {counted, thousands} from '../../source/text/format.js';

describe('thousands', () => {
	it('writes every count as toLocaleString(\'en-US\') does', () => {
		const counts = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 12_345, 100_000, 999_999, 1_000_000, 1_234_567, 10_000_000, 123_456_789, 2 ** 31, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER];
		for (const count of [...counts, ...counts.filter(each => each > 0).map(each => -each)]) expect(thousands(count)).toBe(count.toLocaleString('en-US'));
		for (let count = 0; count < 20_000; count += 7) expect(thousands(count)).toBe(count.toLocaleString('en-US'));
	});

	it('leaves what is not a whole count to the locale formatter', () => {
		for (const value of [1234.5, 0.125, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(thousands(value)).toBe(value.toLocaleString('en-US'));
	});

	it('counts with their noun', () => {
		expect([counted(1, 'item'), counted(1000, 'item'), counted(0, 'follow-up'), counted(2, 'query', 'queries')]).toEqual(['1 item', '1,000 items', '0 follow-ups', '2 queries']);
	});
});
