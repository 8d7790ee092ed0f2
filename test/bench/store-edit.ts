// Edit cost: median µs per edit through Store.editItem, for three shapes of edit, against SQLite's
// own floors measured in the same run on the same file: an empty write transaction, a transaction
// that rewrites one row, and the least an evented edit must write (the item's version and its event).

import type {Store} from '../../store/index.js';
import type {Values} from '../../store/types.js';
import {validateValues} from '../../store/validate.js';
import {cleanScratch, freshBugStore, human, median, percentile, printTable, timeUs} from './support.js';

const STATUSES = ['triaged', 'in_progress', 'fixed', 'wont_fix'];
const OWNERS = ['aiko', 'mika', 'ren'];
const SEVERITIES = ['s1', 's2', 's3', 's4'];
const POINTS = [1, 2, 3, 5, 8, 13];
const AREAS = ['sync', 'ui', 'storage', 'auth', 'api', 'search'];

/** The n-th edit of an item: all six fields differ from its (n-1)-th, so every edit really writes. */
export function sixFields(n: number): Record<string, unknown> {
	const day = new Date(Date.UTC(2026, 0, 1 + (n % 28))).toISOString().slice(0, 10);
	return {status: STATUSES[n % 4], owner: OWNERS[n % 3], severity: SEVERITIES[n % 4], points: POINTS[n % 6], area: AREAS[n % 6], due: day};
}

/** The edits measured: the six sortable fields, one sortable field, and one free-text field. */
const SHAPES: Array<{name: string; values: (n: number) => Values}> = [
	{name: '6 fields (status, owner, severity, points, area, due)', values: n => sixFields(n) as Values},
	{name: '1 field: status', values: n => ({status: STATUSES[n % 4]!})},
	{name: '1 field: title (free text, not indexed)', values: n => ({title: `Retitled, edit ${n}`})},
];

class Editor {
	private edits = 0;
	readonly times: number[] = [];
	private readonly ids: string[];

	constructor(readonly store: Store, private readonly shape: (n: number) => Values = SHAPES[0]!.values) {
		this.ids = (store.db.prepare('SELECT id FROM items ORDER BY seq').all() as Array<{id: string}>).map(row => row.id);
	}

	/** The next edit of the round robin: every item in turn, each time with the shape's fields changed. */
	editOnce(): void {
		const n = this.edits++;
		const itemId = this.ids[n % this.ids.length]!;
		this.store.editItem({channelId: 'bugs', itemId, values: this.shape(1 + Math.floor(n / this.ids.length)), actor: human});
	}

	run(count: number, record: boolean): void {
		for (let index = 0; index < count; index++) {
			const us = timeUs(() => this.editOnce());
			if (record) {
				this.times.push(us);
			}
		}
	}
}

/**
 * SQL statements one edit runs: every run/get/all of a prepared statement, BEGIN and COMMIT
 * included (better-sqlite3 runs those as statements too, so the wrapper sees them). Counted after
 * the timing, on a wrapped prototype, so the timed edits pay nothing for it.
 */
