// Keystrokes to set a field (issue 12), counted on the BUILT app in a real pseudo-terminal: keys are
// sent one at a time, and the count stops once the store shows the value. Marking rows (Space) and
// typed characters (a date's words) are counted apart from the keys that do the edit.
//   status, owner: the field's hotkey, then the option's digit
//   due: the hotkey, the words (+7d: shown as the ISO date), Enter

import {openStore, type Store} from '../../store/index.js';
import {idOfTicket, makeDemoDb} from '../support/pty-fixtures.js';
import {KEYS, type PtyApp} from '../support/pty.js';
import {waitUntil} from '../support/wait.js';
import {openSift, pause, stop} from './pty-bench.js';
import {printTable, type Row} from './support.js';

const COUNT = 200;
const ticket = (n: number) => `BUG-${String(n).padStart(4, '0')}`;

type Scenario = {field: 'status' | 'owner' | 'due'; rows: number};

const SCENARIOS: Scenario[] = [
	{field: 'status', rows: 1}, {field: 'owner', rows: 1}, {field: 'due', rows: 1},
	{field: 'status', rows: 10}, {field: 'owner', rows: 10}, {field: 'due', rows: 10},
];

/** Sends keys one by one (each after the previous one's frame settles), counting them. */
async function send(app: PtyApp, keys: string[]): Promise<number> {
	for (const key of keys) {
		app.press(key);
		await pause(40);
	}

	return keys.length;
}

/** The rows a scenario edits: consecutive rows from `start` whose field is empty (due) or not yet `value`. */
async function runScenario(store: Store, dbPath: string, stateDir: string, scenario: Scenario, start: number): Promise<Row> {
	const names = Array.from({length: scenario.rows}, (_, index) => ticket(COUNT - start - index));
	const read = (name: string) => store.readItem('bugs', idOfTicket(store, name)).values;
	const channel = store.getChannel('bugs');
	const options = channel.fields.find(field => field.key === scenario.field)?.config.options?.map(option => option.value) ?? [];
	// The option fewest of the rows have (for a select), so (nearly) every write is a change.
	const holding = (value: string) => names.filter(name => read(name)[scenario.field] === value).length;
	const pick = options.reduce((best, value, index) => (holding(value) < holding(options[best]!) ? index : best), 0);
	for (const name of names) if (scenario.field === 'due' && read(name).due !== null) store.editItem({channelId: 'bugs', itemId: idOfTicket(store, name), values: {due: null}, actor: {kind: 'human'}, expectedVersion: store.readItem('bugs', idOfTicket(store, name)).version});
	const app = openSift(dbPath, {env: {SIFT_STATE_DIR: stateDir}});
	try {
		await app.waitFor(ticket(COUNT), 20_000);
		await send(app, Array.from({length: start}, () => 'j'));
		await app.waitFor(`row ${start + 1} `);
		const marking = scenario.rows > 1 ? await send(app, Array.from({length: scenario.rows}, () => KEYS.space)) : 0;
		if (marking > 0) await app.waitFor(`${scenario.rows} marked`);
		let keys = 0;
		let typed = 0;
		let shows: (value: unknown) => boolean;
		const hotkey = {status: 's', owner: 'o', due: 'd'}[scenario.field];
		if (scenario.field === 'due') {
			keys += await send(app, [hotkey]);
			typed += await send(app, [...'+7d']);
			keys += await send(app, [KEYS.enter]);
			shows = value => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
		} else {
			keys += await send(app, [hotkey, String(pick + 1)]);
			shows = value => value === options[pick];
		}

		await waitUntil(() => names.every(name => shows(read(name)[scenario.field])), 'the store showing the value').catch((error: Error) => {
			throw new Error(`${scenario.field} on ${scenario.rows}: ${error.message}; screen:\n${app.screen()}`);
		});
		return {field: scenario.field, rows: scenario.rows, 'edit keys': keys, typed, 'marking (Space)': marking, total: keys + typed + marking, goal: scenario.rows === 1 ? '≤ 2 + typing' : '—'};
	} finally {
		await stop(app);
	}
}

export async function benchKeystrokes(): Promise<Row[]> {
	const db = makeDemoDb(COUNT, {prefix: 'sift-bench-keys-'});
	const store = openStore(db.dbPath);
	const rows: Row[] = [];
	try {
		let start = 0;
		for (const scenario of SCENARIOS) {
			rows.push(await runScenario(store, db.dbPath, db.stateDir, scenario, start));
			start += scenario.rows;
		}
	} finally {
		store.close();
		db.cleanup();
	}

	printTable('TUI keystrokes to set a field (built app in a pseudo-terminal, counted until the store shows the value)', rows, [
		'edit keys: the field hotkey and the digit (a select) or Enter (a date); typed: the date\'s words (+7d);',
		'marking: Space on each row of a bulk edit, which then writes every marked row with the version seen when marked.',
	]);
	return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await benchKeystrokes();
}
