// The channel and database the cases start from.

import {copyFileSync, existsSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {bugsChannel} from '../../demo-data/generate.js';
import {openStore} from '../../store/index.js';
import {demoItems} from '../support/stores.js';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const field = (key: string, type: string, config: Record<string, unknown> = {}, flags: {is_required?: boolean; is_unique?: boolean} = {}) =>
	({key, label: key[0]!.toUpperCase() + key.slice(1), type, is_required: flags.is_required ?? false, is_unique: flags.is_unique ?? false, config});

/** One field of every type, for value checks. */
export const kitchenChannel = {
	id: 'kitchen',
	name: 'Kitchen sink',
	fields: [
		field('code', 'text', {max_length: 20}, {is_required: true, is_unique: true}),
		field('note', 'text', {max_length: 1000, long: true}),
		field('n', 'number', {min: 0, max: 10, integer: true}),
		field('d', 'date'),
		field('flag', 'boolean'),
		field('mail', 'email'),
		field('tel', 'phone'),
		field('site', 'url'),
		field('pick', 'select', {options: [{value: 'a', label: 'Alpha', color: 'red'}, {value: 'b', label: 'Beta', color: 'blue'}]}),
		field('tags', 'multi_select', {options: [{value: 'x', label: 'Ex', color: 'red'}, {value: 'y', label: 'Why', color: 'blue'}]}),
		field('price', 'currency', {currency: 'EUR', min: 0, max: 1000}),
		field('pct', 'percentage'),
		field('stars', 'rating', {max_stars: 5}),
		field('bug', 'relation', {channel_id: 'bugs'}),
		field('secret', 'relation', {channel_id: 'secrets'}),
		field('doc', 'file'),
		field('data', 'json'),
		field('total', 'formula', {expression: 'n * 2'}),
	],
};

export const tasksChannel = {
	id: 'tasks',
	name: 'Tasks',
	fields: [field('name', 'text', {max_length: 100}, {is_required: true}), field('state', 'select', {options: [{value: 'open', label: 'Open', color: 'gray'}, {value: 'done', label: 'Done', color: 'green'}]})],
};

export const secretsChannel = {id: 'secrets', name: 'Secrets', fields: [field('note', 'text')]};

export const hostileChannel = {id: 'hostile', name: 'Hostile', fields: [field('title', 'text'), field('state', 'select', {options: [{value: 'new', label: 'New', color: 'gray'}]})]};

/** Terminal control sequences planted in the hostile channel's stored texts. */
export const ESCAPE = '\u001b]0;pwned\u0007\u001b[2J';

/** The ids cases refer to. */
export type Ids = {
	bug: string;
	bug2: string;
	bug2Ticket: string;
	kitchen: string;
	kitchen2Code: string;
	secret: string;
	task: string;
	hostile: string;
	/** Well formed, but no item has it. */
	missing: string;
};

/**
 * The database every case starts from (copied per case): bugs (demo data), kitchen (every field
 * type), tasks, secrets (never granted to MCP), and hostile (stored texts carrying terminal escapes,
 * as a database written by another tool or an older version might hold).
 */
export function buildTemplate(file: string): Ids {
	const store = openStore(file, {create: true});
	try {
		store.importChannel({channel: bugsChannel, items: demoItems(12, 7, NOW)});
		store.importChannel({channel: secretsChannel, items: [{values: {note: 'not for agents'}}]});
		store.importChannel({channel: tasksChannel, items: [{values: {name: 'first', state: 'open'}}, {values: {name: 'second', state: 'open'}}]});
		const bugs = store.listPage('bugs', {limit: 2}).items;
		const secret = store.listPage('secrets', {limit: 1}).items[0]!.id;
		store.importChannel({channel: kitchenChannel, items: [
			{values: {code: 'K-1', n: 1, pick: 'a', tags: ['x'], flag: false, bug: bugs[0]!.id}},
			{values: {code: 'K-2', n: 2}},
		]});
		store.importChannel({channel: hostileChannel, items: [{values: {title: 'plain', state: 'new'}}]});
		const hostile = store.listPage('hostile', {limit: 1}).items[0]!.id;
		// An agent edit and an agent refusal, so events and follow-ups carry a run id.
		store.editItem({channelId: 'hostile', itemId: hostile, values: {title: 'edited'}, expectedVersion: 1, actor: {kind: 'agent', run_id: 'run-plain'}});
		try {
			store.editItem({channelId: 'hostile', itemId: hostile, values: {state: 'New'}, expectedVersion: 2, actor: {kind: 'agent', run_id: 'run-plain'}});
		} catch {
			// Refused on purpose: the refusal opens the follow-up.
		}

		plantEscapes(store.db, hostile);
		const ids: Ids = {
			bug: bugs[0]!.id,
			bug2: bugs[1]!.id,
			bug2Ticket: String(store.readItem('bugs', bugs[1]!.id).values.ticket),
			kitchen: store.listPage('kitchen', {limit: 1}).items[0]!.id,
			kitchen2Code: 'K-1',
			secret,
			task: store.listPage('tasks', {limit: 1}).items[0]!.id,
			hostile,
			missing: '',
		};
		ids.missing = ids.bug.replace(/[0-9a-z]{4}$/, 'zzzz');
		return ids;
	} finally {
		store.close();
	}
}

/** Writes the escapes straight into the tables: label, channel name, created_at, run ids. */
function plantEscapes(db: Database.Database, hostileItem: string): void {
	const row = db.prepare('SELECT fields FROM channels WHERE id = ?').get('hostile') as {fields: string};
	const fields = JSON.parse(row.fields) as Array<{label: string}>;
	fields[0]!.label = `Title${ESCAPE}`;
	db.prepare('UPDATE channels SET fields = ?, name = ? WHERE id = ?').run(JSON.stringify(fields), `Hostile${ESCAPE}`, 'hostile');
	db.prepare('UPDATE items SET created_at = ? WHERE id = ?').run(`2026-01-01T00:00:00.000Z${ESCAPE}`, hostileItem);
	db.prepare('UPDATE events SET run_id = ? WHERE run_id IS NOT NULL').run(`run${ESCAPE}`);
	db.prepare('UPDATE followups SET run_id = ? WHERE run_id IS NOT NULL').run(`run${ESCAPE}`);
}

/** A SQLite file of some other application: its own table, rollback journal, user_version 0. */
export function buildForeign(file: string): void {
	const db = new Database(file);
	db.exec('CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES (\'Ada\'), (\'Grace\');');
	db.close();
}

export function copyTemplate(template: string, to: string): void {
	if (existsSync(`${template}-wal`)) {
		throw new Error(`${template} was not checkpointed: a -wal file is left`);
	}

	copyFileSync(template, to);
}

export function writeCaseFile(dir: string, name: string, content: string | Buffer): string {
	const file = path.join(dir, name);
	writeFileSync(file, content);
	return file;
}
