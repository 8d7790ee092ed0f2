// `sift sync push` SIGKILLed at seeded random points in its crash window, against any tracker the
// tests run (the fake GitHub, or the live Redmine behind a holding proxy; the tests' CI-sized loops
// and the benches share it): each round a person retitles fresh issues, the push's k-th write is
// carried out by the tracker but never answered (sent, not confirmed) and the process is killed
// there; a last push runs to its end. Every issue is retitled once, so each must have been written
// exactly once and must end with the title given here.

import {openAsyncStore} from '../../store/api.js';
import {siftAsync, siftChild} from './cli.js';
import {FIXTURE_REPO, type FakeGithub} from './fake-github.js';

/** What the loop needs of a tracker: its issues, a write's answer held back, and what it holds afterwards. */
export type KillLoopTracker = {
	/** The remote ids (the channel's key values) the rounds retitle, in order. */
	ids: string[];
	/** The method of a title write (GitHub's PATCH, Redmine's PUT). */
	write: string;
	/** Resolves once the next request `match` takes was carried out by the tracker, its answer held back. */
	holdNext(match: (method: string, path: string) => boolean): Promise<void>;
	/** How many times the tracker took `title` for the issue (its requests; for Redmine also its journal entries, the larger). */
	writes(id: string, title: string): Promise<number>;
	title(id: string): Promise<string>;
};

/** The fake GitHub's repository as a kill loop's tracker (it counts every PATCH, held or not). */
export function githubKillTracker(fake: FakeGithub): KillLoopTracker {
	return {
		ids: [...fake.repo().issues.keys()].map(String),
		write: 'PATCH',
		holdNext: match => fake.holdNext(match),
		writes: async id => fake.requests.filter(request => request.method === 'PATCH' && request.path === `/repos/${FIXTURE_REPO}/issues/${id}`).length,
		title: async id => String(fake.issue(Number(id)).title),
	};
}

export type KillLoopResult = {points: number; killed: number; completed: number; changes: number; duplicates: number; lost: number};

/** A small seeded generator (mulberry32): the same seed, the same kill points. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6D2B79F5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** `db` holds channel `channel` linked to the tracker (`tracker`, or the fake GitHub `fake`) and pulled; `env` reaches it. */
export async function pushKillLoop(options: {tracker?: KillLoopTracker; fake?: FakeGithub; db: string; channel: string; env: NodeJS.ProcessEnv; points: number; seed: number; perRound?: number}): Promise<KillLoopResult> {
	const {db, channel, env, points} = options;
	const tracker = options.tracker ?? githubKillTracker(options.fake!);
	const perRound = options.perRound ?? 3;
	const random = seeded(options.seed);
	const ids = tracker.ids;
	if (ids.length < points * perRound) throw new Error(`the tracker holds ${ids.length} issues; ${points} rounds of ${perRound} need more`);
	const store = await openAsyncStore(db);
	const expected = new Map<string, string>();
	let killed = 0;
	let completed = 0;
	try {
		for (let round = 0; round < points; round++) {
			for (const id of ids.slice(round * perRound, (round + 1) * perRound)) {
				const [match] = await store.findItemsNamed(channel, id);
				const title = `Kill round ${round} #${id}`;
				await store.editItem({channelId: channel, itemId: match!.item_id, values: {title}, actor: {kind: 'human'}});
				expected.set(id, title);
			}

			// The k-th write of this push is the point: carried out, never answered, then SIGKILL.
			const k = 1 + Math.floor(random() * perRound);
			let active = true;
			let writes = 0;
			const held = tracker.holdNext((method, _path) => active && method === tracker.write && ++writes === k);
			const {child, done} = siftChild(['sync', 'push', channel, '--db', db], env);
			const first = await Promise.race([held.then(() => 'held' as const), done.then(() => 'done' as const)]);
			if (first === 'held') {
				child.kill('SIGKILL');
				killed++;
			} else {
				completed++;
			}

			await done;
			active = false;
		}

		const last = await siftAsync(['sync', 'push', channel, '--db', db], env);
		if (last.code !== 0) throw new Error(`the last push exited ${last.code}: ${last.stdout}${last.stderr}`);
	} finally {
		await store.close();
	}

	let duplicates = 0;
	let lost = 0;
	for (const [id, title] of expected) {
		const sent = await tracker.writes(id, title);
		duplicates += Math.max(0, sent - 1);
		if (sent === 0 || await tracker.title(id) !== title) lost++;
	}

	return {points, killed, completed, changes: expected.size, duplicates, lost};
}
