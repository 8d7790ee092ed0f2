// The built CLI's commands on a demo database.

import {existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {openStore} from '../../store/index.js';
import {bugsChannel} from '../../demo-data/generate.js';
import {writeImportFile} from '../../demo-data/write-import-file.js';
import {demoDatabase, ensureBuilt, sift, siftJson, tempDir} from '../support/cli.js';

beforeAll(() => ensureBuilt());

const demo = (items = 60) => demoDatabase(items);

const snapshot = (db: string) => {
	const store = openStore(db);
	try {
		return {channels: store.listChannels(), events: store.pollEvents('bugs', {afterSequence: 0, limit: 100})};
	} finally {
		store.close();
	}
};

describe('sift demo, channels, list, show', () => {
	it('creates the demo channel and pages all of it by cursor, each item once', () => {
		const db = demo(60);
		const [channel] = siftJson<any[]>(['channels', '--db', db]);
		expect(channel).toMatchObject({id: 'bugs', item_count: 60, latest_sequence: 60, open_followups: 0});

		const seen: string[] = [];
		let before: string | null = null;
		do {
			const page: any = siftJson(['list', '--db', db, '--limit', '25', ...(before ? ['--before', before] : [])]);
			expect(page.schema.map((field: any) => field.key)).toContain('status');
			seen.push(...page.items.map((item: any) => item.id));
			before = page.next_before_id;
		} while (before);

		expect(seen).toHaveLength(60);
		expect(new Set(seen).size).toBe(60);
		expect([...seen].sort().reverse()).toEqual(seen);
	});

	it('prints readable rows with labels, and filters by a select value', () => {
		const db = demo(40);
		const text = sift(['list', '--db', db, '--limit', '40']);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/Ticket\s+Title/);
		expect(text.stdout).toContain('New');
		expect(text.stdout).not.toMatch(/\bnew\b {3}/);

		const page: any = siftJson(['list', '--db', db, '--filter', 'status=new']);
		expect(page.items.length).toBeGreaterThan(0);
		expect(page.items.every((item: any) => item.preview.status === 'new')).toBe(true);
	});

	it('shows an item with every field labelled and the formula computed', () => {
		const db = demo(5);
		const {items: [first]} = siftJson(['list', '--db', db, '--limit', '1']);
		const item: any = siftJson(['show', first.id, '--db', db]);
		expect(typeof item.values.age_days).toBe('number');
		const text = sift(['show', first.id, '--db', db]);
		expect(text.stdout).toMatch(/\(age_days\): \d+/);
		expect(text.stdout).toContain('Status (status): New');
	});

	it('never lets escape sequences from a record reach the terminal raw', () => {
		const db = demo(3);
		const store = openStore(db);
		const created = store.createItem('bugs', {ticket: 'BUG-X', title: 'evil \u001b]0;pwned\u0007 \u001b[31mred\u202e', status: 'new'}, {kind: 'human'});
		store.close();
		for (const args of [['list'], ['show', created.item.id], ['list', '--json'], ['show', created.item.id, '--json'], ['events', '--after', '3']]) {
			const result = sift([...args, '--db', db]);
			expect(result.code).toBe(0);
			expect(result.stdout).not.toMatch(/[\u001b\u0007\u202e\u009b]/);
		}

		expect(sift(['show', created.item.id, '--db', db]).stdout).toContain('␛]0;pwned␇');
	});
});

