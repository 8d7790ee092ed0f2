// The column chooser slice (source/ui/features/columns) through the root reducer: `|` opens it on
// the active view, Space shows or hides a field, J/K move it, Enter keeps the choice for the view
// (the list draws it at once, the file keeps it), Esc leaves the columns as they were; and the
// state file's reading and writing. CASES is typed over the slice's events.

import {readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {COLUMNS, columnEntries} from '../../../source/ui/features/columns/slice.js';
import {columnsFile, readColumnChoices, writeColumnChoice} from '../../../source/ui/features/columns/effects.js';
import {activeView, columnFields} from '../../../source/ui/model/views.js';
import {keyEvents, scopeOf} from '../../../source/ui/registry.js';
import {reduce} from '../../../source/ui/reducer.js';
import type {ScreenState} from '../../../source/ui/state.js';
import {tempDir} from '../../support/temp.js';
import {fields, listed, plain, run1, viewed} from './fixtures.js';

const shownKeys = (state: ScreenState) => columnFields(state.fields, activeView(state.views, state.query)).map(field => field.key);

const CASES: {[T in keyof typeof COLUMNS.events]: () => void} = {
	openColumns() {
		const state = viewed();
		const opened = reduce(state, {type: 'openColumns'}).state;
		expect(opened.overlay).toMatchObject({kind: 'columns', view: state.query.view, cursor: 0});
		expect(scopeOf(opened.overlay)).toBe('columns');
		expect(keyEvents('list', '|', plain)).toEqual([{type: 'openColumns'}]);
		// Without a view (nothing to keep the choice for), it says so.
		const noView = reduce({...listed(), query: {}}, {type: 'openColumns'}).state;
		expect(noView.overlay).toEqual({kind: 'none'});
		expect(noView.message?.text).toMatch(/^Columns are kept per view/);
	},
	toggleColumn() {
		const opened = reduce(viewed(), {type: 'openColumns'}).state;
		const first = (opened.overlay as {entries: Array<{key: string}>}).entries[0]!.key;
		const hidden = run1(opened, {type: 'toggleColumn'}, {type: 'submit'});
		expect(shownKeys(hidden.state)).not.toContain(first);
		expect(hidden.effects).toEqual([{kind: 'saveColumnChoice', view: opened.query.view, columns: shownKeys(hidden.state)}]);
		// Esc keeps the columns as they were.
		expect(shownKeys(run1(opened, {type: 'toggleColumn'}, {type: 'cancel'}).state)).toEqual(shownKeys(opened));
		// Every field hidden: refused, the chooser still open.
		let none = opened;
		for (const entry of (opened.overlay as {entries: unknown[]}).entries) {
			if ((entry as {shown: boolean}).shown) none = reduce(none, {type: 'toggleColumn'}).state;
			none = reduce(none, {type: 'cursor', delta: 1}).state;
		}

		const refused = reduce(none, {type: 'submit'});
		expect(refused.effects).toEqual([]);
		expect(refused.state.message?.text).toBe('Keep at least one column shown.');
	},
	moveColumn() {
		const opened = reduce(viewed(), {type: 'openColumns'}).state;
		const [a, b] = (opened.overlay as {entries: Array<{key: string}>}).entries.map(entry => entry.key);
		const moved = run1(opened, {type: 'moveColumn', delta: 1}, {type: 'submit'}).state;
		expect(shownKeys(moved).slice(0, 2)).toEqual([b, a]);
		// Not past the top.
		expect(reduce(opened, {type: 'moveColumn', delta: -1}).state.overlay).toEqual(opened.overlay);
	},
	columnChoicesLoaded() {
		const state = viewed();
		const loaded = reduce(state, {type: 'columnChoicesLoaded', choices: {[state.query.view!]: ['title', 'ticket'], Nope: ['status']}}).state;
		expect(shownKeys(loaded)).toEqual(['title', 'ticket']);
	},
	columnsSaved() {
		expect(reduce(viewed(), {type: 'columnsSaved', view: 'All', ok: true}).state.message).toEqual({text: 'Columns kept for the view All.', tone: 'ok'});
		expect(reduce(viewed(), {type: 'columnsSaved', view: 'All', ok: false, message: 'EACCES'}).state.message).toEqual({text: 'The columns could not be kept: EACCES', tone: 'error'});
	},
};

describe('the column chooser slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);

	it('lists the shown fields first, in their order, then the others in field order', () => {
		const entries = columnEntries(fields, {name: 'Mine', query: '', columns: ['status', 'ticket']});
		expect(entries.slice(0, 3).map(entry => [entry.key, entry.shown])).toEqual([['status', true], ['ticket', true], [fields.find(field => !['status', 'ticket'].includes(field.key))!.key, false]]);
		expect(entries).toHaveLength(fields.length);
	});

	it('keeps each channel\'s and view\'s choice in the state file, the others untouched; a broken file reads as none', async () => {
		const dir = tempDir('sift-columns-');
		expect(await readColumnChoices(dir, 'bugs')).toEqual({});
		await writeColumnChoice(dir, 'bugs', 'All', ['title']);
		await writeColumnChoice(dir, 'bugs', 'Inbox', ['status', 'title']);
		await writeColumnChoice(dir, 'tasks', 'All', ['name']);
		expect(await readColumnChoices(dir, 'bugs')).toEqual({All: ['title'], Inbox: ['status', 'title']});
		expect(JSON.parse(readFileSync(columnsFile(dir), 'utf8'))).toMatchObject({channels: {tasks: {All: ['name']}}});
		writeFileSync(columnsFile(dir), '{not json');
		expect(await readColumnChoices(dir, 'bugs')).toEqual({});
		writeFileSync(columnsFile(dir), JSON.stringify({channels: {bugs: {All: 'title', Inbox: ['status']}}}));
		expect(await readColumnChoices(dir, 'bugs')).toEqual({Inbox: ['status']});
	});
});
