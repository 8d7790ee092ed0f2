// Edit cost: median µs per valid 6-field edit, with validation and with validation stubbed, in
// the same run on two identical files; plus SQLite's floor for one write transaction on this disk.

import type {Store} from '../../store/index.js';
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

class Editor {
	private edits = 0;
	readonly times: number[] = [];
	private readonly ids: string[];

	constructor(readonly store: Store) {
		this.ids = (store.db.prepare('SELECT id FROM items ORDER BY seq').all() as Array<{id: string}>).map(row => row.id);
	}

	/** The next edit of the round robin: every item in turn, each time with all six fields changed. */
	editOnce(): void {
		const n = this.edits++;
		const itemId = this.ids[n % this.ids.length]!;
		this.store.editItem({channelId: 'bugs', itemId, values: sixFields(1 + Math.floor(n / this.ids.length)), actor: human});
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
 * SQL statements one edit runs: every run/get/all of a prepared statement, plus the transaction's
 * BEGIN and COMMIT (better-sqlite3 issues those itself). Counted after the timing, on a wrapped
 * prototype, so the timed edits pay nothing for it.
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

	return calls / edits + 2;
}

/** WAL frames (pages) one edit's commit writes: the WAL emptied before it, its frame count read after. */
function walFramesPerEdit(editor: Editor, edits: number): number {
	const frames = Array.from({length: edits}, () => {
		editor.store.db.pragma('wal_checkpoint(TRUNCATE)');
		editor.editOnce();
		return (editor.store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{log: number}>)[0]!.log;
	});
	return median(frames);
}

/**
 * The same six-field change as the edits, as one bare UPDATE of the data column in its own
 * transaction: no validation, version, event or follow-up work, only SQLite's row and index writes.
 */
function bareUpdates(editor: Editor, count: number): number[] {
	const rows = editor.store.db.prepare('SELECT seq, data FROM items ORDER BY seq').all() as Array<{seq: number; data: string}>;
	const update = editor.store.db.prepare('UPDATE items SET data = ? WHERE seq = ?');
	const write = editor.store.db.transaction((data: string, seq: number) => update.run(data, seq));
	return Array.from({length: count}, (_, n) => {
		const row = rows[n % rows.length]!;
		const data = JSON.stringify({...(JSON.parse(row.data) as object), ...sixFields(1000 + Math.floor(n / rows.length))});
		return timeUs(() => write.immediate(data, row.seq));
	});
}

export function benchEditCost(quick: boolean): {validatedUs: number; ratio: number; floorUs: number} {
	const items = 500;
	const rounds = quick ? 4 : 10;
	const perRound = quick ? 500 : 1500;
	const validated = new Editor(freshBugStore(items));
	const stubbed = new Editor(freshBugStore(items, {validator: () => []}));
	validated.run(1000, false);
	stubbed.run(1000, false);
	// Alternate which goes first, so drift in machine load hits both alike.
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 === 0 ? [validated, stubbed] : [stubbed, validated];
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
	const empty = validated.store.db.transaction(() => undefined);
	const floor = Array.from({length: 5000}, () => timeUs(() => empty.immediate()));
	const indexFloor = bareUpdates(validated, 5000);
	const validatedUs = median(validated.times);
	const stubbedUs = median(stubbed.times);
	const ratio = validatedUs / stubbedUs;
	const floorUs = median(floor);
	const statements = statementsPerEdit(validated, 200);
	const frames = walFramesPerEdit(validated, 50);
	printTable('Edit cost against the floor: one valid 6-field edit through Store.editItem, same run', [
		{'floor median µs': floorUs, 'edit median µs': validatedUs, ratio: `${(validatedUs / floorUs).toFixed(2)}×`, 'statements / edit': statements, 'WAL frames / edit': frames, goal: '≤ 4×', met: validatedUs <= 4 * floorUs ? 'yes' : 'NO'},
	], ['statements: prepared-statement runs plus BEGIN and COMMIT; WAL frames: 4096-byte pages the commit appends (median of 50 edits).']);
	printTable('Edit cost: one valid 6-field edit (status, owner, severity, points, area, due), real WAL file', [
		{edit: 'with validation', edits: validated.times.length, 'median µs': validatedUs, 'p90 µs': percentile(validated.times, 0.9), goal: '≤ 20 µs', met: validatedUs <= 20 ? 'yes' : 'NO'},
		{edit: 'validation stubbed', edits: stubbed.times.length, 'median µs': stubbedUs, 'p90 µs': percentile(stubbed.times, 0.9)},
		{edit: 'ratio validated / stubbed', 'median µs': `${ratio.toFixed(2)}×`, goal: '≤ 1.3', met: ratio <= 1.3 ? 'yes' : 'NO'},
		{edit: 'validateValues alone (same 6 fields)', edits: validation.length, 'median µs': median(validation), 'p90 µs': percentile(validation, 0.9)},
		{edit: 'SQLite floor: empty BEGIN IMMEDIATE + COMMIT', edits: floor.length, 'median µs': floorUs, 'p90 µs': percentile(floor, 0.9)},
		{edit: 'index floor: the bare UPDATE of data alone, same 7 indexes', edits: indexFloor.length, 'median µs': median(indexFloor), 'p90 µs': percentile(indexFloor, 0.9)},
	], [
		'The index floor is what SQLite itself needs to rewrite one row whose 6 indexed values change (each index about 5 µs);',
		'no edit through those indexes can be cheaper, so the ≤ 4× goal against an empty transaction is out of reach while they exist.',
		'An edit commits ~16 WAL pages: the item row, the 7 partial indexes on data (SQLite rewrites every index on an updated',
		'column; a select or date entry that changes value usually moves between two leaves), the events row and events_by_item.',
		'Most of its time is writing those frames and SQLite\'s periodic checkpoint, not validation.',
	]);
	validated.store.close();
	stubbed.store.close();
	cleanScratch();
	return {validatedUs, ratio, floorUs};
}
