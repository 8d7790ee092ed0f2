// The agent cursor, run against both backends through the asynchronous interface: every run
// records the channel's latest sequence at its start and at its end, and runs.lastFinished names
// the run a run without explicit items catches up from.

import {describe, expect, it} from 'vitest';
import type {AsyncStore} from '../../store/api.js';
import type {RunEnd, RunStart} from '../../store/runs.js';
import type {Actor} from '../../store/types.js';
import {notePgOff} from '../support/pg.js';
import {allItemIds, BACKENDS, storesOn, type Backend} from './backends.js';
import {kitChannel, kitItems} from '../store/helpers.js';

const person: Actor = {kind: 'human'};

const started = (id: string, channelId = 'kit'): RunStart => ({id, channelId, itemIds: [], instruction: 'catch up', startedAt: '2026-01-01T00:00:00.000Z', logPath: null});

const ended = (extra: Partial<RunEnd> = {}): RunEnd => ({finishedAt: '2026-01-01T00:05:00.000Z', outcome: 'ok', usage: null, editsApplied: 0, rejections: 0, followupsOpened: 0, error: null, ...extra});

describe.each(BACKENDS)('the agent cursor on $name', (backend: Backend) => {
	if (!backend.enabled) {
		notePgOff();
		return;
	}

	const {fresh, again} = storesOn(backend);
	/** A new store with the kit channel and 3 items: events 1 to 3. */
	const kit = async () => {
		const store = await fresh();
		await store.importChannel({channel: kitChannel, items: kitItems(3)});
		return store;
	};

	let edits = 0;
	/** Retitles the channel's first item `times` times, each to a new title: one event each. */
	async function edit(store: AsyncStore, times: number): Promise<void> {
		const [id] = await allItemIds(store, 'kit');
		for (let n = 0; n < times; n++) {
			await store.editItem({channelId: 'kit', itemId: id!, values: {title: `edit ${edits++}`}, actor: person});
		}
	}

	it('a run records the latest sequence at its start and at its end; edits in between move only the end', async () => {
		const store = await kit();
		expect(await store.latestSequence('kit')).toBe(3);
		await store.runs.start(started('run-1'));
		expect(await store.runs.get('run-1')).toMatchObject({start_sequence: 3, end_sequence: null});
		await edit(store, 4);
		expect(await store.runs.end('run-1', ended())).toBe(true);
		expect(await store.runs.get('run-1')).toMatchObject({start_sequence: 3, end_sequence: 7});
		// The listing carries the same columns.
		expect((await store.runs.list())[0]).toMatchObject({id: 'run-1', start_sequence: 3, end_sequence: 7});
	});

	it('lastFinished: none before a run finished its turn, then the finished run with the latest end', async () => {
		const store = await kit();
		expect(await store.runs.lastFinished('kit')).toBeUndefined();
		await store.runs.start(started('run-1'));
		// Still running: no cursor yet.
		expect(await store.runs.lastFinished('kit')).toBeUndefined();
		await store.runs.end('run-1', ended());
		expect(await store.runs.lastFinished('kit')).toMatchObject({id: 'run-1', end_sequence: 3});

		await edit(store, 2);
		await store.runs.start(started('run-2'));
		await edit(store, 1);
		await store.runs.end('run-2', ended({outcome: 'partial'}));
		expect(await store.runs.lastFinished('kit')).toMatchObject({id: 'run-2', start_sequence: 5, end_sequence: 6});

		// Runs after which no agent finished its turn leave the cursor where it was.
		for (const outcome of ['failed', 'cancelled', 'timed_out', 'auth_required', 'codex_missing']) {
			await edit(store, 1);
			await store.runs.start(started(`run-${outcome}`));
			await store.runs.end(`run-${outcome}`, ended({outcome}));
		}

		expect(await store.runs.get('run-failed')).toMatchObject({end_sequence: 7});
		expect(await store.runs.lastFinished('kit')).toMatchObject({id: 'run-2', end_sequence: 6});
		// Another connection reads the same cursor.
		const other = await again();
		expect(await other.runs.lastFinished('kit')).toMatchObject({id: 'run-2', end_sequence: 6});
	});

	it('a run that started earlier but finished later is the last finished', async () => {
		const store = await kit();
		await store.runs.start(started('run-a'));
		await store.runs.start(started('run-b'));
		await edit(store, 1);
		await store.runs.end('run-b', ended({finishedAt: '2026-01-01T00:01:00.000Z'}));
		await edit(store, 1);
		await store.runs.end('run-a', ended({finishedAt: '2026-01-01T00:02:00.000Z'}));
		expect(await store.runs.lastFinished('kit')).toMatchObject({id: 'run-a', start_sequence: 3, end_sequence: 5});
	});

	it('an end recorded late (the reaper) keeps no end sequence and is no cursor; the runner\'s own end then sets it', async () => {
		const store = await kit();
		await store.runs.start(started('run-1'));
		await edit(store, 2);
		expect(await store.runs.end('run-1', ended({onlyIfUnfinished: true, endSequenceUnknown: true}))).toBe(true);
		expect(await store.runs.get('run-1')).toMatchObject({outcome: 'ok', start_sequence: 3, end_sequence: null});
		expect(await store.runs.lastFinished('kit')).toBeUndefined();
		await edit(store, 1);
		expect(await store.runs.end('run-1', ended())).toBe(true);
		expect(await store.runs.lastFinished('kit')).toMatchObject({id: 'run-1', end_sequence: 6});
	});

	it('each channel has its own cursor', async () => {
		const store = await kit();
		await store.importChannel({channel: {id: 'other', name: 'Other', fields: [{key: 't', label: 'T', type: 'text'}]}, items: [{values: {t: 'a'}}]});
		await store.runs.start(started('run-other', 'other'));
		await store.runs.end('run-other', ended());
		expect(await store.runs.get('run-other')).toMatchObject({start_sequence: 1, end_sequence: 1});
		expect(await store.runs.lastFinished('kit')).toBeUndefined();
		expect(await store.runs.lastFinished('other')).toMatchObject({id: 'run-other'});
		expect(await store.runs.lastFinished('nope')).toBeUndefined();
	});
});
