// The record-edit slice (source/ui/overlays/record-edit.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {RECORD_EDIT} from '../../../source/ui/overlays/record-edit.js';
import {field, idOf, editing} from './fixtures.js';

const CASES: {[T in keyof typeof RECORD_EDIT.events]: () => void} = {
	editOpened() {
		expect(editing().overlay).toMatchObject({kind: 'edit', itemId: idOf(300), name: 'BUG-300', version: 3, stage: 'field'});
	},
};

describe('the record-edit slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});
