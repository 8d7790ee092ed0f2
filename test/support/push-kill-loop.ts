// `sift sync push` SIGKILLed at seeded random points against the fake GitHub (the test's CI-sized
// loop and the bench's 200 points share it): each round a person retitles fresh issues, the push's
// k-th write is carried out by the fake but never answered (the crash window: sent, not confirmed)
// and the process is killed there; a last push runs to its end. Every issue is retitled once, so
// each must have been sent exactly once (the fake counts every PATCH, held or not) and must end
// with the title given here.

import {openAsyncStore} from '../../store/api.js';
import {siftAsync, siftChild} from './cli.js';
import {FIXTURE_REPO, type FakeGithub} from './fake-github.js';

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

/** `db` holds channel `channel` linked to the fake's repository and pulled; `env` reaches the fake. */
export async function pushKillLoop(options: {fake: FakeGithub; db: string; channel: string; env: NodeJS.ProcessEnv; points: number; seed: number; perRound?: number}): Promise<KillLoopResult> {
	const {fake, db, channel, env, points} = options;
	const perRound = options.perRound ?? 3;
	const random = seeded(options.seed);
	const numbers = [...fake.repo().issues.keys()];
	if (numbers.length < points * perRound) throw new Error(`the fake holds ${numbers.length} issues; ${points} rounds of ${perRound} need more`);
	const store = await openAsyncStore(db);
	const expected = new Map<number, string>();
	let killed = 0;
	let completed = 0;
	try {
		for (let round = 0; round < points; round++) {
			for (const number of numbers.slice(round * perRound, (round + 1) * perRound)) {
				const [match] = await store.findItemsNamed(channel, String(number));
				const title = `Kill round ${round} #${number}`;
				await store.editItem({channelId: channel, itemId: match!.item_id, values: {title}, actor: {kind: 'human'}});
				expected.set(number, title);
			}

			// The k-th write of this push is the point: carried out, never answered, then SIGKILL.
			const k = 1 + Math.floor(random() * perRound);
			let active = true;
			let writes = 0;
			const held = fake.holdNext((method, _path) => active && method === 'PATCH' && ++writes === k);
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
		if (last.code !== 0) throw new Error(`the last push exited ${last.code}: ${last.stderr}`);
	} finally {
		await store.close();
	}

	let duplicates = 0;
	let lost = 0;
	for (const [number, title] of expected) {
		const path = `/repos/${FIXTURE_REPO}/issues/${number}`;
		const sent = fake.requests.filter(request => request.method === 'PATCH' && request.path === path).length;
		duplicates += Math.max(0, sent - 1);
		if (sent === 0 || fake.issue(number).title !== title) lost++;
	}

	return {points, killed, completed, changes: expected.size, duplicates, lost};
}
