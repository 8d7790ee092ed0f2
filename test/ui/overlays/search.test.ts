// The search slice (source/ui/overlays/search.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {SEARCH} from '../../../source/ui/overlays/search.js';
import {reduce} from '../../../source/ui/reducer.js';
import {textState} from '../../../source/ui/text-input.js';
import {listed} from './fixtures.js';

const CASES: {[T in keyof typeof SEARCH.events]: () => void} = {
	openSearch() {
		expect(reduce({...listed(), query: {search: 'crash'}}, {type: 'openSearch'}).state.overlay).toEqual({kind: 'search', text: textState('crash')});
	},
};

describe('the search slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
