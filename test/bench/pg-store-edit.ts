// Edit cost on PostgreSQL: median ms per edit through AsyncStore.editItem, for the three shapes of
// edit the SQLite edit-cost bench uses (store-edit.ts), and an agent's refused edit (its follow-ups
// refreshed), in alternating rounds over 500 demo items.
// Runs in a fresh database (test/bench/pg-support.ts); without a server it says so and is left out.

import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {Grants} from '../../store/grants.js';
import {benchDatabase} from './pg-support.js';
import {newestItemIds} from '../support/item-ids.js';
import {sixFields} from './store-edit.js';
import {BENCH_NOW, median, percentile, printTable, type Row} from './support.js';

const ITEMS = 500;
const agent = {kind: 'agent', run_id: 'bench'} as const;

type Shape = {name: string; edit: (store: AsyncStore, itemId: string, n: number) => Promise<unknown>};

const SHAPES: Shape[] = [
	{name: '6 fields (status, owner, severity, points, area, due)', edit: async (store, itemId, n) => store.editItem({channelId: 'bugs', itemId, values: sixFields(n), actor: {kind: 'human'}})},
	{name: '1 field: status', edit: async (store, itemId, n) => store.editItem({channelId: 'bugs', itemId, values: {status: ['triaged', 'fixed'][n % 2]}, actor: {kind: 'human'}})},
	{name: '1 field: title (free text, not indexed)', edit: async (store, itemId, n) => store.editItem({channelId: 'bugs', itemId, values: {title: `Retitled, edit ${n}`}, actor: {kind: 'human'}})},
	{name: 'agent, refused (2 follow-ups refreshed)', edit: async (store, itemId, n) => store.editItem({channelId: 'bugs', itemId, values: {status: 'In progress', points: 100 + n}, actor: agent, grants: new Grants(['bugs'])}).catch(() => undefined)},
];

export async function benchPgEditCost(quick: boolean): Promise<Row[]> {
	const database = await benchDatabase('PostgreSQL edit-cost bench');
	if (!database) {
		return [];
	}

	const rounds = quick ? 4 : 10;
	const perRound = quick ? 100 : 300;
	const rows: Row[] = [];
	try {
		const store = await openAsyncStore(database.url);
		try {
			await store.importChannel({channel: bugsChannel, items: generateBugItems({count: ITEMS, seed: 1, now: BENCH_NOW})});
			const ids = await newestItemIds(store, 'bugs', ITEMS);
			const times = SHAPES.map(() => [] as number[]);
			const counters = SHAPES.map(() => 0);
			for (let round = -1; round < rounds; round++) {
				const order = round % 2 === 0 ? SHAPES.entries() : [...SHAPES.entries()].reverse();
				for (const [index, shape] of order) {
					for (let count = 0; count < perRound; count++) {
						const n = counters[index]!++;
						const start = process.hrtime.bigint();
						await shape.edit(store, ids[n % ids.length]!, 1 + Math.floor(n / ids.length));
						// Round -1 warms the connections and plans.
						if (round >= 0) times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
					}
				}
			}

			for (const [index, shape] of SHAPES.entries()) {
				rows.push({edit: shape.name, edits: times[index]!.length, 'median ms': median(times[index]!), 'p90 ms': percentile(times[index]!, 0.9)});
			}
		} finally {
			await store.close();
		}
	} finally {
		await database.drop();
	}

	printTable(`PostgreSQL edit cost by shape of edit, through AsyncStore.editItem (${ITEMS} items, alternating rounds)`, rows, [
		'Each edit is one transaction: the item row locked, validated, one statement for the update, its event and its follow-ups.',
	]);
	return rows;
}

// Run alone: node dist/test/bench/pg-store-edit.js [--quick]
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchPgEditCost(process.argv.includes('--quick'));
}
