// Batches, and the worst outcome's exit code.

import {describe, expect, it} from 'vitest';
import {isSingleRun, splitIntoBatches} from '../../source/codex/batches.js';
import {EXIT_CODES, exitCodeOf, OUTCOME_ORDER, worstOutcome} from '../../source/commands/run.js';
import {OUTCOMES} from '../../source/codex/outcome.js';

describe('splitIntoBatches', () => {
	it('cuts the items in order into batches of N, the last one shorter', () => {
		const ids = Array.from({length: 23}, (_, index) => `it_${index}`);
		const batches = splitIntoBatches(ids, 10);
		expect(batches.map(batch => batch.length)).toEqual([10, 10, 3]);
		expect(batches.flat()).toEqual(ids);
	});

	it('gives an item named twice to one batch only', () => {
		expect(splitIntoBatches(['a', 'b', 'a', 'c', 'b'], 2)).toEqual([['a', 'b'], ['c']]);
	});

	it('no items, no batches; a batch of one per item at size 1', () => {
		expect(splitIntoBatches([], 10)).toEqual([]);
		expect(splitIntoBatches(['a', 'b'], 1)).toEqual([['a'], ['b']]);
	});

	it('refuses a size below 1 or not whole', () => {
		expect(() => splitIntoBatches(['a'], 0)).toThrow(RangeError);
		expect(() => splitIntoBatches(['a'], 1.5)).toThrow(RangeError);
	});

	it('one run as before: no items, or at most one batch of them', () => {
		expect(isSingleRun(0, 10)).toBe(true);
		expect(isSingleRun(10, 10)).toBe(true);
		expect(isSingleRun(11, 10)).toBe(false);
	});
});

describe('the worst outcome decides the exit code', () => {
	it('orders every outcome, each once', () => {
		expect([...OUTCOME_ORDER].sort()).toEqual([...OUTCOMES].sort());
	});

	it('cancelled beats everything; auth beats failure; failure beats a timeout; a timeout beats partial; partial beats ok', () => {
		expect(worstOutcome(['ok', 'partial', 'ok'])).toBe('partial');
		expect(worstOutcome(['partial', 'timed_out'])).toBe('timed_out');
		expect(worstOutcome(['timed_out', 'failed', 'ok'])).toBe('failed');
		expect(worstOutcome(['failed', 'auth_required'])).toBe('auth_required');
		expect(worstOutcome(['auth_required', 'cancelled', 'ok'])).toBe('cancelled');
		expect(exitCodeOf(['ok', 'failed', 'partial'])).toBe(EXIT_CODES.failed);
		expect(exitCodeOf(['ok', 'partial'])).toBe(3);
		expect(exitCodeOf(['ok', 'ok'])).toBe(0);
	});

	it('no runs exit 0', () => {
		expect(worstOutcome([])).toBeUndefined();
		expect(exitCodeOf([])).toBe(0);
	});
});
