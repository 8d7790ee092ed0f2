// The `/` line's live count effect (source/ui/features/search/effects.ts) on a stepped clock: a count
// that takes longer than half a second (a busy machine, a large PostgreSQL channel) is still shown,
// for the line it was asked for; a SQLite channel past the bound is not counted at all.

import {afterEach, beforeEach, expect, it, vi} from 'vitest';
import type {EffectContext} from '../../../source/ui/features/feature.js';
import {SEARCH_EFFECTS} from '../../../source/ui/features/search/effects.js';
import type {ScreenEvent} from '../../../source/ui/state.js';
import {listed} from './fixtures.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function counting(backend: 'sqlite' | 'postgres', total: number) {
	let answer: (count: number) => void = () => undefined;
	const asked: string[] = [];
	const dispatched: ScreenEvent[] = [];
	const countMatches = async (_channel: string, where: string) => {
		asked.push(where);
		return new Promise<number>(resolve => {
			answer = resolve;
		});
	};

	const context = {
		state: {...listed(), total},
		on: {store: {backend, countMatches}},
		dispatch: (event: ScreenEvent) => dispatched.push(event),
		later: () => undefined,
	} as unknown as EffectContext;
	return {context, asked, dispatched, answer: (count: number) => answer(count)};
}

it('a count that comes after two seconds is shown for its line', async () => {
	const count = counting('postgres', 5_000_000);
	SEARCH_EFFECTS.countSearch({kind: 'countSearch', text: 'crash', where: 'crash'}, count.context);
	await vi.advanceTimersByTimeAsync(200);
	expect(count.asked).toEqual(['crash']);
	await vi.advanceTimersByTimeAsync(2_000);
	expect(count.dispatched).toEqual([]);
	count.answer(12);
	await vi.advanceTimersByTimeAsync(0);
	expect(count.dispatched).toEqual([{type: 'searchCounted', text: 'crash', count: 12}]);
});

it('a SQLite channel past the bound is not counted on the screen\'s thread', async () => {
	const count = counting('sqlite', 300_000);
	SEARCH_EFFECTS.countSearch({kind: 'countSearch', text: 'crash', where: 'crash'}, count.context);
	await vi.advanceTimersByTimeAsync(1_000);
	expect(count.asked).toEqual([]);
});
