// The search slice (source/ui/overlays/search.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {reduce} from '../../../source/ui/reducer.js';
import {textState} from '../../../source/ui/text-input.js';
import {SEARCH, searchNote} from '../../../source/ui/features/search/slice.js';
import {kinds, listed, plain, run1} from './fixtures.js';

describe('a bad term in / (defect 1)', () => {
	const typing = (line: string) => run1(listed(), {type: 'openSearch'}, ...[...line].map(input => ({type: 'type' as const, input, key: plain})));
	it('is said while typing, in the CLI\'s words, and Enter keeps the line open on it', () => {
		const typed = typing('colour:red');
		expect(searchNote(typed.state.overlay as never)).toEqual({text: expect.stringMatching(/^bad query term "colour:red": colour is not a field/) as string, tone: 'error'});
		expect(kinds(reduce(typing('colour:re').state, {type: 'type', input: 'd', key: plain}))).toEqual([]);
		const entered = reduce(typed.state, {type: 'submit'});
		expect(entered.state.overlay.kind).toBe('search');
		expect(entered.effects).toEqual([]);
		expect(searchNote(entered.state.overlay as never)?.tone).toBe('error');
		// Fixed: the problem goes, and the line is counted.
		const fixed = run1(entered.state, ...Array.from({length: 10}, () => ({type: 'type' as const, input: '', key: {...plain, backspace: true}})), ...[...'status:new'].map(input => ({type: 'type' as const, input, key: plain})));
		expect(searchNote(fixed.state.overlay as never)).toBeNull();
		expect(fixed.effects.at(-1)).toMatchObject({kind: 'countSearch', where: 'status:new'});
	});
});

const CASES: {[T in keyof typeof SEARCH.events]: () => void} = {
	openSearch() {
		expect(reduce({...listed(), query: {search: 'crash'}}, {type: 'openSearch'}).state.overlay).toEqual({kind: 'search', text: textState('crash')});
	},
	searchCounted() {
		const open = run1(listed(), {type: 'openSearch'}, ...[...'crash'].map(input => ({type: 'type' as const, input, key: plain})));
		// Each key that leaves a line that reads asks for its count; the effect waits for a pause (effects.ts).
		expect(open.effects.at(-1)).toEqual({kind: 'countSearch', text: 'crash', where: 'crash'});
		const counted = reduce(open.state, {type: 'searchCounted', text: 'crash', count: 12}).state;
		expect(searchNote(counted.overlay as never)).toEqual({text: '12 matches', tone: 'info'});
		// A count for a line typed on since is dropped; one that failed (null) shows nothing.
		const older = reduce(open.state, {type: 'searchCounted', text: 'cras', count: 30}).state;
		expect(searchNote(older.overlay as never)).toBeNull();
		expect(searchNote(reduce(open.state, {type: 'searchCounted', text: 'crash', count: null}).state.overlay as never)).toBeNull();
	},
};

describe('the search slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
