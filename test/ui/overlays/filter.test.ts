// The filter slice (source/ui/overlays/filter.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {FILTER} from '../../../source/ui/features/filter/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {listed} from './fixtures.js';

const CASES: {[T in keyof typeof FILTER.events]: () => void} = {
	openFilter() {
		expect(reduce(listed(), {type: 'openFilter'}).state.overlay).toEqual({kind: 'filter', stage: 'field', cursor: 0, field: null});
	},
};

describe('the filter slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
