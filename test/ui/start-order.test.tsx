// Nothing is counted while the first listing is held; the views' and header's counts follow once
// rows show; with the opening read before the app mounts, the first frame has the rows (or the
// listing's error) ([start-up](#start-up))

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import {DEFAULT_BATCH_SIZE} from '../../source/codex/batches.js';
import {defaultConfig} from '../../source/config/config.js';
import {openingOf, openingScreen, startWithListing, withFirstListing} from '../../source/ui/first-screen.js';
import {readListing} from '../../source/ui/hooks/effects.js';
import {waitUntil} from '../support/wait.js';
import {appDemo, renderApp} from './helpers.js';

// The start's order (docs/architecture.md#start-up): the first rows are drawn before the views'
// counts (worker threads at scale) and the header's counts begin, so neither holds up the first
// frame; once the rows are up, they run as before. The opening and its first page can be read
// before the app mounts (ui/first-screen.ts, as `sift` does): then the first frame has the rows.

const demo = appDemo(30);

/** The store with its first listing held until `release`, and each count asked for noted in `asked`. */
function gatedStore(store: AsyncStore) {
	const asked: string[] = [];
	/** The start's other reads, as they are asked for: the held listing and the event poll. */
	const reads: string[] = [];
	let release!: () => void;
	const gate = new Promise<void>(resolve => {
		release = resolve;
	});
	const counted = <A extends unknown[], R>(name: string, count: (...args: A) => Promise<R>) => async (...args: A) => {
		asked.push(name);
		return count(...args);
	};

	const gated = new Proxy(store, {
		get(target, property) {
			const value = Reflect.get(target, property, target) as unknown;
			if (property === 'listPage') {
				return async (...args: Parameters<AsyncStore['listPage']>) => {
					reads.push('listPage');
					await gate;
					return target.listPage(...args);
				};
			}

			if (property === 'pollEvents') {
				return async (...args: Parameters<AsyncStore['pollEvents']>) => {
					reads.push('pollEvents');
					return target.pollEvents(...args);
				};
			}

			if (property === 'countMatches') return counted('countMatches', target.countMatches.bind(target));
			if (property === 'countOpenFollowUps') return counted('countOpenFollowUps', target.countOpenFollowUps.bind(target));
			if (property === 'proposals') return {...target.proposals, countOpen: counted('proposals.countOpen', target.proposals.countOpen.bind(target.proposals))};
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {store: gated, asked, reads, release};
}

describe('the TUI\'s start', () => {
	it('counts nothing until the first rows are drawn; then the views and the header are counted', async () => {
		const {store, asked, reads, release} = gatedStore(demo.store);
		const app = renderApp(store);
		try {
			// The screen is up (header and tabs), its listing held, and the start's other work under
			// way (the event poll has read twice): still no count asked for.
			await app.waitFor(frame => frame.includes('1 Inbox'));
			await waitUntil(() => reads.includes('listPage') && reads.filter(read => read === 'pollEvents').length >= 2, 'the listing asked and two polls of the events');
			expect(asked).toEqual([]);
			release();
			await app.waitFor(frame => /row 1\b/.test(frame));
			await app.waitFor(frame => /4 All 30\b/.test(frame));
			expect(new Set(asked)).toEqual(new Set(['countMatches', 'countOpenFollowUps', 'proposals.countOpen']));
		} finally {
			release();
			app.unmount();
		}
	});
});

/** The store with every count (the views', the header's) held until `release`: a count of seconds at scale, without a timer. */
function slowCountStore(store: AsyncStore) {
	let release!: () => void;
	const gate = new Promise<void>(resolve => {
		release = resolve;
	});
	let held = 0;
	const slow = <A extends unknown[], R>(count: (...args: A) => Promise<R>) => async (...args: A) => {
		held++;
		await gate;
		return count(...args);
	};

	const gated = new Proxy(store, {
		get(target, property) {
			const value = Reflect.get(target, property, target) as unknown;
			if (property === 'countMatches') return slow(target.countMatches.bind(target));
			if (property === 'countOpenFollowUps') return slow(target.countOpenFollowUps.bind(target));
			if (property === 'proposals') return {...target.proposals, countOpen: slow(target.proposals.countOpen.bind(target.proposals))};
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {store: gated, release, held: () => held};
}

describe('the TUI\'s counts', () => {
	it('do not hold up the first rows: with every count held, the rows are drawn and the tabs show no counts; the counts fill in when they come', async () => {
		const {store, release, held} = slowCountStore(demo.store);
		const app = renderApp(store);
		try {
			await app.waitFor(frame => /row 1\b/.test(frame));
			// The counts were asked for and are still held: the tabs show none yet.
			await app.waitFor(() => held() > 0);
			expect(app.frame()).toMatch(/4 All(?! \d)/);
			release();
			await app.waitFor(frame => /4 All 30\b/.test(frame));
		} finally {
			release();
			app.unmount();
		}
	});
});

/** The store with each listPage noted, and failing when `fail` says so. */
function listingStore(store: AsyncStore, fail = false) {
	const listed: unknown[] = [];
	const watched = new Proxy(store, {
		get(target, property) {
			const value = Reflect.get(target, property, target) as unknown;
			if (property === 'listPage') {
				return async (...args: Parameters<AsyncStore['listPage']>) => {
					listed.push(args[1]);
					if (fail) throw new Error('disk I/O error while listing');
					return target.listPage(...args);
				};
			}

			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {store: watched, listed};
}

/** What `sift` reads before the app mounts: the opening and its first listing. */
async function openingRead(store: AsyncStore) {
	return withFirstListing(store, await openingOf(store, undefined), (channel, summary) => openingScreen({channel, summary, config: defaultConfig(), size: {columns: 100, rows: 24}, batch: DEFAULT_BATCH_SIZE}));
}

describe('the TUI\'s start with its opening read before it mounts', () => {
	it('draws the rows in its first frame: no "Loading…" and no screen without rows before it, the page read once', async () => {
		const {store, listed} = listingStore(demo.store);
		const opening = await openingRead(store);
		expect(listed).toHaveLength(1);
		const app = renderApp(store, {opening});
		try {
			await app.waitFor(frame => /row 1\b/.test(frame));
			expect(app.frames[0]).toMatch(/row 1\b/);
			expect(app.frames.join('\n')).not.toContain('Loading');
			await app.waitFor(frame => /4 All 30\b/.test(frame));
			// The screen took the answer read before it mounted; it did not list again.
			expect(listed).toHaveLength(1);
		} finally {
			app.unmount();
		}
	});

	it('says a first listing that failed in its first frame, as a failed listing always is', async () => {
		const {store} = listingStore(demo.store, true);
		const app = renderApp(store, {opening: await openingRead(store)});
		try {
			await app.waitFor(frame => frame.length > 0);
			expect(app.frames[0]).toContain('disk I/O error while listing');
			expect(app.frames[0]).not.toContain('Loading');
		} finally {
			app.unmount();
		}
	});

	it('mounts with the start made before, its listing answered; takes an answer only for the listing it answers (the same query and generation)', async () => {
		const opening = await openingRead(demo.store);
		if (opening.kind !== 'screen') throw new Error('the demo has one channel');
		expect(opening.start?.state.loading).toBeNull();
		expect(opening.start?.effects.some(effect => effect.kind === 'list')).toBe(false);
		// An answer to another query (or generation) is not taken for the screen's own listing.
		const start = openingScreen({channel: opening.channel, summary: opening.summary, config: defaultConfig(), size: {columns: 100, rows: 24}, batch: DEFAULT_BATCH_SIZE});
		const list = start.effects.find(effect => effect.kind === 'list')!;
		if (list.kind !== 'list') throw new Error('the screen starts with its listing');
		const listed = await readListing(list, start.state, demo.store);
		expect(startWithListing(start, listed).effects).not.toContain(list);
		expect(startWithListing(start, listed).state.loading).toBeNull();
		const otherQuery = {...listed, query: {search: 'crash'}} as typeof listed;
		expect(startWithListing(start, otherQuery)).toBe(start);
		const otherGeneration = {...listed, generation: 2} as typeof listed;
		expect(startWithListing(start, otherGeneration)).toBe(start);
	});
});

/** The demo store with a second channel whose fields are held until `release`, and the sync reads noted. */
function otherChannelStore(store: AsyncStore) {
	const otherAsked: string[] = [];
	const syncReads: string[] = [];
	let release!: () => void;
	const gate = new Promise<void>(resolve => {
		release = resolve;
	});
	const other = {id: 'other', name: 'Other', fields: []};
	const watched = new Proxy(store, {
		get(target, property) {
			const value = Reflect.get(target, property, target) as unknown;
			if (property === 'listChannelNames') return async () => [...await target.listChannelNames(), {id: 'other', name: 'Other', created_at: '2026-01-01T00:00:00.000Z'}];
			if (property === 'getChannel') {
				return async (id: string) => {
					if (id !== 'other') return target.getChannel(id);
					otherAsked.push(id);
					await gate;
					return other;
				};
			}

			if (property === 'sync') {
				return new Proxy(target.sync, {get(sync, name) {
					const method = Reflect.get(sync, name, sync) as unknown;
					if (typeof method !== 'function') return method;
					return (...args: unknown[]) => {
						syncReads.push(String(name));
						return (method as (...args: unknown[]) => unknown).apply(sync, args);
					};
				}});
			}

			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
	return {store: watched, otherAsked, syncReads, release};
}

describe('the TUI\'s start with other channels in the database', () => {
	it('draws the first frame without reading the other channels (only `:problems` needs them): they are read once the rows are up; an unlinked channel\'s sync is one link lookup', async () => {
		const {store, otherAsked, syncReads, release} = otherChannelStore(demo.store);
		try {
			// The other channel's read is held for good: the opening and its first page still come.
			const opening = await withFirstListing(store, await openingOf(store, 'bugs'), (channel, summary) => openingScreen({channel, summary, config: defaultConfig(), size: {columns: 100, rows: 24}, batch: DEFAULT_BATCH_SIZE}));
			expect(opening.kind).toBe('screen');
			expect(otherAsked).toEqual([]);
			const app = renderApp(store, {opening});
			try {
				await app.waitFor(frame => /row 1\b/.test(frame));
				expect(app.frames[0]).toMatch(/row 1\b/);
				await waitUntil(() => otherAsked.length === 1, 'the other channel read after the first rows');
				await waitUntil(() => syncReads.includes('getLink'), 'the sync link looked up');
				// Not linked: nothing more of the sync state is read.
				expect(syncReads.filter(read => read !== 'getLink' && read !== 'itemComments')).toEqual([]);
			} finally {
				app.unmount();
			}
		} finally {
			release();
		}
	});
});
