// Shared set-up for the store tests: real SQLite files in a temp dir, a channel with every field type.

import {createHash} from 'node:crypto';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {expect} from 'vitest';
import {mulberry32} from '../../demo-data/generate.js';
import {tempDir as kitTempDir} from '../support/temp.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {openStore, StoreError, type Store, type StoreErrorBody, type StoreOptions, type Values} from '../../store/index.js';

export const DAY_MS = 86_400_000;

/** A channel with all 16 field types, configs chosen so every limit can be hit. */
export const kitChannel = {
	id: 'kit',
	name: 'Kit',
	fields: [
		{key: 'title', label: 'Title', type: 'text', is_required: true, is_unique: false, config: {max_length: 20}},
		{key: 'code', label: 'Code', type: 'text', is_required: false, is_unique: true, config: {max_length: 16}},
		{key: 'summary', label: 'Summary', type: 'text', is_required: false, is_unique: false, config: {}},
		{key: 'notes', label: 'Notes', type: 'text', is_required: false, is_unique: false, config: {long: true}},
		{key: 'points', label: 'Points', type: 'number', is_required: false, is_unique: false, config: {min: 0, max: 13, integer: true}},
		{key: 'ratio', label: 'Ratio', type: 'number', is_required: false, is_unique: false, config: {}},
		{key: 'due', label: 'Due', type: 'date', is_required: false, is_unique: false, config: {}},
		{key: 'done', label: 'Done', type: 'boolean', is_required: false, is_unique: false, config: {}},
		{key: 'reporter', label: 'Reporter', type: 'email', is_required: false, is_unique: false, config: {}},
		{key: 'phone', label: 'Phone', type: 'phone', is_required: false, is_unique: false, config: {}},
		{key: 'site', label: 'Site', type: 'url', is_required: false, is_unique: false, config: {}},
		{key: 'status', label: 'Status', type: 'select', is_required: false, is_unique: false, config: {options: [
			{value: 'new', label: 'New', color: 'gray'},
			{value: 'in_progress', label: 'In progress', color: 'yellow'},
			{value: 'wont_fix', label: "Won't fix", color: 'magenta'},
		]}},
		{key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options: [
			{value: 'ui', label: 'UI'},
			{value: 'api', label: 'API'},
		]}},
		{key: 'price', label: 'Price', type: 'currency', is_required: false, is_unique: false, config: {currency: 'EUR', min: 0, max: 1000}},
		{key: 'pct', label: 'Done %', type: 'percentage', is_required: false, is_unique: false, config: {}},
		{key: 'stars', label: 'Stars', type: 'rating', is_required: false, is_unique: false, config: {}},
		{key: 'parent', label: 'Parent', type: 'relation', is_required: false, is_unique: false, config: {channel_id: 'kit'}},
		{key: 'attachment', label: 'Attachment', type: 'file', is_required: false, is_unique: false, config: {}},
		{key: 'meta', label: 'Meta', type: 'json', is_required: false, is_unique: false, config: {}},
		{key: 'age_days', label: 'Age (days)', type: 'formula', is_required: false, is_unique: false, config: {expression: 'days_between(created_at, today())'}},
		{key: 'double_points', label: 'Double points', type: 'formula', is_required: false, is_unique: false, config: {expression: 'points * 2'}},
	],
};

const textField = (key: string) => ({key, label: key, type: 'text'});

/**
 * Two channels for what a writer may reach: bugs relates to itself (parent) and to secret
 * (blocker), so a writer granted bugs alone has a relation into a channel it is not granted.
 */
export const scopeChannels = {
	secret: {id: 'secret', name: 'Secret', fields: [textField('title')]},
	bugs: {id: 'bugs', name: 'Bugs', fields: [
		textField('title'),
		{key: 'blocker', label: 'Blocker', type: 'relation', config: {channel_id: 'secret'}},
		{key: 'parent', label: 'Parent', type: 'relation', config: {channel_id: 'bugs'}},
	]},
};

export const KIT_WRITABLE = kitChannel.fields.filter(field => field.type !== 'formula').map(field => field.key);

export const STATUS_ALLOWED = [
	{value: 'new', label: 'New'},
	{value: 'in_progress', label: 'In progress'},
	{value: 'wont_fix', label: "Won't fix"},
];

export {raceChannel} from './workers/race.js';

/** The query tests' clock: relative dates (`due:<+7d`) count from this moment. */
export const QUERY_NOW = new Date(2026, 0, 15, 12);
export const KIT_STATUSES = ['new', 'in_progress', 'wont_fix'];
const DAYS = ['2026-01-01', '2026-01-10', '2026-01-15', '2026-01-16', '2026-01-22', '2026-02-28'];
const WORDS = ['Sync stalls', 'crash on start', 'Login loops', 'CRASH in sync', 'slow list'];

/** `count` kit items (seeded) with every queried field sometimes set, sometimes not. */
export function kitItems(count: number, seed = 7): Array<{values: Values}> {
	const random = mulberry32(seed);
	const maybe = <T>(value: T) => (random() < 0.7 ? value : undefined);
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
	return Array.from({length: count}, (_, index) => {
		const values: Values = {
			title: `${pick(WORDS)} ${index}`,
			code: maybe(`C-${String(count - index).padStart(4, '0')}`),
			status: maybe(pick(KIT_STATUSES)),
			tags: maybe(pick([[], ['ui'], ['api'], ['ui', 'api']])),
			points: maybe(pick([0, 1, 2, 3, 5, 8, 13])),
			due: maybe(pick(DAYS)),
			done: maybe(random() < 0.5),
			price: maybe(pick([0, 9.5, 10, 250.25])),
			stars: maybe(pick([1, 2, 3, 4, 5])),
			reporter: maybe(pick(['dana@example.com', 'lee.wong@example.org'])),
			notes: maybe('crash details in the long notes'),
		};
		return {values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))};
	});
}

