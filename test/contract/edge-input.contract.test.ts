// Input one backend could keep and the other could not gets one answer on both: text with a NUL
// character or a lone UTF-16 surrogate is refused naming the field (PostgreSQL's jsonb cannot hold
// either; SQLite could), and a query has a bounded number of terms (SQLite's expression tree has a
// depth limit, PostgreSQL's planner time grows with every term).

import {describe, expect, it} from 'vitest';
import {notePgOff} from '../support/pg.js';
import {agent, human, kitChannel} from '../store/helpers.js';
import {BACKENDS, refusalOf, stateOf, storesOn, type Backend} from './backends.js';

/** The most terms a query takes, as docs/reference.md states it. */
const MAX_QUERY_TERMS = 100;
const NUL = 'a\u0000b';
const LONE_HIGH = 'a\uD800b';
const LONE_LOW = '\uDC00';

const nulMessage = (key: string) => `values.${key} must not contain the NUL character (U+0000), which the store cannot keep`;
const surrogateMessage = (key: string) => `values.${key} must be well-formed Unicode: it holds a lone UTF-16 surrogate`;

describe.each(BACKENDS)('edge input on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh} = storesOn(backend);
	/** A new store with the kit channel and `items`, closed after the test. */
	const kit = async (items: unknown[] = []) => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items});
		return store;
	};

	describe('text no store can keep', () => {
		it('an edit with a NUL or a lone surrogate in any value, nested or as a key, is refused naming every such field, changing nothing', async () => {
			const store = await kit([{values: {title: 'first'}}]);
			const id = (await store.listPage('kit')).items[0]!.id;
			const before = await stateOf(store, 'kit');
			const values = {title: NUL, summary: LONE_HIGH, notes: LONE_LOW, meta: {deep: [{[`k${NUL}`]: 1}]}, tags: [`ui${LONE_HIGH}`]};
			for (const actor of [human, agent()]) {
				expect(await refusalOf(() => store.editItem({channelId: 'kit', itemId: id, values, actor}))).toEqual({error: 'validation_failed', fields: [
					{key: 'title', message: nulMessage('title')},
					{key: 'summary', message: surrogateMessage('summary')},
					{key: 'notes', message: surrogateMessage('notes')},
					{key: 'meta', message: nulMessage('meta')},
					{key: 'tags', message: surrogateMessage('tags')},
				]});
			}

			// Refused before the transaction: not even an agent's follow-up keeps the text.
			expect(await stateOf(store, 'kit')).toEqual(before);
		});

		it('an idempotency key with such text is refused before anything is kept', async () => {
			const store = await kit([{values: {title: 'first'}}]);
			const id = (await store.listPage('kit')).items[0]!.id;
			for (const key of [NUL, LONE_HIGH]) {
				const refusal = await refusalOf(() => store.editItem({channelId: 'kit', itemId: id, values: {title: 'x'}, actor: agent(), idempotencyKey: key}));
				expect(refusal.error).toBe('invalid_argument');
				expect(JSON.stringify(refusal)).toContain('idempotency_key must be a string without NUL characters or lone UTF-16 surrogates');
			}

			expect((await store.readItem('kit', id)).version).toBe(1);
		});

		it('a create and an import are refused the same way', async () => {
			const store = await kit();
			expect(await refusalOf(() => store.createItem('kit', {title: LONE_HIGH}, human))).toEqual({error: 'validation_failed', fields: [{key: 'title', message: surrogateMessage('title')}]});
			const channel = {id: 'other', name: 'Other', fields: [{key: 'title', label: 'Title', type: 'text'}]};
			const refusal = await refusalOf(() => store.importChannel({channel, items: [{values: {title: 'fine'}}, {values: {title: NUL}}]}));
			expect(refusal).toEqual({error: 'invalid_import', message: `items[1]: ${nulMessage('title')}`});
			expect((await store.listChannelNames()).map(row => row.id)).toEqual(['kit']);
		});

		it('well-formed text beyond the BMP, and other control characters, are kept as written', async () => {
			const store = await kit([{values: {title: 'first'}}]);
			const id = (await store.listPage('kit')).items[0]!.id;
			const written = {title: 'bug \u{1F41B} \u0001\t', meta: {'\u{1F600}': '\u001f'}};
			await store.editItem({channelId: 'kit', itemId: id, values: written, actor: human});
			expect((await store.readItem('kit', id)).values).toMatchObject(written);
		});
	});

	describe('long queries', () => {
		const words = (count: number) => Array.from({length: count}, (_, index) => `w${index % 10}`).join(' ');

		it(`a query of ${MAX_QUERY_TERMS} terms is answered; one more, or 994 words, is a bad_query naming the bound`, async () => {
			const store = await kit([{values: {title: 'w0 w1 w2 w3 w4', summary: 'w5 w6 w7 w8 w9'}}]);
			expect((await store.listPage('kit', {where: words(MAX_QUERY_TERMS)})).items).toHaveLength(1);
			const lists = Array.from({length: MAX_QUERY_TERMS}, (_, index) => (index % 2 === 0 ? '-status:new,in_progress' : 'title:w0,w1,w2')).join(' ');
			expect((await store.listPage('kit', {where: lists})).items).toHaveLength(1);
			// 994 one-letter words: the longest such query the 2000-character bound on query text lets through.
			for (const [count, text, term] of [[MAX_QUERY_TERMS + 1, words(MAX_QUERY_TERMS + 1), `w${MAX_QUERY_TERMS % 10}`], [994, Array.from({length: 994}, () => 'x').join(' '), 'x']] as const) {
				const refusal = {error: 'bad_query', term, message: `a query takes at most ${MAX_QUERY_TERMS} terms, got ${count}`};
				expect(await refusalOf(() => store.listPage('kit', {where: text}))).toEqual(refusal);
				expect(await refusalOf(() => store.countMatches('kit', text))).toEqual(refusal);
			}
		});
	});
});
