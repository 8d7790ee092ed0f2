// The list slice (source/ui/overlays/list.ts) through the root reducer: each of its events.
// CASES is typed over the slice's events, so an event added to it without a test does not compile.

import type {Key} from 'ink';
import {describe, expect, it} from 'vitest';
import {tabCounts} from '../../../source/ui/model/views.js';
import {DEFAULT_VIEWS} from '../../../source/config/schema.js';
import type {ScreenState, Transition} from '../../../source/ui/state.js';
import {LIST} from '../../../source/ui/features/list/slice.js';
import {syncSummary} from '../../../source/ui/sync-marks.js';
import {initialScreen, listRows, reduce} from '../../../source/ui/reducer.js';
import {fields, plain, idOf, page, item, listed, effect, run1} from './fixtures.js';

const CASES: {[T in keyof typeof LIST.events]: () => void} = {
	move() {
		const state = listed();
		expect(reduce(state, {type: 'move', rows: 1}).state.window.cursor).toBe(1);
		expect(reduce(state, {type: 'move', rows: -1}).state.window.cursor).toBe(0);
		// Past what is loaded: as far as it goes, the rest once the next page is in.
		const more = {...listed(50, true), loading: null};
		const moved = reduce(more, {type: 'move', rows: 60});
		expect(moved.state.window.cursor).toBe(49);
		expect(moved.state.want).toBe(60);
	},
	top() {
		const state = reduce(listed(), {type: 'bottom'}).state;
		expect(reduce(state, {type: 'top'}).state.window.cursor).toBe(0);
		// A window that does not start at the newest record: back to it at once (a relisting), wherever the cursor is.
		const deep = {...listed(), window: {...listed().window, firstPage: 2, cursor: 7}};
		const back = reduce(deep, {type: 'top'});
		expect(effect(back, 'list')).toMatchObject({generation: 2, query: {}, note: 'The newest records.'});
		expect(effect(back, 'list')?.from).toBeUndefined();
	},
	bottom() {
		// All loaded: the last row.
		expect(reduce(listed(), {type: 'bottom'}).state.window.cursor).toBe(39);
		// More to load: the last page of the query, read from the end.
		const more = {...listed(50, true), loading: null};
		const reading = reduce(more, {type: 'bottom'});
		expect(effect(reading, 'list')).toMatchObject({generation: 2, from: 'end'});
		const end = reduce(reading.state, {type: 'listed', generation: 2, query: {}, from: 'end', page: {...page(20, 20, false), prev_cursor: 'c-before-20', next_cursor: null}});
		expect(end.state.window.rows.at(-1)?.id).toBe(idOf(1));
		expect(end.state.window.cursor).toBe(19);
		// The page before (newer) is read ahead by the store's cursor.
		expect(effect(end, 'loadPage')).toMatchObject({direction: 'before', request: {cursor: 'c-before-20'}});
		// A store that cannot read from the end answers with its first page: stay, and say so.
		const unsupported = reduce(reading.state, {type: 'listed', generation: 2, query: {}, from: 'end', page: page(300, 50, true)});
		expect(unsupported.state.window.rows[0]?.id).toBe(idOf(300));
		expect(unsupported.state.window.cursor).toBe(49);
		expect(unsupported.state.message?.tone).toBe('warn');
	},
	openDetail() {
		const opened = reduce(listed(), {type: 'openDetail'});
		expect(opened.state.pane).toBe('detail');
		expect(effect(opened, 'readDetail')).toMatchObject({id: idOf(300)});
		const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 30}, total: 0, followUpCount: 0});
		expect(reduce(state, {type: 'openDetail'}).state.pane).toBe('none');
	},
	back() {
		const withPane = reduce(listed(), {type: 'openDetail'}).state;
		expect(reduce(withPane, {type: 'back'}).state.pane).toBe('none');
		const searched = {...listed(), query: {search: 'x'}};
		expect(effect(reduce(searched, {type: 'back'}), 'list')).toMatchObject({query: {}, note: 'Search and filter cleared.'});
		expect(reduce(listed(), {type: 'back'}).effects).toEqual([]);
		// Esc clears marks (after the pane, before the search).
		const marked = run1({...listed(), query: {search: 'x'}}, {type: 'mark'}, {type: 'mark'}).state;
		const cleared = reduce(marked, {type: 'back'});
		expect(cleared.state.marks.size).toBe(0);
		expect(cleared.state.message?.text).toBe('2 marks cleared.');
		expect(cleared.effects).toEqual([]);
	},
	mark() {
		const marked = reduce(listed(), {type: 'mark'}).state;
		expect([...marked.marks]).toEqual([idOf(300)]);
		expect(marked.window.cursor).toBe(1);
		const unmarked = reduce(reduce(marked, {type: 'move', rows: -1}).state, {type: 'mark'}).state;
		expect(unmarked.marks.size).toBe(0);
	},
	markAll() {
		const all = reduce(listed(), {type: 'markAll'}).state;
		expect(all.marks.size).toBe(40);
		expect(all.message).toEqual({text: '40 loaded rows marked.', tone: 'info'});
		expect(reduce(all, {type: 'markAll'}).state.marks.size).toBe(0);
	},
	togglePane() {
		expect(reduce(listed(), {type: 'togglePane'}).state.pane).toBe('detail');
		const withRun = {...listed(), run: {active: false, exists: true}};
		const onRun = reduce(withRun, {type: 'togglePane'}).state;
		expect(onRun.pane).toBe('run');
		expect(reduce(onRun, {type: 'togglePane'}).state.pane).toBe('detail');
	},
	reload() {
		const reloading = reduce({...listed(), query: {search: 'x'}}, {type: 'reload'});
		expect(effect(reloading, 'list')).toEqual({kind: 'list', generation: 2, query: {search: 'x'}, note: 'Reloaded from the newest record.'});
		expect(reloading.state.loading).toBe('list');
	},
	resize() {
		const small = reduce(listed(), {type: 'resize', columns: 80, rows: 12}).state;
		expect(small.size).toEqual({columns: 80, rows: 12});
		expect(listRows(small)).toBeLessThan(listRows(listed()));
	},
	listed() {
		const state = listed();
		expect(state.window.rows).toHaveLength(40);
		expect(state.loading).toBeNull();
		// A listing of an older generation is dropped.
		const stale = reduce({...state, generation: 3}, {type: 'listed', generation: 2, query: {}, page: page(10, 1, false)});
		expect(stale.state.window.rows).toHaveLength(40);
	},
	pageLoaded() {
		// The first page of 50 (with more) is read ahead at once: the cursor is within two screens of its end.
		const {state: start} = initialScreen({channelId: 'bugs', fields, size: {columns: 100, rows: 31}, total: 300, followUpCount: 0});
		const first = reduce(start, {type: 'listed', generation: 1, query: {}, page: page(300, 50, true)});
		expect(effect(first, 'loadPage')).toMatchObject({direction: 'after', request: {beforeId: idOf(251)}});
		const wanting = reduce(first.state, {type: 'move', rows: 60}).state;
		const second = reduce(wanting, {type: 'pageLoaded', generation: 1, direction: 'after', page: page(250, 50, false)}).state;
		expect(second.window.rows).toHaveLength(100);
		expect(second.window.cursor).toBe(60);
		expect(second.want).toBeNull();
	},
	loadFailed() {
		const failed = reduce({...listed(), loading: 'after'}, {type: 'loadFailed', generation: 1, message: 'disk \u001b[31mgone'});
		expect(failed.state.loading).toBeNull();
		// Raw in the state: the footer escapes it where it is drawn (test/ui/message-escape.test.tsx).
		expect(failed.state.message).toEqual({text: 'disk \u001b[31mgone', tone: 'error'});
	},
	rowRead() {
		const updated = reduce(listed(), {type: 'rowRead', id: idOf(299), item: item(299, 2, {status: 'triaged'})}).state;
		expect(updated.window.rows[1]).toMatchObject({version: 2, preview: expect.objectContaining({status: 'triaged'})});
		expect(reduce(listed(), {type: 'rowRead', id: idOf(299), item: null}).state.window.rows[1]).toMatchObject({deleted: true});
	},
	storeEvents() {
		const at = 1000;
		const event = (type: 'item.created' | 'item.updated' | 'item.deleted', n: number) => ({sequence: n, type, item_id: idOf(n), version: 2, actor: {kind: 'human' as const}, changes: {}, at: ''});
		const next = reduce(listed(), {type: 'storeEvents', at, events: [event('item.created', 301), event('item.updated', 299), event('item.deleted', 298)]});
		expect(next.state.total).toBe(300);
		expect(next.state.newItems).toBe(1);
		expect(next.state.changed.get(idOf(299))).toBe(at + 3000);
		expect(next.state.window.rows[2]).toMatchObject({deleted: true});
		expect(effect(next, 'readRows')?.ids).toEqual([idOf(299)]);
		expect(effect(next, 'reloadSchema')).toBeUndefined();
		// A schema change touches no row and counts no item: the schema is read again.
		const changed = reduce(listed(), {type: 'storeEvents', at, events: [{sequence: 302, type: 'channel.updated', item_id: '', version: 0, actor: {kind: 'human'}, changes: {}, at: ''}]});
		expect(effect(changed, 'reloadSchema')).toEqual({kind: 'reloadSchema'});
		expect(effect(changed, 'readRows')).toBeUndefined();
		expect(changed.state.total).toBe(listed().total);
	},
	detailLoaded() {
		const opened = reduce(listed(), {type: 'openDetail'});
		const wanted = effect(opened, 'readDetail')!;
		const detail = {id: idOf(300), item: item(300, 1), error: null, flagged: new Set<string>()};
		expect(reduce(opened.state, {type: 'detailLoaded', for: wanted.for, detail}).state.detail).toBe(detail);
		// A read for a row the cursor has left is dropped.
		const moved = reduce(opened.state, {type: 'move', rows: 1}).state;
		expect(reduce(moved, {type: 'detailLoaded', for: wanted.for, detail}).state.detail).toBeNull();
	},
	syncState() {
		const sync = {remote: 'acme/app', lastPullAt: '2026-03-02T10:00:00.000Z', pending: 2, conflicts: 1, unpushed: new Set([idOf(3)]), conflicted: new Set([idOf(4)])};
		const synced = reduce(listed(), {type: 'syncState', sync}).state;
		expect(synced.sync).toBe(sync);
		// A synced channel reads its sync state again after its events; one that is not does not ask.
		const events = [{type: 'item.updated', item_id: idOf(3)}] as unknown as Extract<Parameters<typeof reduce>[1], {type: 'storeEvents'}>['events'];
		expect(reduce(synced, {type: 'storeEvents', events, at: 0}).effects.map(each => each.kind)).toContain('readSyncState');
		expect(reduce(listed(), {type: 'storeEvents', events, at: 0}).effects.map(each => each.kind)).not.toContain('readSyncState');
		// Unlinked since: null.
		expect(reduce(synced, {type: 'syncState', sync: null}).state.sync).toBeNull();
		// r reads it again (a channel linked while the screen was open).
		expect(reduce(listed(), {type: 'reload'}).effects.map(each => each.kind)).toContain('readSyncState');
	},
	syncProgress() {
		// The live sync's first pull says how far it got; the header's words carry it instead of the last pull, until the round ends.
		const sync = {remote: 'acme/app', lastPullAt: null, pending: 0, conflicts: 0, unpushed: new Set<string>(), conflicted: new Set<string>()};
		const progress = {phase: 'pull' as const, done: 1200, total: 10_000, ratePerSecond: 350, etaSeconds: 25.1};
		const pulling = reduce(reduce(listed(), {type: 'syncState', sync}).state, {type: 'syncProgress', progress}).state;
		expect(pulling.syncProgress).toBe(progress);
		expect(syncSummary(pulling.sync!, 0, pulling.syncProgress)).toBe('⇅ acme/app · pulling 1,200/10,000 records (350/s, about 26 s left) · pushed');
		expect(reduce(pulling, {type: 'syncProgress', progress: null}).state.syncProgress).toBeNull();
		expect(syncSummary(sync, 0, null)).toBe('⇅ acme/app · never pulled · pushed');
	},
	followUpCount() {
		expect(reduce(listed(), {type: 'followUpCount', count: 7}).state.followUpCount).toBe(7);
		// The count moved: the views asking has:followup are counted again, so their tab agrees with the header.
		const counted = run1({...listed(), views: DEFAULT_VIEWS.slice(), counting: 'busy'}, {type: 'viewCounts', views: DEFAULT_VIEWS.slice(), counts: [40, 30, 2, 300]}).state;
		expect(counted.counting).toBe('idle');
		const moved = reduce(counted, {type: 'followUpCount', count: 6});
		expect(moved.effects).toEqual([{kind: 'countViews', views: [{name: 'Follow-ups', query: 'has:followup'}]}]);
		const recounted = reduce(moved.state, {type: 'viewCounts', views: [{name: 'Follow-ups', query: 'has:followup'}], counts: [6]}).state;
		expect(recounted.viewCounts.get('Follow-ups')).toBe(6);
		expect(recounted.viewCounts.get('Inbox')).toBe(40);
		// Unchanged, nothing is counted; while a count is under way, one more follows it.
		expect(reduce(recounted, {type: 'followUpCount', count: 6}).effects).toEqual([]);
		expect(reduce({...recounted, counting: 'busy'}, {type: 'followUpCount', count: 5}).state.counting).toBe('again');
		// Two follow-ups on one record: the store matches 1 record, yet the Follow-ups tab says 2,
		// the header's count, since each is an entry of the queue a person resolves.
		const twoOnOne = reduce(reduce(counted, {type: 'viewCounts', views: [{name: 'Follow-ups', query: 'has:followup'}], counts: [1]}).state, {type: 'followUpCount', count: 2}).state;
		expect(tabCounts(twoOnOne.views, twoOnOne.viewCounts, {followUps: twoOnOne.followUpCount, proposals: twoOnOne.proposalCount}).get('Follow-ups')).toBe(2);
		// A view asking has:followup with other terms counts its records.
		const mine = {name: 'Mine', query: 'has:followup owner:ren'};
		expect(tabCounts([mine], new Map([['Mine', 1]]), {followUps: 2, proposals: 0}).get('Mine')).toBe(1);
		expect(reduce({...recounted, views: [...recounted.views, mine]}, {type: 'followUpCount', count: 9}).effects).toEqual([{kind: 'countViews', views: [{name: 'Follow-ups', query: 'has:followup'}, mine]}]);
	},
	expire() {
		const state = {...listed(), changed: new Map([[idOf(300), 1000], [idOf(299), 5000]])};
		expect([...reduce(state, {type: 'expire', at: 2000}).state.changed.keys()]).toEqual([idOf(299)]);
	},

	// Field hotkeys, bulk edits, $EDITOR.
	say() {
		expect(reduce(listed(), {type: 'say', text: 'hi', tone: 'warn'}).state.message).toEqual({text: 'hi', tone: 'warn'});
	},
	effectFailed() {
		const opening = run1(listed(), {type: 'key', input: 'F', key: plain}, {type: 'key', input: 'j', key: plain});
		const failed = reduce(opening.state, {type: 'effectFailed', message: 'no such table'});
		expect(failed.state.awaiting).toBeNull();
		expect(failed.state.message).toEqual({text: 'no such table', tone: 'error'});
		// The key typed meanwhile acts on the list.
		expect(failed.state.window.cursor).toBe(1);
	},
	channelChanged() {
		const done = reduce(listed(), {type: 'channelChanged', ok: true, message: 'Schema changed: owner.'});
		expect(done.state.message).toEqual({text: 'Schema changed: owner.', tone: 'ok'});
		expect(effect(done, 'reloadSchema')).toEqual({kind: 'reloadSchema', quiet: true});
		const refused = reduce(listed(), {type: 'channelChanged', ok: false, message: '3 items hold status "wontfix": BUG-0001'});
		expect(refused.state.message?.tone).toBe('error');
		expect(refused.effects).toEqual([]);
	},
	schemaLoaded() {
		const status = fields.find(field => field.key === 'status')!;
		const grown = fields.map(field => (field === status ? {...status, config: {...status.config, options: [...status.config.options!, {value: 'sam', label: 'Sam'}]}} : field));
		const next = reduce(listed(), {type: 'schemaLoaded', fields: grown}).state;
		expect(next.fields.find(field => field.key === 'status')!.config.options!.at(-1)).toEqual({value: 'sam', label: 'Sam'});
		expect(next.message?.text).toMatch(/schema changed/);
		// The same schema again (this screen's own change, then its event) changes nothing.
		expect(reduce(next, {type: 'schemaLoaded', fields: grown}).state).toBe(next);
		expect(reduce(listed(), {type: 'schemaLoaded', fields: grown, quiet: true}).state.message).toBe(listed().message);
	},
};

