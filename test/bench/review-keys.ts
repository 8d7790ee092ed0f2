// Keys to review 20 proposals (docs/review.md; goal 21: one per proposal, plus P to open the
// queue). The screen machine (source/ui/reducer.ts) is driven key by key with its effects
// performed by the TUI's own effect table (source/ui/hooks/effects.ts) against a real SQLite
// store; the proposals are a proposing run's agent edits. Counted: the keys pressed until no
// proposal is open, for `a` on each, and for `A` once (with `u` to take it back).

import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Key} from 'ink';
import {bugsChannel, generateBugItems} from '../../demo-data/generate.js';
import {openAsyncStore, type AsyncStore} from '../../store/api.js';
import type {Field} from '../../store/index.js';
import {performEffect, type EffectHandlers} from '../../source/ui/hooks/effects.js';
import {initialScreen, reduce} from '../../source/ui/reducer.js';
import type {ScreenEvent, ScreenState} from '../../source/ui/state.js';
import {BENCH_NOW, printTable, type Row} from './support.js';

const PROPOSALS = 20;
const GOAL_KEYS = PROPOSALS + 1;

/** The screen machine on a store: events in, effects performed, their results fed back. */
class Screen {
	state: ScreenState;
	/** Events fed so far: the machine has settled when this stops growing. */
	private fed = 0;
	private readonly on: EffectHandlers;

	constructor(store: AsyncStore, fields: Field[], dir: string) {
		this.on = {store, stateDir: dir, configFile: join(dir, 'config.yaml'), startRun: async () => ({ok: false, text: 'no runs in this bench'}), cancelRun() {}, quit() {}, pollEvents() {}};
		const {state, effects} = initialScreen({channelId: 'bugs', fields, size: {columns: 120, rows: 40}, total: PROPOSALS, followUpCount: 0});
		this.state = state;
		for (const effect of effects) this.perform(effect);
	}

	private perform(effect: Parameters<typeof performEffect>[0]) {
		performEffect(effect, this.state, this.on, event => {
			this.send(event);
		});
	}

	send(event: ScreenEvent) {
		this.fed++;
		const {state, effects} = reduce(this.state, event);
		this.state = state;
		for (const effect of effects) this.perform(effect);
	}

	press(input: string) {
		this.send({type: 'key', input, key: {} as Key, at: Date.now()});
	}

	/** Until the effects asked for have answered: no event for five 5 ms turns in a row (the store's calls take less). */
	async settle() {
		for (let quiet = 0, seen = this.fed; quiet < 5;) {
			await new Promise(resolve => setTimeout(resolve, 5));
			quiet = this.fed === seen ? quiet + 1 : 0;
			seen = this.fed;
		}
	}
}

async function proposingStore(dir: string, name: string): Promise<{store: AsyncStore; fields: Field[]}> {
	const store = await openAsyncStore(join(dir, `${name}.db`), {create: true});
	await store.importChannel({channel: bugsChannel, items: generateBugItems({count: PROPOSALS, seed: 3, now: BENCH_NOW})});
	await store.runs.start({id: `run-${name}`, channelId: 'bugs', itemIds: [], instruction: 'bench', startedAt: new Date().toISOString(), logPath: null, mode: 'propose'});
	for (const preview of (await store.listPage('bugs', {limit: PROPOSALS})).items) {
		await store.editItem({channelId: 'bugs', itemId: preview.id, values: {points: preview.preview.points === 13 ? 1 : 13}, actor: {kind: 'agent', run_id: `run-${name}`}, expectedVersion: preview.version, reason: 'sized'});
	}

	return {store, fields: (await store.getChannel('bugs')).fields};
}

/** Presses `keys` one at a time (each answered before the next), until no proposal is open; how many were pressed. */
async function review(dir: string, name: string, keys: (pressed: number) => string): Promise<{keys: number; open: number; ms: number; store: AsyncStore; screen: Screen}> {
	const {store, fields} = await proposingStore(dir, name);
	const screen = new Screen(store, fields, dir);
	await screen.settle();
	const started = performance.now();
	let pressed = 0;
	while (await store.proposals.countOpen('bugs') > 0 && pressed < PROPOSALS * 3) {
		screen.press(keys(pressed++));
		await screen.settle();
	}

	return {keys: pressed, open: await store.proposals.countOpen('bugs'), ms: performance.now() - started, store, screen};
}

export async function benchReviewKeys(): Promise<Row[]> {
	const dir = mkdtempSync(join(tmpdir(), 'sift-bench-review-keys-'));
	const rows: Row[] = [];
	try {
		const each = await review(dir, 'each', pressed => (pressed === 0 ? 'P' : 'a'));
		rows.push({way: 'P, then a on each', proposals: PROPOSALS, keys: each.keys, goal: GOAL_KEYS, 'left open': each.open, ms: Math.round(each.ms)});
		await each.store.close();
		const all = await review(dir, 'all', pressed => (pressed === 0 ? 'P' : 'A'));
		all.screen.send({type: 'cancel'});
		all.screen.send({type: 'undo'});
		await all.screen.settle();
		const back = (await all.store.listPage('bugs', {limit: PROPOSALS})).items.filter(item => item.version === 3).length;
		rows.push({way: 'P, then A (u takes it back)', proposals: PROPOSALS, keys: all.keys, goal: GOAL_KEYS, 'left open': all.open, ms: Math.round(all.ms), 'set back by u': back});
		await all.store.close();
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}

	printTable(`Keys to review ${PROPOSALS} proposals (goal ${GOAL_KEYS}): the TUI's screen machine and effects on a SQLite store`, rows, [
		'keys: pressed one at a time, each answered by the store before the next, until no proposal is open.',
		'set back by u: items at version 3 after one u (proposed at 1, accepted to 2, undone to 3).',
	]);
	return rows;
}

// Run alone: node dist/test/bench/review-keys.js
if (import.meta.url === `file://${process.argv[1]}`) {
	await benchReviewKeys();
}