describe('sift edit, add, delete, events, followups', () => {
	it('refuses a value that is neither an option nor its label, with the allowed values, exit 1, and changes nothing', () => {
		const db = demo(5);
		const before = snapshot(db);
		const {items: [first]} = siftJson(['list', '--db', db, '--limit', '1']);
		// A label ("In progress") reads as its option, as in the TUI; a near miss is the person's to fix.
		const result = sift(['edit', first.id, 'status=In progres', 'points=20', '--db', db]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('values.status must be one of the option values, got "In progres"');
		expect(result.stderr).toContain('in_progress (In progress)');
		expect(result.stderr).toContain('values.points must be between 0 and 13, got 20');
		const json = sift(['edit', first.id, 'status=In progres', '--db', db, '--json']);
		expect(json.code).toBe(1);
		expect(JSON.parse(json.stdout)).toMatchObject({error: 'validation_failed', fields: [{key: 'status', allowed: expect.arrayContaining([{value: 'in_progress', label: 'In progress'}])}]});
		expect(snapshot(db)).toEqual(before);
	});

	it('edits with JSON-or-text values, bumps the version, and refuses a stale --expect-version with what changed', () => {
		const db = demo(5);
		const {items: [first]} = siftJson(['list', '--db', db, '--limit', '1']);
		const edited: any = siftJson(['edit', first.id, 'status=triaged', 'points=5', 'title=Plain text title', '--db', db]);
		expect(edited.item).toMatchObject({version: first.version + 1, values: {status: 'triaged', points: 5, title: 'Plain text title'}});
		const stale = sift(['edit', first.id, 'points=8', '--expect-version', String(first.version), '--db', db, '--json']);
		expect(stale.code).toBe(1);
		expect(JSON.parse(stale.stdout)).toMatchObject({error: 'version_conflict', current_version: first.version + 1, changed_since: {points: {to: 5}, status: {to: 'triaged'}}});
		const events: any = siftJson(['events', '--db', db, '--after', '5']);
		expect(events.events).toHaveLength(1);
		expect(events.events[0]).toMatchObject({type: 'item.updated', item_id: first.id, actor: {kind: 'human'}});
	});

	it('adds and deletes items; unknown items are a clear exit 1', () => {
		const db = demo(2);
		const added: any = siftJson(['add', 'ticket=BUG-9999', 'title=New one', 'status=new', '--db', db]);
		expect(added.item.version).toBe(1);
		const duplicate = sift(['add', 'ticket=BUG-9999', 'title=Again', '--db', db]);
		expect(duplicate.code).toBe(1);
		expect(duplicate.stderr).toContain(`already has "BUG-9999"`);
		expect(siftJson(['delete', added.item.id, '--db', db])).toMatchObject({ok: true});
		const missing = sift(['show', added.item.id, '--db', db]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('does not exist');
	});

	it('lists the open follow-ups an agent left, and dismisses one', () => {
		const db = demo(3);
		const store = openStore(db);
		const [item] = store.listPage('bugs', {limit: 1}).items;
		expect(() => store.editItem({channelId: 'bugs', itemId: item!.id, values: {points: 20}, actor: {kind: 'agent', run_id: 'run-1'}})).toThrow();
		store.close();
		const open: any[] = siftJson(['followups', '--db', db]);
		expect(open).toHaveLength(1);
		expect(open[0]).toMatchObject({key: 'points', attempted: 20, min: 0, max: 13, run_id: 'run-1'});
		expect(sift(['followups', '--db', db]).stdout).toContain('allowed: 0 to 13');
		expect(siftJson(['followups', 'dismiss', String(open[0].id), '--db', db])).toMatchObject({status: 'dismissed'});
		expect(siftJson<any[]>(['followups', '--db', db])).toHaveLength(0);
		expect(sift(['followups', 'dismiss', String(open[0].id), '--db', db]).code).toBe(1);
	});
});

describe('sift import', () => {
	it('streams a generated file into a new database', async () => {
		const dir = tempDir('sift-import-');
		await writeImportFile(join(dir, 'bugs.json'), {count: 300, seed: 7});
		const result: any = siftJson(['import', join(dir, 'bugs.json'), '--db', join(dir, 'x.db')]);
		expect(result).toMatchObject({channel_id: 'bugs', items_created: 300});
	});

	it('accepts "items" before "channel"', () => {
		const dir = tempDir('sift-import-');
		writeFileSync(join(dir, 'f.json'), JSON.stringify({items: [{values: {ticket: 'T-1', title: 'a "quoted" ] } title'}}], channel: bugsChannel}));
		expect(siftJson(['import', join(dir, 'f.json'), '--db', join(dir, 'x.db')])).toMatchObject({items_created: 1});
	});

	const refusals: Array<[string, string, RegExp]> = [
		['malformed JSON', '{"channel": {"id": "bugs", ', /ends inside a value|expected/],
		['an unknown field type', JSON.stringify({channel: {...bugsChannel, fields: [{key: 'x', label: 'X', type: 'colour'}]}, items: []}), /unknown type "colour"/],
		['a duplicate key', JSON.stringify({channel: {...bugsChannel, fields: [bugsChannel.fields[0], bugsChannel.fields[0]]}, items: []}), /used twice/],
		['options without a label', JSON.stringify({channel: {id: 'c', name: 'C', fields: [{key: 's', label: 'S', type: 'select', config: {options: [{value: 'a'}]}}]}, items: []}), /needs a non-empty string label/],
		['a bad formula', JSON.stringify({channel: {id: 'c', name: 'C', fields: [{key: 'f', label: 'F', type: 'formula', config: {expression: 'days_between(created_at'}}]}, items: []}), /not a valid formula/],
		['a formula using eval-like names', JSON.stringify({channel: {id: 'c', name: 'C', fields: [{key: 'f', label: 'F', type: 'formula', config: {expression: 'process(1)'}}]}, items: []}), /unknown function process/],
		['a bad item in the middle', JSON.stringify({channel: bugsChannel, items: [{values: {ticket: 'A', title: 'ok'}}, {values: {ticket: 'B', title: 'ok', status: 'New'}}, {values: {ticket: 'C', title: 'ok'}}]}), /items\[1\]: values.status must be one of the option values/],
		['a __proto__ key', '{"channel": ' + JSON.stringify(bugsChannel) + ', "items": [{"values": {"ticket": "A", "title": "t", "__proto__": {"x": 1}}}]}', /values.__proto__ is not a field/],
		['an unknown top-level key', JSON.stringify({channel: bugsChannel, items: [], extra: 1}), /unexpected key "extra"/],
	];

	for (const [what, text, message] of refusals) {
		it(`refuses ${what} with a clear error and leaves no database behind`, () => {
			const dir = tempDir('sift-import-');
			writeFileSync(join(dir, 'bad.json'), text);
			const result = sift(['import', join(dir, 'bad.json'), '--db', join(dir, 'x.db')]);
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(message);
			expect(existsSync(join(dir, 'x.db'))).toBe(false);
		});
	}

	it('leaves an existing database unchanged when an import fails', () => {
		const db = demo(4);
		const before = snapshot(db);
		const dir = tempDir('sift-import-');
		writeFileSync(join(dir, 'bad.json'), JSON.stringify({channel: {...bugsChannel, id: 'other'}, items: [{values: {ticket: 'A', title: 'x'}}, {values: {title: 'no ticket'}}]}));
		const result = sift(['import', join(dir, 'bad.json'), '--db', db]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('values.ticket is required');
		expect(snapshot(db)).toEqual(before);
	});
});

describe('usage errors exit 2', () => {
	const cases: Array<[string[], RegExp]> = [
		[['bogus'], /unknown command "bogus"/],
		[['edit'], /expected ITEM\.\.\. key=value\.\.\.: name at least one item/],
		[['edit', 'it_0000000001', 'novalue'], /give at least one key=value/],
		[['edit', 'it_0000000001', 'x=1', 'novalue'], /expected key=value, got "novalue"/],
		[['list', '--limit', '0'], /--limit must be from 1 to 50, got 0/],
		[['list', '--no-such-flag'], /unknown flag --no-such-flag; see `sift list --help`/],
		[['followups', 'dismiss', 'abc'], /sift followups dismiss ID/],
	];
	for (const [args, message] of cases) {
		it(`sift ${args.join(' ')}`, () => {
			const db = demo(1);
			const result = sift([...args, '--db', db]);
			expect(result.code).toBe(2);
			expect(result.stderr).toMatch(message);
		});
	}

	it('a missing database is an error, not a new empty file', () => {
		const dir = tempDir('sift-missing-');
		const result = sift(['list', '--db', join(dir, 'nope.db')]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('no database at');
		expect(existsSync(join(dir, 'nope.db'))).toBe(false);
	});
});