describe('the list slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);
});

/**
 * A store of `total` rows newest first (idOf(total) … idOf(1)), answering every page read the
 * screen asks for, in order, until it asks for none: a burst of keys, then the pages it needs.
 */
function answerPages(start: Transition, total: number): ScreenState {
	let {state, effects} = start;
	for (let guard = 0; guard < 100; guard++) {
		const wanted = effects.find(candidate => candidate.kind === 'loadPage' || candidate.kind === 'list');
		if (!wanted) return state;
		let next: Transition;
		if (wanted.kind === 'list') {
			next = reduce(state, {type: 'listed', generation: wanted.generation, query: wanted.query, page: page(total, 50, total > 50)});
		} else {
			const request = wanted.request as {beforeId: string | null};
			const from = request.beforeId === null ? total : Number(request.beforeId.slice(4)) - 1;
			next = reduce(state, {type: 'pageLoaded', generation: wanted.generation, direction: wanted.direction, page: page(from, Math.min(50, from), from > 50)});
		}

		({state, effects} = next);
	}

	throw new Error('the screen kept asking for pages');
}

const keys = (state: ScreenState, input: string, count: number, key: Key = plain) => run1(state, ...Array.from({length: count}, () => ({type: 'key' as const, input, key})));
const rowId = (state: ScreenState) => state.window.rows[state.window.cursor]?.id;

