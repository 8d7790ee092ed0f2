// SpillMap (store/spill-map.ts): what an import keeps per row (each unique value's holder) moves
// from the heap to a temporary SQLite database past a size, and answers the same before and after;
// a duplicate key past that size is still refused naming both rows.

import {describe, expect, it} from 'vitest';
import {checkNewRows, type Channel} from '../../store/index.js';
import {SPILL_AT, SpillMap} from '../../store/spill-map.js';

describe('SpillMap', () => {
	it('answers the same once its entries have moved to disk', () => {
		const map = new SpillMap(3);
		for (const n of [1, 2, 3]) map.set(`"K-${n}"`, `line ${n + 1}`);
		expect(map.spilled).toBe(false);
		map.set('"K-4"', 'line 5');
		expect(map.spilled).toBe(true);
		expect([1, 2, 3, 4].map(n => map.get(`"K-${n}"`))).toEqual(['line 2', 'line 3', 'line 4', 'line 5']);
		expect(map.get('"K-5"')).toBeUndefined();
		map.set('"K-2"', 'line 9');
		expect(map.get('"K-2"')).toBe('line 9');
		map.clear();
		expect(map.spilled).toBe(false);
		expect(map.get('"K-1"')).toBeUndefined();
		map.set('"K-1"', 'line 2');
		expect(map.get('"K-1"')).toBe('line 2');
	});

	it('keeps keys exactly: case, Unicode and JSON quoting are distinct keys', () => {
		const map = new SpillMap(0);
		map.set('"a"', 'x');
		map.set('"A"', 'y');
		map.set('"ä"', 'z');
		map.set('1', 'n');
		expect(map.spilled).toBe(true);
		expect([map.get('"a"'), map.get('"A"'), map.get('"ä"'), map.get('1'), map.get('"1"')]).toEqual(['x', 'y', 'z', 'n', undefined]);
	});
});

const channel: Channel = {id: 'records', name: 'Records', fields: [{key: 'key', label: 'Key', type: 'text', is_unique: true, is_required: true}]} as unknown as Channel;

describe('the check pass past the spill', () => {
	it('refuses a key repeated after SPILL_AT rows, naming the row that holds it', () => {
		const rows = function * () {
			for (let n = 0; n <= SPILL_AT + 10; n++) yield {values: {key: `K-${n}`}, at: `line ${n + 2}`};
			yield {values: {key: 'K-7'}, at: 'line 999999'};
		};

		const check = checkNewRows(channel, rows());
		expect(check).toMatchObject({count: SPILL_AT + 12, refused: 1});
		expect(check.refusals[0]!.at).toBe('line 999999');
		expect(JSON.stringify(check.refusals[0]!.error)).toContain('line 9');
	});
});
