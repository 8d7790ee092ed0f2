// The help slice (source/ui/features/help/slice.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {FEATURES} from '../../../source/ui/registry.js';
import {reduce} from '../../../source/ui/reducer.js';
import {listed} from './fixtures.js';

const CASES: {[T in keyof typeof FEATURES.help.events]: () => void} = {
	openHelp() {
		expect(reduce(listed(), {type: 'openHelp'}).state.overlay).toEqual({kind: 'help', scroll: 0});
	},
};

describe('the help slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