export const human = {kind: 'human'} as const;
export const agent = (runId = 'run-1') => ({kind: 'agent', run_id: runId}) as const;

const dirs: string[] = [];

/** A fresh temp dir (test/support/temp.ts: removed after the test file), or sooner by cleanTempDirs(). */
export function tempDir(prefix = 'sift-store-'): string {
	const dir = kitTempDir(prefix);
	dirs.push(dir);
	return dir;
}

export function cleanTempDirs(): void {
	for (const dir of dirs.splice(0)) {
		rmSync(dir, {recursive: true, force: true});
	}
}

/** A store on a new file, with the kit channel imported (no items unless given). */
export function kitStore(items: unknown[] = [], options: StoreOptions = {}): Store {
	const store = openStore(join(tempDir(), 'kit.db'), {...options, create: true});
	store.importChannel({channel: kitChannel, items});
	return store;
}

/** Runs `work` and returns the StoreError body it threw; fails the test if it did not throw one. */
export function refusal(work: () => unknown): StoreErrorBody {
	try {
		work();
	} catch (error) {
		if (error instanceof StoreError) {
			return error.body;
		}

		throw error;
	}

	return expect.unreachable('expected a StoreError, but the call succeeded');
}

/** Everything a write could have touched, to prove a refused write changed nothing. */
export function snapshot(store: Store): unknown {
	const table = (sql: string) => store.db.prepare(sql).all();
	return {
		channels: table('SELECT * FROM channels ORDER BY id'),
		items: table('SELECT * FROM items ORDER BY seq'),
		events: table('SELECT * FROM events ORDER BY channel_id, sequence'),
		idempotency: table('SELECT * FROM idempotency ORDER BY key'),
		followups: table('SELECT * FROM followups ORDER BY id'),
		sequences: table('SELECT * FROM sqlite_sequence ORDER BY name'),
		schema: table('SELECT type, name, sql FROM sqlite_master ORDER BY name'),
	};
}

/** The snapshot minus follow-up bookkeeping: what an agent's refused write may still leave behind. */
export function snapshotBesidesFollowUps(store: Store): unknown {
	const {followups, sequences, ...rest} = snapshot(store) as {followups: unknown[]; sequences: Array<{name: string}>};
	return {...rest, sequences: sequences.filter(row => row.name !== 'followups')};
}

/** All events of a channel, oldest first (pollEvents pages through them). */
export function allEvents(store: Store, channelId: string) {
	const events = [];
	let after = 0;
	for (;;) {
		const page = store.pollEvents(channelId, {afterSequence: after, limit: 100});
		events.push(...page.events);
		after = page.next_after_sequence;
		if (!page.has_more) {
			return events;
		}
	}
}

/** Sequences are 1..N with no gap or repeat, and N is what the channel reports. */
export function expectGapFree(store: Store, channelId: string): number {
	const sequences = allEvents(store, channelId).map(event => event.sequence);
	expect(sequences).toEqual(sequences.map((_, index) => index + 1));
	expect(store.latestSequence(channelId)).toBe(sequences.length);
	return sequences.length;
}

/** Every live item's version is 1 + its update events; every event's version follows the last. */
export function expectVersionsMatchEvents(store: Store, channelId: string): void {
	const events = allEvents(store, channelId);
	const byItem = new Map<string, typeof events>();
	for (const event of events) {
		byItem.set(event.item_id, [...(byItem.get(event.item_id) ?? []), event]);
	}

	const rows = store.db.prepare('SELECT id, version FROM items WHERE channel_id = ?').all(channelId) as Array<{id: string; version: number}>;
	for (const row of rows) {
		const own = byItem.get(row.id) ?? [];
		expect(own[0]?.type, `${row.id} starts with its create event`).toBe('item.created');
		expect(row.version, `${row.id}: version = 1 + update events`).toBe(1 + own.filter(event => event.type === 'item.updated').length);
		expect(own.map(event => event.version)).toEqual(own.map((_, index) => index + 1));
	}
}

/**
 * sha256 over a database file and its write-ahead log, as bytes: what a write would change
 * (a refused write rolls back before anything reaches either). Missing files hash as absent.
 */
export function fileDigest(path: string): string {
	const hash = createHash('sha256');
	for (const file of [path, `${path}-wal`]) {
		hash.update(existsSync(file) ? readFileSync(file) : Buffer.from('absent'));
		hash.update('\u0000');
	}

	return hash.digest('hex');
}

/** Runs `work`, which must throw a StoreError, and checks the file is byte-identical afterwards. */
export function refusedUnchanged(path: string, work: () => unknown): StoreErrorBody {
	const before = fileDigest(path);
	const body = refusal(work);
	expect(fileDigest(path), 'the database file is unchanged').toBe(before);
	return body;
}

/** Runs SQL on a SQLite store file through a handle of its own: how a migration test takes a store back to an older schema. */
export function onSqlite(file: string, sql: string): void {
	const db = new Database(file);
	try {
		db.exec(sql);
	} finally {
		db.close();
	}
}

/** Runs SQL on a PostgreSQL store through a connection of its own, as another program would. */
export async function onPostgres(url: string, sql: string): Promise<void> {
	const client = new pg.Client({connectionString: url});
	await client.connect();
	try {
		await client.query(sql);
	} finally {
		await client.end();
	}
}

/** Opens the store at `location` (which upgrades an older one), runs `check` on it, and closes it whatever happens. */
export async function afterUpgrade(location: string, check: (store: AsyncStore) => Promise<void>): Promise<void> {
	const store = await openAsyncStore(location);
	try {
		await check(store);
	} finally {
		await store.close();
	}
}
