// The two store backends the contract suite runs against: the embedded SQLite file and PostgreSQL.
// Each test gets its own empty store (a new file, or a new schema in this file's test database).

import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, expect} from 'vitest';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {StoreError, type StoreErrorBody} from '../../store/index.js';
import {createTestDatabase, PG_OFF, type TestDatabase} from '../support/pg.js';
import {cleanTempDirs, kitChannel, tempDir} from '../store/helpers.js';
import {newestItemIds} from '../support/item-ids.js';

export type Backend = {
	name: 'sqlite' | 'postgres';
	/** False only when PostgreSQL was turned off on purpose (SIFT_TEST_PG=off). */
	enabled: boolean;
	setUp(): Promise<void>;
	tearDown(): Promise<void>;
	/** A new, empty store. */
	open(): Promise<AsyncStore>;
	/** Where the store of `open` lives, for a second process or connection to open it too. */
	lastLocation(): string;
};

function sqliteBackend(): Backend {
	let location = '';
	return {
		name: 'sqlite',
		enabled: true,
		async setUp() {},
		async tearDown() {
			cleanTempDirs();
		},
		async open() {
			location = join(tempDir('sift-contract-'), 'store.db');
			return openAsyncStore(location, {create: true});
		},
		lastLocation: () => location,
	};
}

function postgresBackend(): Backend {
	let database: TestDatabase | undefined;
	let location = '';
	return {
		name: 'postgres',
		enabled: !PG_OFF,
		async setUp() {
			database = await createTestDatabase();
		},
		async tearDown() {
			await database?.drop();
		},
		async open() {
			location = await database!.freshSchemaUrl();
			return openAsyncStore(location, {create: true});
		},
		lastLocation: () => location,
	};
}

export const BACKENDS: Backend[] = [sqliteBackend(), postgresBackend()];

/** A new store with the kit channel (every field type) imported, with `items` if given. */
export async function kitStore(backend: Backend, items: unknown[] = []): Promise<AsyncStore> {
	const store = await backend.open();
	await store.importChannel({channel: kitChannel, items});
	return store;
}

/** The StoreError body `work` rejected with; fails the test if it resolved. */
export async function refusalOf(work: () => Promise<unknown>): Promise<StoreErrorBody> {
	try {
		await work();
	} catch (error) {
		if (error instanceof StoreError) {
			return error.body;
		}

		throw error;
	}

	return expect.unreachable('expected a StoreError, but the call succeeded');
}

export async function allEvents(store: AsyncStore, channelId: string) {
	const events = [];
	let after = 0;
	for (;;) {
		const page = await store.pollEvents(channelId, {afterSequence: after, limit: 100});
		events.push(...page.events);
		after = page.next_after_sequence;
		if (!page.has_more) {
			return events;
		}
	}
}

export const allItemIds = async (store: AsyncStore, channelId: string): Promise<string[]> => newestItemIds(store, channelId);

/** Everything a write could change, read through the interface: to prove a refused write changed nothing. */
export async function stateOf(store: AsyncStore, channelId: string): Promise<unknown> {
	const ids = await allItemIds(store, channelId);
	const items = await Promise.all(ids.map(async id => {
		const {values, ...rest} = await store.readItem(channelId, id);
		// Formulas such as age_days are computed at read time, not stored.
		return {...rest, values: Object.fromEntries(Object.entries(values).filter(([key]) => !['age_days', 'double_points'].includes(key)))};
	}));
	return {
		channels: await store.listChannels(),
		items,
		events: await allEvents(store, channelId),
		followUps: await store.listFollowUps({channelId}),
	};
}

/** Sequences are 1..N with no gap or repeat, and N is what the channel reports. */
export async function expectGapFree(store: AsyncStore, channelId: string): Promise<number> {
	const sequences = (await allEvents(store, channelId)).map(event => event.sequence);
	expect(sequences).toEqual(sequences.map((_, index) => index + 1));
	expect(await store.latestSequence(channelId)).toBe(sequences.length);
	return sequences.length;
}

/** Every live item's version is 1 + its update events, and each item's events number its versions 1, 2, 3… */
export async function expectVersionsMatchEvents(store: AsyncStore, channelId: string): Promise<void> {
	const events = await allEvents(store, channelId);
	for (const id of await allItemIds(store, channelId)) {
		const own = events.filter(event => event.item_id === id);
		const item = await store.readItem(channelId, id);
		expect(own[0]?.type, `${id} starts with its create event`).toBe('item.created');
		expect(item.version, `${id}: version = 1 + update events`).toBe(1 + own.filter(event => event.type === 'item.updated').length);
		expect(own.map(event => event.version)).toEqual(own.map((_, index) => index + 1));
	}
}

/**
 * For a describe block on `backend`: sets the backend up and down, and returns `fresh` (a new empty
 * store), `again` (the last store's location opened once more) and `keep` (a store opened another
 * way, such as kitStore), every store closed after each test: the one lifecycle of a contract file.
 */
export function storesOn(backend: Backend): {fresh: () => Promise<AsyncStore>; again: () => Promise<AsyncStore>; keep: <S extends AsyncStore>(store: S) => S} {
	const open: AsyncStore[] = [];
	const kept = <S extends AsyncStore>(store: S): S => {
		open.push(store);
		return store;
	};

	beforeAll(() => backend.setUp());
	afterEach(async () => {
		await Promise.all(open.splice(0).map(store => store.close()));
	});
	afterAll(() => backend.tearDown());
	return {
		fresh: async () => kept(await backend.open()),
		again: async () => kept(await openAsyncStore(backend.lastLocation())),
		keep: kept,
	};
}
