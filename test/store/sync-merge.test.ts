// The sync engine's pure rules (store/sync/merge.ts): canonical values, and the three-way merge of
// one field against its base, for scalars (a conflict when both sides changed it differently) and
// sets (per element, never a conflict).

import {describe, expect, it} from 'vitest';
import {canonicalJson, mergeField, mergeSets} from '../../store/sync/merge.js';

describe('canonicalJson', () => {
	it('sorts object keys, and a set\'s elements, so equal values have one text', () => {
		expect(canonicalJson({b: 1, a: [2, 1]})).toBe('{"a":[2,1],"b":1}');
		expect(canonicalJson(['ui', 'api', 'ui'], 'set')).toBe('["api","ui"]');
		expect(canonicalJson([], 'set')).toBe('null');
		expect(canonicalJson(undefined)).toBe('null');
		expect(canonicalJson([{y: 1, x: 2}], 'set')).toBe('[{"x":2,"y":1}]');
	});
});

describe('mergeField, scalar', () => {
	it('theirs unchanged: nothing, our change stays queued', () => {
		expect(mergeField('scalar', 'a', 'ours', 'a')).toEqual({});
	});

	it('ours unchanged: theirs is written and becomes the base', () => {
		expect(mergeField('scalar', 'a', 'a', 'theirs')).toEqual({write: 'theirs', base: 'theirs'});
	});

	it('both the same: agreed, the base moves and the entry drops', () => {
		expect(mergeField('scalar', 'a', 'same', 'same')).toEqual({base: 'same', drop: true});
	});

	it('both different: a conflict, nothing written', () => {
		expect(mergeField('scalar', 'a', 'ours', 'theirs')).toEqual({conflict: true});
	});

	it('null and a missing value are the same; objects compare by canonical JSON', () => {
		expect(mergeField('scalar', null, undefined, null)).toEqual({});
		expect(mergeField('scalar', {a: 1, b: 2}, {b: 2, a: 1}, {a: 3})).toEqual({write: {a: 3}, base: {a: 3}});
	});
});

describe('mergeField, set', () => {
	it('(o ∩ t) ∪ (o − b) ∪ (t − b): both sides\' additions kept', () => {
		expect(mergeField('set', ['x'], ['x', 'ours'], ['x', 'theirs'])).toEqual({write: ['ours', 'theirs', 'x'], base: ['theirs', 'x'], queue: ['ours', 'theirs', 'x']});
	});

	it('removed on one side and kept on the other: removed', () => {
		expect(mergeSets(['a', 'b'], ['a'], ['a', 'b'])).toEqual(['a']);
		expect(mergeField('set', ['a', 'b'], ['b'], ['a'])).toEqual({write: null, base: ['a'], queue: null});
	});

	it('order and repeats do not count as changes', () => {
		expect(mergeField('set', ['a', 'b'], ['b', 'a'], ['b', 'a', 'a'])).toEqual({});
	});

	it('a merge equal to theirs drops our entry; one equal to ours writes nothing', () => {
		expect(mergeField('set', ['a'], ['a', 'b'], ['a', 'b', 'c'])).toEqual({write: ['a', 'b', 'c'], base: ['a', 'b', 'c'], drop: true});
		expect(mergeField('set', ['a'], ['a', 'b', 'c'], ['a', 'b'])).toEqual({base: ['a', 'b'], queue: ['a', 'b', 'c']});
	});
});
