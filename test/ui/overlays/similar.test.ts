// The Similar pane's slice (source/ui/features/similar) through the root reducer, one case per
// event: opened on the row under the cursor, its candidates read (a late read for another record
// dropped), `d` as the record's edit of its duplicate relation (and said to be off in a channel
// without one), `n` as a not-duplicate mark and the list read again, Enter opening a candidate.

import {describe, expect, it} from 'vitest';
import type {Field, SimilarHit} from '../../../store/index.js';
import {SIMILAR} from '../../../source/ui/features/similar/slice.js';
import {reduce} from '../../../source/ui/reducer.js';
import {scopeOf} from '../../../source/ui/registry.js';
import type {ScreenState} from '../../../source/ui/state.js';
import {effect, fields, idOf, kinds, listed, plain} from './fixtures.js';

const DUPLICATE_OF: Field = {key: 'duplicate_of', label: 'Duplicate of', type: 'relation', is_required: false, is_unique: false, config: {channel_id: 'bugs', duplicate_status: 'new'}};

const hit = (n: number, score: number): SimilarHit => ({id: idOf(n), version: 1, updated_at: '2026-01-01T00:00:00.000Z', preview: {ticket: `BUG-${n}`, title: `Report ${n}`}, score, shared_terms: ['libcsv']});

/** The pane open on the row under the cursor (BUG-300), its candidates read. */
function similarOpen(withRelation = true): ScreenState {
	const base = listed();
	const state = {...base, fields: withRelation ? [...fields, DUPLICATE_OF] : fields};
	const open = reduce(state, {type: 'openSimilar'}).state;
	return reduce(open, {type: 'similarLoaded', itemId: idOf(300), hits: [hit(120, 9.5), hit(121, 4.2)]}).state;
}

const key = (state: ScreenState, input: string, named: Partial<typeof plain> = {}) => reduce(state, {type: 'key', input, key: {...plain, ...named}});

const CASES: {[T in keyof typeof SIMILAR.events]: () => void} = {
	openSimilar() {
		const opened = reduce(listed(), {type: 'openSimilar'});
		expect(opened.state.overlay).toMatchObject({kind: 'similar', target: {id: idOf(300), name: 'BUG-300'}, cursor: 0});
		expect(scopeOf(opened.state.overlay)).toBe('similar');
		expect(opened.state.similar.hits).toBeNull();
		expect(effect(opened, 'loadSimilar')).toEqual({kind: 'loadSimilar', itemId: idOf(300)});
		// S on the list sends it; Esc closes.
		expect(kinds(key(listed(), 'S'))).toEqual(['loadSimilar']);
		expect(key(similarOpen(), '', {escape: true}).state.overlay).toEqual({kind: 'none'});
	},
	similarLoaded() {
		const state = similarOpen();
		expect(state.similar.hits!.map(each => each.id)).toEqual([idOf(120), idOf(121)]);
		// A read for another record (the pane was closed and opened on another one) is dropped.
		expect(reduce(state, {type: 'similarLoaded', itemId: idOf(7), hits: []}).state.similar.hits).toHaveLength(2);
		// A read after a mark keeps the cursor in the shorter list, and says the note.
		const moved = key(state, 'j').state;
		const shorter = reduce(moved, {type: 'similarLoaded', itemId: idOf(300), hits: [hit(120, 9.5)], note: 'marked'}).state;
		expect(shorter.overlay).toMatchObject({cursor: 0});
		expect(shorter.message).toEqual({text: 'marked', tone: 'ok'});
	},
	markSimilarDuplicate() {
		const marked = key(similarOpen(), 'd');
		expect(effect(marked, 'edit')).toEqual({kind: 'edit', request: {itemId: idOf(300), name: 'BUG-300', key: 'duplicate_of', value: idOf(120), before: null, version: 1, origin: 'picker'}});
		// Without a duplicate relation, d says why and writes nothing.
		const off = key(similarOpen(false), 'd');
		expect(off.effects).toEqual([]);
		expect(off.state.message?.text).toContain('no duplicate relation');
	},
	markNotDuplicate() {
		const state = key(similarOpen(), 'j').state;
		const marked = key(state, 'n');
		expect(effect(marked, 'markNotDuplicate')).toEqual({kind: 'markNotDuplicate', itemId: idOf(300), otherId: idOf(121), label: 'BUG-300 and BUG-121'});
		// A second n while the first is written does nothing but say so.
		const again = key(marked.state, 'n');
		expect(again.effects).toEqual([]);
		expect(again.state.message?.text).toContain('being written');
	},
	notDuplicateMarked() {
		const marking = key(similarOpen(), 'n').state;
		const done = reduce(marking, {type: 'notDuplicateMarked', ok: true, message: 'BUG-300 and BUG-120: not duplicates'});
		expect(effect(done, 'loadSimilar')).toEqual({kind: 'loadSimilar', itemId: idOf(300), note: 'BUG-300 and BUG-120: not duplicates'});
		expect(done.state.similar.marking).toBeNull();
		const refused = reduce(marking, {type: 'notDuplicateMarked', ok: false, message: 'read-only store'});
		expect(refused.effects).toEqual([]);
		expect(refused.state.message).toEqual({text: 'Not marked: read-only store', tone: 'error'});
	},
	reloadSimilar() {
		expect(effect(key(similarOpen(), 'r'), 'loadSimilar')).toEqual({kind: 'loadSimilar', itemId: idOf(300)});
	},
	openSimilarCandidate() {
		const opened = key(key(similarOpen(), 'j').state, '', {return: true});
		expect(opened.state.overlay).toEqual({kind: 'none'});
		expect(opened.state.pane).toBe('detail');
		expect(effect(opened, 'openCandidate')).toEqual({kind: 'openCandidate', id: idOf(121), name: 'BUG-121'});
	},
};

describe('the Similar pane slice', () => {
	for (const [name, check] of Object.entries(CASES)) it(name, check);
});
