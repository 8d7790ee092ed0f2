// Benchmark: GitHub sync against the fake GitHub (its OpenAPI checks off, for speed), on SQLite:
// a first pull of N issues and 3N comments (time, peak RSS of this process, which holds the fake
// too), an idle re-sync (requests GitHub would count, time), and 1,000 issues edited on both
// sides with 10 % clashing (conflicts found, silent overwrites and lost changes counted: both 0).

import {join} from 'node:path';
import {openAsyncStore, type AsyncStore} from '../../store/index.js';
import {pullChannel, syncChannel} from '../../source/sync/engine-loop.js';
import {GithubAdapter} from '../../source/sync/github/adapter.js';
import {GithubClient} from '../../source/sync/github/client.js';
import {channelForRepository} from '../../source/sync/github/connect.js';
import {githubLinkFields} from '../../source/sync/github/mapping.js';
import {systemClock} from '../../source/codex/watch-loop.js';
import {FIXTURE_REPO, startFakeGithub} from '../support/fake-github.js';
import {tempDir} from '../support/temp.js';
import {formatNumber, printTable} from './support.js';
import {ensureBuilt, siftAsync} from '../support/cli.js';
import {pushKillLoop} from '../support/push-kill-loop.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rssMb = () => `${formatNumber(Math.round(process.resourceUsage().maxRSS / 1024))} MB`;

export async function benchSyncGithub(quick: boolean): Promise<void> {
	const issues = quick ? 2000 : 10_000;
	// Every third issue gets 9 comments: 3 comments an issue on average.
	const fake = await startFakeGithub({issues, comments: 9, check: false});
	const client = new GithubClient({token: fake.token, baseUrl: fake.url, clock: systemClock, writeSpacingMs: 0, retryBaseMs: 10});
	const adapter = new GithubAdapter(client);
	const store: AsyncStore = await openAsyncStore(join(tempDir('sift-bench-sync-'), 'store.db'), {create: true});
	try {
		await store.importChannel({channel: await channelForRepository(client, FIXTURE_REPO, 'rust'), items: []});
		const mapped = githubLinkFields(await store.getChannel('rust'));
		await store.sync.link({channel_id: 'rust', tracker: 'github', remote: FIXTURE_REPO, key_field: mapped.keyField, fields: mapped.fields, state: {since: null, etag: null, read_only: mapped.readOnly}});
		const link = async () => (await store.sync.getLink('rust'))!;
		const rows: Array<Record<string, string>> = [];

		let started = performance.now();
		const first = await pullChannel(store, adapter, await link());
		rows.push({case: `first pull: ${formatNumber(issues)} issues, ${formatNumber(first.comments)} comments`, requests: String(fake.countedRequests().length), time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${formatNumber(first.created)} created`});

		await pullChannel(store, adapter, await link());
		const before = fake.requests.length;
		const countedBefore = fake.countedRequests().length;
		started = performance.now();
		const idle = await pullChannel(store, adapter, await link());
		rows.push({case: 'idle re-sync', requests: `${fake.requests.length - before} (${fake.countedRequests().length - countedBefore} counted)`, time: seconds(performance.now() - started), 'peak RSS': rssMb(), result: `${idle.created + idle.updated} changed`});

		// 1,000 issues edited on both sides: ours the title, theirs the labels, and for 100 of them the title too.
		const numbers = [...fake.repo().issues.keys()].slice(0, 1000);
		const clashes = new Set(numbers.filter((_, index) => index % 10 === 0));
		fake.label('bench-label');
		for (const number of numbers) {
			const [match] = await store.findItemsNamed('rust', String(number));
			await store.editItem({channelId: 'rust', itemId: match!.item_id, values: {title: `Ours ${number}`}, actor: {kind: 'human'}});
			fake.edit(number, issue => {
				(issue.labels as unknown[]).push(fake.label('bench-label'));
				if (clashes.has(number)) issue.title = `Theirs ${number}`;
			});
		}

		started = performance.now();
		const outcome = await syncChannel(store, adapter, await link(), {pull: true, push: true});
		const elapsed = performance.now() - started;
		let overwritten = 0;
		let lost = 0;
		for (const number of numbers) {
			const [match] = await store.findItemsNamed('rust', String(number));
			const item = await store.readItem('rust', match!.item_id);
			const remote = fake.issue(number);
			if (clashes.has(number)) {
				if (item.values.title !== `Ours ${number}` || remote.title !== `Theirs ${number}`) overwritten++;
			} else if (remote.title !== `Ours ${number}`) {
				lost++;
			}

			if (!(item.values.labels as string[] | null)?.includes('bench-label')) lost++;
		}

		rows.push({case: `1,000 both-side edits, ${clashes.size} clashing`, requests: `${outcome.push?.sent ?? 0} sent`, time: seconds(elapsed), 'peak RSS': rssMb(), result: `${outcome.conflicts} conflicts, ${overwritten} silent overwrites, ${lost} lost`});
		printTable(`GitHub sync against the fake GitHub (SQLite${quick ? ', --quick' : ''})`, rows, [
			'requests counted: what GitHub counts against the rate limit (a 304 is free); peak RSS includes the fake GitHub, which runs in this process',
		]);
	} finally {
		await store.close();
		await fake.stop();
	}

	await benchPushKills(quick ? 20 : 200);
}

/**
 * `sift sync push` (the built CLI) SIGKILLed at `points` seeded random points in its crash window
 * (its k-th write carried out by the fake, never answered), then a last push: duplicate writes
 * (the fake counts every PATCH) and lost changes, both to be 0.
 */
export async function benchPushKills(points: number): Promise<void> {
	ensureBuilt();
	const fake = await startFakeGithub({issues: points * 3 + 50, comments: 0, check: false});
	try {
		const db = join(tempDir('sift-bench-kill-'), 'store.db');
		const env = {GITHUB_TOKEN: fake.token, GH_TOKEN: '', SIFT_GITHUB_API: fake.url, SIFT_NO_GH: '1', XDG_CONFIG_HOME: tempDir('sift-bench-config-')};
		for (const args of [['sync', 'add', 'github', FIXTURE_REPO], ['sync', 'rust']]) {
			const result = await siftAsync([...args, '--db', db], env);
			if (result.code !== 0) throw new Error(`sift ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		}

		const started = performance.now();
		const result = await pushKillLoop({fake, db, channel: 'rust', env, points, seed: 20_261_207});
		printTable('sift sync push SIGKILLed at random points (SQLite, seed 20261207)', [{
			points: String(result.points), killed: String(result.killed), 'ended first': String(result.completed), changes: String(result.changes),
			'duplicate writes': String(result.duplicates), 'lost changes': String(result.lost), time: seconds(performance.now() - started),
		}], ['each point: a push whose k-th write (k seeded) the fake carried out and never answered, killed there; then one last push runs to its end']);
	} finally {
		await fake.stop();
	}
}