function statementsPerEdit(editor: Editor, edits: number): number {
	const prototype = Object.getPrototypeOf(editor.store.db.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
	const originals = new Map<string, (...args: unknown[]) => unknown>();
	let calls = 0;
	for (const method of ['run', 'get', 'all', 'iterate']) {
		const original = prototype[method]!;
		originals.set(method, original);
		prototype[method] = function (this: unknown, ...args: unknown[]) {
			calls++;
			return original.apply(this, args);
		};
	}

	try {
		for (let index = 0; index < edits; index++) {
			editor.editOnce();
		}
	} finally {
		for (const [method, original] of originals) {
			prototype[method] = original;
		}
	}

	return calls / edits;
}

/** WAL frames (pages) one write's commit appends: the WAL emptied before it, its frame count read after. */
function walFramesPer(store: Store, write: () => void, writes = 50): number {
	return median(Array.from({length: writes}, () => {
		store.db.pragma('wal_checkpoint(TRUNCATE)');
		write();
		return (store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{log: number}>)[0]!.log;
	}));
}

/**
 * SQLite's floors on the same file, as bare statements with none of the store's work: an empty
 * BEGIN IMMEDIATE + COMMIT; one row rewritten (one page); and the least any evented edit writes
 * (docs/reference.md#the-edit-transaction): the item's version bumped and its event appended,
 * which touches the item's page, the events' last page and the events_by_item index.
 */
function floors(store: Store): Record<'empty' | 'oneRow' | 'evented', () => void> {
	const db = store.db;
	const rows = db.prepare('SELECT seq, id, version FROM items ORDER BY seq').all() as Array<{seq: number; id: string; version: number}>;
	const bump = db.prepare('UPDATE items SET version = version + 1, updated_at = ? WHERE seq = ?');
	const last = db.prepare('SELECT coalesce(max(sequence), 0) AS last FROM events WHERE channel_id = ?');
	const append = db.prepare('INSERT INTO events (channel_id, sequence, type, item_id, version, actor_kind, run_id, changes, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
	const changes = JSON.stringify({status: {from: 'new', to: 'triaged'}});
	let n = 0;
	const empty = db.transaction(() => undefined);
	const oneRow = db.transaction(() => bump.run(new Date().toISOString(), rows[n++ % rows.length]!.seq));
	const evented = db.transaction(() => {
		const row = rows[n++ % rows.length]!;
		const at = new Date().toISOString();
		bump.run(at, row.seq);
		const sequence = (last.get('bugs') as {last: number}).last + 1;
		append.run('bugs', sequence, 'item.updated', row.id, ++row.version + 1000, 'human', null, changes, at);
	});
	return {empty: () => empty.immediate(), oneRow: () => oneRow.immediate(), evented: () => evented.immediate()};
}

/** Median µs of each work, interleaved in rounds so drift in machine load hits all alike. */
function interleaved(works: Array<() => void>, rounds: number, perRound: number): number[][] {
	const times = works.map(() => [] as number[]);
	for (let round = 0; round < rounds; round++) {
		works.forEach((work, index) => {
			for (let count = 0; count < perRound; count++) {
				times[index]!.push(timeUs(work));
			}
		});
	}

	return times;
}

export function benchEditCost(quick: boolean): {validatedUs: number; ratio: number; floorUs: number} {
	const items = 500;
	const rounds = quick ? 4 : 10;
	const perRound = quick ? 500 : 1500;
	const validated = new Editor(freshBugStore(items));
	const stubbed = new Editor(freshBugStore(items, {validator: () => []}));
	const others = SHAPES.slice(1).map(shape => new Editor(freshBugStore(items), shape.values));
	const editors = [validated, stubbed, ...others];
	for (const editor of editors) {
		editor.run(1000, false);
	}

	// Alternate the order, so drift in machine load hits every editor alike.
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 === 0 ? editors : [...editors].reverse();
		for (const editor of order) {
			editor.run(perRound, true);
		}
	}

	// The real validator alone, on the same edits, for scale.
	const channel = validated.store.loadedChannel('bugs');
	const context = {relationExists: () => true, holderOf: () => undefined};
	const validation = Array.from({length: 20_000}, (_, n) => {
		const values = sixFields(n);
		return timeUs(() => validateValues(channel, values, context, false));
	});
	const floor = floors(validated.store);
	const [empty, oneRow, evented] = interleaved([floor.empty, floor.oneRow, floor.evented], rounds, perRound);
	const validatedUs = median(validated.times);
	const stubbedUs = median(stubbed.times);
	const ratio = validatedUs / stubbedUs;
	const floorUs = median(empty!);
	const times = (value: number) => `${(value / floorUs).toFixed(2)}×`;
	const statements = statementsPerEdit(validated, 200);
	const frames = walFramesPer(validated.store, () => validated.editOnce());
	printTable('Edit cost against the floor: one valid 6-field edit through Store.editItem, same run', [
		{'floor median µs': floorUs, 'edit median µs': validatedUs, ratio: times(validatedUs), 'statements / edit': statements, 'WAL frames / edit': frames, goal: '≤ 4×', met: validatedUs <= 4 * floorUs ? 'yes' : 'NO'},
	], ['statements: BEGIN, the item\'s read and UPDATE, the last sequence, the event, the follow-up probe, the sync outbox\'s (it queues nothing on an unlinked channel), COMMIT; WAL frames: 4096-byte pages the commit appends (median of 50 edits).']);
	printTable('Edit cost by shape of edit, real WAL file, same run', [
		...[validated, ...others].map((editor, index) => ({
			edit: SHAPES[index]!.name, edits: editor.times.length, 'median µs': median(editor.times), 'p90 µs': percentile(editor.times, 0.9),
			'× floor': times(median(editor.times)), 'WAL frames': walFramesPer(editor.store, () => editor.editOnce()),
		})),
		{edit: '6 fields, validation stubbed', edits: stubbed.times.length, 'median µs': stubbedUs, 'p90 µs': percentile(stubbed.times, 0.9), '× floor': times(stubbedUs)},
		{edit: 'ratio validated / stubbed (goal ≤ 1.3)', 'median µs': `${ratio.toFixed(2)}×`},
		{edit: 'validateValues alone (same 6 fields)', edits: validation.length, 'median µs': median(validation), 'p90 µs': percentile(validation, 0.9)},
	]);
	printTable('SQLite\'s floors on the same file: bare statements, none of the store\'s work', [
		{write: 'empty BEGIN IMMEDIATE + COMMIT (the floor)', 'median µs': floorUs, 'p90 µs': percentile(empty!, 0.9), '× floor': times(floorUs), 'WAL frames': walFramesPer(validated.store, floor.empty)},
		{write: 'one row rewritten', 'median µs': median(oneRow!), 'p90 µs': percentile(oneRow!, 0.9), '× floor': times(median(oneRow!)), 'WAL frames': walFramesPer(validated.store, floor.oneRow)},
		{write: 'least evented edit: version bump + event row', 'median µs': median(evented!), 'p90 µs': percentile(evented!, 0.9), '× floor': times(median(evented!)), 'WAL frames': walFramesPer(validated.store, floor.evented)},
	], [
		'Every committed page costs a WAL frame (two writes and a checksum); the empty transaction writes none.',
		'An edit that keeps the record contract (a new version and its event, docs/reference.md#the-edit-transaction)',
		'writes at least the item, the event and the event\'s item index: the last row is that floor.',
	]);
	for (const editor of editors) {
		editor.store.close();
	}

	cleanScratch();
	return {validatedUs, ratio, floorUs};
}