describe('a burst of keys while rows load (defect 11)', () => {
	const start = () => {
		const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 80, rows: 24}, total: 1000, followUpCount: 0});
		return answerPages(reduce(state, {type: 'listed', generation: 1, query: {}, page: page(1000, 50, true)}), 1000);
	};

	it('120 j past the loaded rows land on row 121', () => {
		expect(rowId(answerPages(keys(start(), 'j', 120), 1000))).toBe(idOf(1000 - 120));
	});

	it('200 j land on row 201, and 200 k after them back on row 1', () => {
		const down = answerPages(keys(start(), 'j', 200), 1000);
		expect(rowId(down)).toBe(idOf(800));
		expect(rowId(answerPages(keys(down, 'k', 200), 1000))).toBe(idOf(1000));
	});

	it('20 PgDn land 20 pages down', () => {
		const state = start();
		const pageRows = listRows(state) - 1;
		expect(rowId(answerPages(keys(state, '', 20, {...plain, pageDown: true}), 1000))).toBe(idOf(1000 - (20 * pageRows)));
	});

	it('keys typed while the first listing (or a relisting after r) is read act once it is in', () => {
		const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 80, rows: 24}, total: 1000, followUpCount: 0});
		const typed = keys(state, 'j', 70);
		expect(typed.state.listMoves).toBe(70);
		expect(rowId(answerPages(reduce(typed.state, {type: 'listed', generation: 1, query: {}, page: page(1000, 50, true)}), 1000))).toBe(idOf(930));
		const reloaded = keys(start(), 'r', 1);
		const after = keys(reloaded.state, 'j', 30);
		expect(rowId(answerPages({state: after.state, effects: [...reloaded.effects, ...after.effects]}, 1000))).toBe(idOf(970));
	});
});
