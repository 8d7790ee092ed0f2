// The edit transaction across real processes: several writers on one file lose no update and surface no
// SQLITE_BUSY; a writer SIGKILLed again and again never leaves a half-applied edit or a gap.
// The children run the compiled store (dist/), built here when it is missing or stale.

import {execFileSync, spawn} from 'node:child_process';
import {existsSync, readdirSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openStore, type Store} from '../../store/index.js';
import {allEvents, cleanTempDirs, expectGapFree, expectVersionsMatchEvents, human, raceChannel, tempDir} from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const worker = join(root, 'dist/test/store/workers/editor.js');


function sourcesOf(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourcesOf(path) : (entry.name.endsWith('.ts') ? [path] : []);
	});
}

/** True when some store or worker source is newer than its compiled file (or that is missing). */
function distIsStale(): boolean {
	const sources = [...sourcesOf(join(root, 'store')), join(root, 'test/store/workers/editor.ts')];
	return sources.some(source => {
		const built = join(root, 'dist', relative(root, source)).replace(/\.ts$/, '.js');
		return !existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs;
	});
}

function ensureBuilt(): void {
	if (!distIsStale()) {
		return;
	}

	try {
		execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {cwd: root, stdio: 'pipe'});
	} catch {
		// Type errors elsewhere in the project still emit; the check below is what matters.
	}

	if (distIsStale()) {
		throw new Error('could not build dist/ for the child processes (npx tsc -p tsconfig.json)');
	}
}

type Child = {code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string};

type Control = {kill(): void; go(): void};

/** Runs the worker; `onReady` gets control of it once it printed "ready". */
function run(args: string[], onReady?: (control: Control) => void): Promise<Child> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [worker, ...args], {stdio: ['pipe', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			const wasReady = stdout.includes('ready\n');
			stdout += chunk;
			if (!wasReady && stdout.includes('ready\n')) {
				onReady?.({kill: () => child.kill('SIGKILL'), go: () => child.stdin.end('go\n')});
			}
		});
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
			stderr += chunk;
		});
		child.on('error', reject);
		child.on('close', (code, signal) => resolve({code, signal, stdout, stderr}));
	});
}

function raceStore(items: number): {store: Store; ids: string[]} {
	const store = openStore(join(tempDir('sift-race-'), 'race.db'), {create: true});
	store.importChannel({channel: raceChannel, items: Array.from({length: items}, (_, index) => ({values: {title: `item ${index}`, counter: 0, a: 'start', b: 'start'}}))});
	const ids = store.listPage('race').items.map(item => item.id).reverse();
	return {store, ids};
}

beforeAll(() => {
	ensureBuilt();
}, 120_000);

afterAll(() => cleanTempDirs());

describe('several processes on one file', () => {
	it('4 processes × 500 conflicting read-modify-write edits: no lost update, no SQLITE_BUSY, versions and events consistent', async () => {
		const {store, ids} = raceStore(3);
		const workers = 4;
		const edits = 500;
		// All start together once every one has the file open.
		const ready: Control[] = [];
		const results = await Promise.all(Array.from({length: workers}, (_, index) => run(['increment', store.path, String(index), String(edits), ids.join(',')], control => {
			ready.push(control);
			if (ready.length === workers) {
				for (const each of ready) {
					each.go();
				}
			}
		})));
		const reports = results.map(result => {
			expect(result.stderr).toBe('');
			expect(result.code, result.stdout).toBe(0);
			expect(result.stdout).toMatch(/^ready\n\{/);
			return JSON.parse(result.stdout.slice('ready\n'.length)) as {worker: string; edits: number; conflicts: number; started: number; ended: number};
		});
		expect(reports.map(report => report.edits)).toEqual([edits, edits, edits, edits]);
		// They ran at the same time and really did collide.
		expect(Math.max(...reports.map(report => report.started))).toBeLessThan(Math.min(...reports.map(report => report.ended)));
		expect(reports.reduce((sum, report) => sum + report.conflicts, 0)).toBeGreaterThan(0);

		const items = ids.map(id => store.readItem('race', id));
		expect(items.reduce((sum, item) => sum + (item.values.counter as number), 0)).toBe(workers * edits);
		for (const item of items) {
			expect(item.version).toBe(1 + (item.values.counter as number));
		}

		expect(expectGapFree(store, 'race')).toBe(3 + workers * edits);
		expectVersionsMatchEvents(store, 'race');
		// Each update event moved the counter by exactly one: none was based on a stale read.
		for (const event of allEvents(store, 'race').filter(entry => entry.type === 'item.updated')) {
			expect((event.changes.counter!.to as number) - (event.changes.counter!.from as number)).toBe(1);
			expect(event.actor).toEqual({kind: 'agent', run_id: expect.stringMatching(/^w[0-3]$/) as string});
		}

		expect(store.db.pragma('integrity_check', {simple: true})).toBe('ok');
	}, 60_000);

	it('a writer SIGKILLed again and again leaves no gap and no half-applied edit', async () => {
		const {store, ids} = raceStore(3);
		const kills = 10;
		let before = store.latestSequence('race');
		for (let round = 0; round < kills; round++) {
			const delay = 20 + Math.floor(Math.random() * 131);
			const result = await run(['churn', store.path, ids.join(',')], control => setTimeout(control.kill, delay));
			expect(result.signal, result.stdout + result.stderr).toBe('SIGKILL');
			expect(result.stdout).toBe('ready\n');
			// The killed writer's work is readable right away by another connection.
			const after = store.latestSequence('race');
			expect(after).toBeGreaterThanOrEqual(before);
			before = after;
		}

		// Reopen the file the way a fresh process would, and check it from scratch.
		store.close();
		const reopened = openStore(store.path);
		expect(reopened.db.pragma('integrity_check', {simple: true})).toBe('ok');
		const total = expectGapFree(reopened, 'race');
		expect(total).toBeGreaterThan(3 + kills);
		expectVersionsMatchEvents(reopened, 'race');
		const events = allEvents(reopened, 'race');
		for (const event of events.filter(entry => entry.type === 'item.updated')) {
			expect(event.changes.a!.to).toBe(event.changes.b!.to);
		}

		for (const id of ids) {
			const item = reopened.readItem('race', id);
			expect(item.values.a).toBe(item.values.b);
			const last = events.filter(event => event.item_id === id).at(-1)!;
			expect(last.version).toBe(item.version);
			if (last.type === 'item.updated') {
				expect(item.values).toMatchObject({a: last.changes.a!.to, b: last.changes.b!.to});
			}
		}

		// And it still takes writes.
		expect(reopened.editItem({channelId: 'race', itemId: ids[0]!, actor: human, values: {a: 'after', b: 'after'}}).sequence).toBe(total + 1);
	}, 60_000);
});
