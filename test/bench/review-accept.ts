// Accepting 1,000 proposals at once (docs/review.md; goal ≤ 2 s on SQLite), on SQLite and
// PostgreSQL: a run in propose mode proposes status and points for 1,000 demo items through
// AsyncStore.editItem, then one proposals.accept takes them all as one bulk edit of the person's
// (one transaction: each item written at its base version, its event, the proposal's decision and
// its event). Also timed: listing the queue, and declining 1,000 at once.

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import {newestItemIds} from '../support/item-ids.js';
import {benchDatabase} from './pg-support.js';
import {BENCH_NOW, printTable, type Row} from './support.js';

const PROPOSALS = 1000;
const GOAL_SQLITE_S = 2;

/** Proposals for every item by a proposing run; their ids. */
async function propose(store: AsyncStore, runId: string, ids: string[], round: number): Promise<number[]> {
	await store.runs.start({id: runId, channelId: 'bugs', itemIds: [], instruction: 'bench', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
	const made: number[] = [];
	for (const [index, itemId] of ids.entries()) {
		const item = await store.readItem('bugs', itemId);
		const result = await store.editItem({channelId: 'bugs', itemId, values: {title: `Retitled by the agent, round ${round}, item ${index}`, points: (index + round) % 13}, actor: {kind: 'agent', run_id: runId}, expectedVersion: item.version, reason: 'the reporter asks for it'});
		made.push(result.proposal_id!);
	}

	return made;
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function measure(backend: string, store: AsyncStore): Promise<Row> {
	await store.importChannel({channel: bugsChannel, items: generateBugItems({count: PROPOSALS, seed: 1, now: BENCH_NOW})});
	const ids = await newestItemIds(store, 'bugs', PROPOSALS);
	let start = process.hrtime.bigint();
	const accepting = await propose(store, 'bench-accept', ids, 0);
	const proposeSeconds = seconds(start);
	start = process.hrtime.bigint();
	const listed = await store.proposals.list({channelId: 'bugs'});
	const listSeconds = seconds(start);
	start = process.hrtime.bigint();
	const accepted = await store.proposals.accept({ids: accepting});
	const acceptSeconds = seconds(start);
	if (accepted.accepted.length !== PROPOSALS || listed.length !== PROPOSALS) throw new Error(`accepted ${accepted.accepted.length} and listed ${listed.length} of ${PROPOSALS}`);
	const declining = await propose(store, 'bench-decline', ids, 1);
	start = process.hrtime.bigint();
	const declined = await store.proposals.decline(declining);
	const declineSeconds = seconds(start);
	if (declined.declined.length !== PROPOSALS) throw new Error(`declined ${declined.declined.length} of ${PROPOSALS}`);
	return {
		backend,
		proposals: PROPOSALS,
		'propose, ms each': Math.round(proposeSeconds / PROPOSALS * 1e4) / 10,
		'list queue s': Math.round(listSeconds * 1000) / 1000,
		'accept all s': Math.round(acceptSeconds * 1000) / 1000,
		'decline all s': Math.round(declineSeconds * 1000) / 1000,
		goal: backend === 'sqlite' ? `≤ ${GOAL_SQLITE_S} s ${acceptSeconds <= GOAL_SQLITE_S ? 'met' : 'MISSED'}` : '—',
	};
}

export async function benchReviewAccept(): Promise<Row[]> {
	const rows: Row[] = [];
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-review-'));
	try {
		const store = await openAsyncStore(join(dir, 'review.db'), {create: true});
		try {
			rows.push(await measure('sqlite', store));
		} finally {
			await store.close();
		}
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}

	const database = await benchDatabase('PostgreSQL review bench');
	if (database) {
		try {
			const store = await openAsyncStore(database.url, {create: true});
			try {
				rows.push(await measure('postgres', store));
			} finally {
				await store.close();
			}
		} finally {
			await database.drop();
		}
	}

	printTable(`Accepting ${PROPOSALS.toLocaleString('en-US')} proposals at once, through AsyncStore (demo items, title and points each)`, rows, [
		'accept all: one proposals.accept call, one transaction: each item written at its base version with its event naming the proposal, the proposal decided with its own event.',
		'propose: one agent edit of a run in propose mode per item (read, then edit), validated as a write and kept as a proposal with its event.',
	]);
	return rows;
}

// Run alone: node dist/test/bench/review-accept.js
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchReviewAccept();
}
