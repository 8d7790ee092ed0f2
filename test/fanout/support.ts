// A demo database with the fake codex for fan-out tests; runs-table helpers; `watchCaughtUp`, a
// watch with nothing left to do.

import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {watchCursorPath, type WatchCursor} from '../../source/codex/watch.js';
import type {AsyncStore} from '../../store/index.js';
import {waitUntil} from '../support/wait.js';
import {demoDatabase, sift} from '../support/cli.js';
import {FAKE_CODEX, tempDir} from '../codex/support.js';

export type FanoutSetup = {db: string; env: NodeJS.ProcessEnv; dir: string};

/** A demo database of `items` items, a private state dir, and the fake codex (FAKE_* variables as given). */
export function fanoutSetup(items: number, fakeEnv: Record<string, string> = {}): FanoutSetup {
	const dir = tempDir('sift-fanout-');
	const db = demoDatabase(items);
	const env = {
		SIFT_STATE_DIR: path.join(dir, 'state'),
		SIFT_CODEX: FAKE_CODEX,
		FAKE_CODEX_PIDFILE: path.join(dir, 'pids'),
		FAKE_CODEX_CALLS: path.join(dir, 'calls'),
		...fakeEnv,
	};
	return {db, env, dir};
}

export type RunRow = {id: string; item_ids: string[]; outcome: string | null; started_at: string; finished_at: string | null};

export function runRows(setup: FanoutSetup): RunRow[] {
	const result = sift(['runs', '--db', setup.db, '--json', '--limit', '1000'], setup.env);
	if (result.code !== 0) throw new Error(result.stderr);
	return JSON.parse(result.stdout) as RunRow[];
}

/** The most runs going at one moment, from the runs table's start and end times. */
export function mostAtOnce(rows: RunRow[]): number {
	const edges = rows.flatMap(row => [{at: Date.parse(row.started_at), step: 1}, {at: Date.parse(row.finished_at!), step: -1}]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let now = 0;
	let most = 0;
	for (const edge of edges) most = Math.max(most, (now += edge.step));
	return most;
}

/** The run id of each `codex exec` the fake saw, from its MCP server's `--run`. */
export function execRunIds(callsFile: string, read: (file: string) => string): string[] {
	return read(callsFile).trim().split('\n').map(line => JSON.parse(line) as string[])
		.filter(argv => argv[0] === 'exec' && argv.includes('--json'))
		.map(argv => /"--run", "([^"]+)"/.exec(argv.find(arg => arg.startsWith('mcp_servers.sift=')) ?? '')?.[1] ?? '');
}

/**
 * Waits until a `sift watch` has nothing left to do: its cursor file (under `stateDir`) has taken
 * in every event the channel has and holds no item waiting. Until a new event it can send
 * nothing more, which is how a test knows "nothing else happened" without sleeping.
 */
export async function watchCaughtUp(stateDir: string, store: AsyncStore, where?: string, channelId = 'bugs'): Promise<void> {
	const file = watchCursorPath(stateDir, {location: store.location, channelId, where});
	const latest = await store.latestSequence(channelId);
	await waitUntil(() => {
		if (!existsSync(file)) return false;
		const cursor = JSON.parse(readFileSync(file, 'utf8')) as WatchCursor;
		return cursor.sequence >= latest && cursor.pending.length === 0;
	}, `the watch to take in every event up to ${latest} with nothing waiting`, {timeoutMs: 20_000, intervalMs: 50});
}
