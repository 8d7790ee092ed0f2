// The TUI at triage (issue 22), on the BUILT app in a real pseudo-terminal with the 1k demo:
//   dropped keys      200 j in a burst on the All view: keys the app handled (its SIFT_DEBUG_KEYS
//                     log) and rows the cursor moved, against keys sent; sent as one write, as 200
//                     writes once the view settled, and as 200 writes at the first frame (pages loading)
//   keys per item     a scripted triage of the Inbox's first N records with the keys a person presses:
//                     status, owner and severity by hotkey and digit, j (or k) to reach the next
//                     record only where the cursor is not on it already; keys/item, counted until the
//                     store shows each value
// First frame and keypress → frame are ui-speed.ts's.

import {readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {openStore, type Store} from '../../store/index.js';
import {makeDemoDb, type DemoDb} from '../support/pty-fixtures.js';
import {waitUntil} from '../support/wait.js';
import {COLS, firstFrame, openSift, pause, rowNumber, ROWS, settledRow, stop} from './pty-bench.js';
import {printTable, type Row} from './support.js';

const COUNT = 1000;

const open = (db: DemoDb, env: NodeJS.ProcessEnv = {}) => openSift(db.dbPath, {env: {SIFT_STATE_DIR: db.stateDir, ...env}});

type Burst = {label: string; oneWrite: boolean; atFirstFrame: boolean};

const BURSTS: Burst[] = [
	{label: '200 j in one write, settled All view', oneWrite: true, atFirstFrame: false},
	{label: '200 j as 200 writes, settled All view', oneWrite: false, atFirstFrame: false},
	{label: '200 j as 200 writes at the first frame (pages loading)', oneWrite: false, atFirstFrame: true},
];

async function burst(db: DemoDb, {label, oneWrite, atFirstFrame}: Burst): Promise<Row> {
	const log = path.join(db.dir, `keys-${Date.now()}.log`);
	const app = open(db, {SIFT_DEBUG_KEYS: log});
	try {
		await app.waitFor(firstFrame, 30_000);
		if (!atFirstFrame) {
			await app.waitFor(/4 All [\d,]+/, 30_000);
			await pause(500);
		}

		const before = (() => {
			try {
				return readFileSync(log, 'utf8').split('\n').filter(line => / key "j+"$/.test(line)).length;
			} catch {
				return 0;
			}
		})();
		if (oneWrite) app.type('j'.repeat(200));
		else for (let index = 0; index < 200; index++) app.press('j');
		const moved = (await settledRow(app)) - 1;
		const handled = readFileSync(log, 'utf8').split('\n').filter(line => / key "j+"$/.test(line)).length - before;
		return {burst: label, 'keys sent': 200, 'keys handled': handled, 'rows moved': moved, dropped: 200 - Math.min(handled, moved), goal: '0 dropped'};
	} finally {
		await stop(app);
		rmSync(log, {force: true});
	}
}

export async function benchDroppedKeys(): Promise<Row[]> {
	const db = makeDemoDb(COUNT, {prefix: 'sift-bench-burst-'});
	const rows: Row[] = [];
	try {
		for (const each of BURSTS) rows.push(await burst(db, each));
	} finally {
		db.cleanup();
	}

	printTable(`TUI dropped keys: a burst of 200 j on the ${COUNT.toLocaleString('en-US')}-item demo (${COLS}×${ROWS} pseudo-terminal)`, rows, [
		'keys handled: j keys the app routed one by one (its SIFT_DEBUG_KEYS log, a line per key); rows moved: the header\'s row number once it has not',
		'changed for a second, minus 1. dropped: keys sent minus the fewer of the two.',
	]);
	return rows;
}

type Step = {key: string; hotkey: string; value: string; option: number};

/** Status triaged, the first owner, the second severity: what a triager sets on a new record. */
function triageSteps(store: Store): Step[] {
	const fields = store.getChannel('bugs').fields;
	const optionsOf = (key: string) => fields.find(field => field.key === key)!.config.options!.map(option => option.value);
	const step = (key: string, hotkey: string, option: number): Step => ({key, hotkey, value: optionsOf(key)[option]!, option});
	return [step('status', 's', optionsOf('status').indexOf('triaged')), step('owner', 'o', 0), step('severity', 'v', 1)];
}

type Order = {label: string; edits: (records: number, steps: number) => Array<[record: number, step: number]>};

/** Two ways through the same edits: each record's fields in turn, or each field down the records. */
const ORDERS: Order[] = [
	{label: 'record by record', edits: (records, steps) => Array.from({length: records * steps}, (_, at) => [Math.floor(at / steps), at % steps])},
	{label: 'field by field (the cursor advances)', edits: (records, steps) => Array.from({length: records * steps}, (_, at) => [at % records, Math.floor(at / records)])},
];

/**
 * Presses j/k (or g for the first row from further down) until the header's row is `target`;
 * the number of keys it took. An edit's advance has already moved the cursor when it is drawn.
 */
async function moveTo(app: ReturnType<typeof open>, target: number): Promise<number> {
	let moves = 0;
	for (let at = rowNumber(app.screen()); at !== target; at = rowNumber(app.screen())) {
		app.press(target === 1 && at > 2 ? 'g' : (at < target ? 'j' : 'k'));
		moves++;
		await app.waitFor(screen => rowNumber(screen) !== at, 10_000);
	}

	return moves;
}

async function triage(db: DemoDb, order: Order, items: number): Promise<Row> {
	const store = openStore(db.dbPath);
	const app = open(db);
	try {
		const inbox = store.listPage('bugs', {beforeId: null, where: 'status:new', limit: items}).items.map(item => item.id);
		const steps = triageSteps(store);
		await app.waitFor(firstFrame, 30_000);
		let keys = 0;
		let moves = 0;
		const started = performance.now();
		app.press('1');
		keys++;
		await app.waitFor(screen => firstFrame(screen) && /View: Inbox|Inbox/.test(screen), 10_000);
		await pause(300);
		for (const [index, stepIndex] of order.edits(inbox.length, steps.length)) {
			const id = inbox[index]!;
			const step = steps[stepIndex]!;
			moves += await moveTo(app, index + 1);
			app.press(step.hotkey);
			await pause(40);
			app.press(String(step.option + 1));
			keys += 2;
			await waitUntil(() => store.readItem('bugs', id).values[step.key] === step.value, `the store showing ${step.key} on record ${index + 1}`);
			// The edit's own line in the footer: drawn with the cursor where the edit left it.
			const {version, values} = store.readItem('bugs', id);
			await app.waitFor(screen => screen.includes(`${String(values.ticket)}: `) && screen.includes(`(v${version}) · u undoes`), 10_000, `the edit of record ${index + 1} drawn`);
		}

		const seconds = (performance.now() - started) / 1000;
		return {order: order.label, records: items, 'fields per record': steps.length, 'edit keys': keys, 'moves (j/k/g)': moves, 'keys per record': ((keys + moves) / items).toFixed(2), 'seconds per record (scripted)': (seconds / items).toFixed(2), goal: `${steps.length * 2} + ≤ 1 move`};
	} finally {
		await stop(app);
		store.close();
	}
}

export async function benchTriageKeys(quick = false): Promise<Row[]> {
	const items = quick ? 5 : 20;
	const rows: Row[] = [];
	for (const order of ORDERS) {
		const db = makeDemoDb(COUNT, {prefix: 'sift-bench-triage-'});
		try {
			rows.push(await triage(db, order, items));
		} finally {
			db.cleanup();
		}
	}

	const steps = (() => {
		const db = makeDemoDb(10, {prefix: 'sift-bench-triage-steps-'});
		const store = openStore(db.dbPath);
		try {
			return triageSteps(store);
		} finally {
			store.close();
			db.cleanup();
		}
	})();
	printTable(`TUI keys per triaged record: the Inbox of the ${COUNT.toLocaleString('en-US')}-item demo (${COLS}×${ROWS} pseudo-terminal, advance_after_edit on)`, rows, [
		`Each record: ${steps.map(step => `${step.hotkey} ${step.option + 1} (${step.key} ${step.value})`).join(', ')}, each counted once the store shows it and its line is drawn;`,
		'the 1 that opens the Inbox is in the edit keys. A move is pressed only when the cursor is not on the record already (after an edit it has',
		'moved on to the next row): record by record, each further field of the record takes a k back; field by field, only the g back to the top.',
	]);
	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await benchDroppedKeys();
	await benchTriageKeys(process.argv.includes('--quick'));
}
