// The record slice (source/ui/overlays/record.ts, record-view.ts) through the root reducer: the
// record pane's scroll, clamped to the record's lines, and the record full screen (Z).
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import {describe, expect, it} from 'vitest';
import {screenLayout} from '../../../source/ui/layout.js';
import {noLink, RECORD} from '../../../source/ui/features/record/slice.js';
import {webAddress} from '../../../source/ui/open-url.js';
import {scopeOf} from '../../../source/ui/registry.js';
import {initialScreen, reduce} from '../../../source/ui/reducer.js';
import {recordExtent} from '../../../source/ui/record-view.js';
import type {ScreenState} from '../../../source/ui/state.js';
import {effect, fields, idOf, item, listed, plain, run1} from './fixtures.js';

/** The record pane open on the first row, its record read with a body of `lines` lines. */
function withRecord(lines: number): {state: ScreenState; height: number} {
	const opened = reduce(listed(), {type: 'openDetail'});
	const wanted = effect(opened, 'readDetail')!;
	const description = Array.from({length: lines}, (_, index) => `line ${index + 1}`).join('\n');
	const detail = {id: idOf(300), item: item(300, 1, {description}), error: null, flagged: new Set<string>()};
	const state = reduce(opened.state, {type: 'detailLoaded', for: wanted.for, detail}).state;
	return {state, height: screenLayout(state.size, state.overlay, state.pane).paneHeight};
}

/** The list with a url field, its first row's link `address` (a preview value). */
function withLink(address: unknown): ScreenState {
	const state = listed();
	const urlField = {key: 'url', label: 'URL', type: 'url', is_required: false, is_unique: false, config: {}} as const;
	const rows = state.window.rows.map((row, index) => (index === 0 ? {...row, preview: {...row.preview, url: address}} : row));
	return {...state, fields: [...state.fields, urlField], window: {...state.window, rows}};
}

const CASES: {[T in keyof typeof RECORD.events]: () => void} = {
	openLink() {
		// A row with an http(s) link: the whole item is read and its link handed to the opener.
		const linked = reduce(withLink('https://github.com/o/r/issues/1'), {type: 'openLink'});
		expect(linked.effects).toEqual([{kind: 'openLink', id: idOf(300)}]);
		expect(noLink(withLink('https://github.com/o/r/issues/1'))).toBeNull();
		// None, or not http(s): nothing is opened, and the key's disabled reason says why.
		for (const address of [undefined, 'javascript:alert(1)', 'file:///etc/passwd', 'not a link']) {
			const refused = reduce(withLink(address), {type: 'openLink'});
			expect(refused.effects).toEqual([]);
			expect(refused.state.message?.text).toMatch(/^No URL on this record/);
		}

		expect(webAddress(' http://example.com/a b ')).toBe('http://example.com/a%20b');
	},
	linkOpened() {
		const state = listed();
		expect(reduce(state, {type: 'linkOpened', address: 'https://example.com/x', ok: true}).state.message).toEqual({text: 'Opened https://example.com/x', tone: 'ok'});
		// No opener: the link, sanitised, to copy.
		expect(reduce(state, {type: 'linkOpened', address: 'https://example.com/\u001b[31mx', ok: false, why: 'no xdg-open here'}).state.message).toEqual({text: 'no xdg-open here: https://example.com/␛[31mx', tone: 'warn'});
	},
	scrollPane() {
		// Nothing read yet: nothing to scroll.
		expect(reduce(listed(), {type: 'scrollPane', move: {lines: 5}}).state.paneScroll).toBe(0);
		const {state, height} = withRecord(55);
		const down = reduce(state, {type: 'scrollPane', move: {lines: 5}}).state;
		expect(down.paneScroll).toBe(5);
		expect(reduce(reduce(down, {type: 'scrollPane', move: {lines: -5}}).state, {type: 'scrollPane', move: {lines: -5}}).state.paneScroll).toBe(0);
		// Never past the end, so the first move back moves.
		const far = run1(state, ...Array.from({length: 12}, () => ({type: 'scrollPane', move: {lines: 5}}) as const)).state;
		const {total} = recordExtent(far);
		expect(far.paneScroll).toBe(total - height);
		expect(reduce(far, {type: 'scrollPane', move: {lines: -5}}).state.paneScroll).toBe(total - height - 5);
		// A new record starts at its top.
		expect(reduce(down, {type: 'move', rows: 1}).state.paneScroll).toBe(0);
	},
	fullRecord() {
		const {state} = withRecord(55);
		const scrolled = reduce(state, {type: 'scrollPane', move: {lines: 5}}).state;
		const full = reduce(scrolled, {type: 'fullRecord'}).state;
		expect(full.overlay).toEqual({kind: 'record'});
		expect(scopeOf(full.overlay)).toBe('record');
		expect(full.paneScroll).toBe(5);
		// Full screen a page is the body's height less the two marker lines.
		const paged = reduce(full, {type: 'scrollPane', move: {pages: 1}}).state;
		expect(paged.paneScroll).toBe(5 + screenLayout(full.size, full.overlay, full.pane).bodyHeight - 2);
		expect(reduce(paged, {type: 'fullRecord'}).state.overlay).toEqual({kind: 'none'});
		// No record under the cursor: nothing to show.
		const {state: empty} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 0, followUpCount: 0});
		expect(reduce(empty, {type: 'fullRecord'}).state.overlay).toEqual({kind: 'none'});
	},
};

describe('the record slice', () => {
	for (const [name, check] of Object.entries(CASES)) it(name, check);
});

describe('the record full screen', () => {
	const full = () => reduce(withRecord(55).state, {type: 'fullRecord'}).state;
	const press = (state: ScreenState, input: string, key = plain) => reduce(state, {type: 'key', input, key});

	it('goes to the next and the previous record, each read and shown from its top', () => {
		const next = press(full(), ']');
		expect(next.state.overlay).toEqual({kind: 'record'});
		expect(next.state.window.cursor).toBe(1);
		expect(effect(next, 'readDetail')?.id).toBe(idOf(299));
		const arrow = press(full(), '', {...plain, rightArrow: true});
		expect(arrow.state.window.cursor).toBe(1);
		const back = press(next.state, '[');
		expect(back.state.window.cursor).toBe(0);
		expect(back.state.overlay).toEqual({kind: 'record'});
	});

	it('edits the record: e reads it afresh, a field hotkey opens its picker', () => {
		expect(effect(press(full(), 'e'), 'readForEdit')).toEqual({kind: 'readForEdit', itemId: idOf(300)});
		const status = full().hotkeys.status!;
		expect(press(full(), status).state.overlay).toMatchObject({kind: 'fieldEdit', field: {key: 'status'}});
	});

	it('says why a list key does nothing full screen', () => {
		expect(press(full(), 'x').state.message).toEqual({text: 'x is a key of the list: Esc or Z goes back to it first.', tone: 'warn'});
	});
});
